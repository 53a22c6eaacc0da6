import { describe, expect, it } from 'vitest'
import { buildAgentNoticeEmail, buildClaimCodeEmail, type AgentNotice } from './agent-claim-mail.ts'

const notice = (overrides: Partial<AgentNotice>): AgentNotice => ({
  id: 1,
  kind: 'correction_rejected',
  email: 'agent@example.com',
  agent_id: 'a1',
  agent_name: 'Jordan Lee',
  subject_id: 's1',
  reason: null,
  details: {},
  ...overrides,
})

describe('the claim code mail', () => {
  it('has a fixed subject and first line, the code, and nothing the claimant typed', () => {
    const mail = buildClaimCodeEmail({ code: '042917', agentName: 'Jordan Lee', minutes: 30 })
    expect(mail.subject).toBe('Your AgentInsight profile claim code')
    expect(mail.text.split('\n')[0]).toBe('Someone asked to claim your agent profile on AgentInsight.')
    expect(mail.text).toContain('Your code: 042917')
    expect(mail.text).toContain('It is valid for 30 minutes.')
    expect(mail.html).toContain('042917')
  })
})

describe('the decision mails', () => {
  it('keep the subject and first line fixed per kind and put the reason further down, escaped', () => {
    const mail = buildAgentNoticeEmail(
      notice({
        reason: '<script>alert(1)</script> The MLS shows you as the buyer agent.',
        details: { kind: 'not_my_sale', address: '12 Elm St', listing_number: 'MLS-77' },
      }),
      'https://agentinsight.example/',
    )
    expect(mail.subject).toBe('Your correction on AgentInsight was not accepted')
    const lines = mail.text.split('\n')
    expect(lines[0]).toBe('A correction you filed on AgentInsight was not accepted.')
    expect(lines).toContain('Correction: Not my sale (12 Elm St, MLS MLS-77)')
    expect(lines).toContain('Reason given by our team:')
    expect(lines.at(-1)).toBe('Your agent profile: https://agentinsight.example/account/agent')
    expect(mail.html).not.toContain('<script>')
    expect(mail.html).toContain('&lt;script&gt;')
    expect(mail.html).toContain('<a href="https://agentinsight.example/account/agent">Open your agent profile</a>')
  })

  it('names what a visibility request asked for', () => {
    const mail = buildAgentNoticeEmail(
      notice({ kind: 'visibility_accepted', details: { hide_phone: true, hide_email: false, noindex: true } }),
      'https://agentinsight.example',
    )
    expect(mail.subject).toBe('Your profile visibility request on AgentInsight was accepted')
    expect(mail.text).toContain('Requested: phone number hidden, email address shown, kept out of search engines.')
  })

  it('has a subject for every kind, none with the agent or the reason in it', () => {
    const kinds: AgentNotice['kind'][] = [
      'claim_approved',
      'claim_rejected',
      'claim_revoked',
      'correction_accepted',
      'correction_rejected',
      'visibility_accepted',
      'visibility_rejected',
    ]
    const subjects = kinds.map(
      (kind) => buildAgentNoticeEmail(notice({ kind, reason: 'Because' }), 'https://x.example').subject,
    )
    expect(new Set(subjects).size).toBe(kinds.length)
    for (const subject of subjects) {
      expect(subject).not.toContain('Jordan')
      expect(subject).not.toContain('Because')
    }
  })
})
