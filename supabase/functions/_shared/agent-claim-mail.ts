/**
 * The mails of agent claims: the claim code sent to the email on the agent's MLS record, and one mail per decision
 * on a claim, a correction or a visibility request (the queue private.agent_notices, taken by
 * public.take_agent_notices). Subjects and first lines are fixed text: what a person typed (a reason, an address)
 * appears only further down, escaped. Pure builders (unit-tested) plus `sendAgentNotices`, which drains the queue.
 */
import { CORRECTION_KIND_LABELS, type CorrectionKind } from './agent-claim-words.ts'
import { escapeHtml } from './html.ts'
import { type MailConfig, MailSendError, MailSuppressedError, sendMail } from './mail.ts'
import type { Db } from './supabase.ts'

export type BuiltMail = { subject: string; html: string; text: string }

const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`

function page(lines: string[]): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">${lines.join('')}</body></html>`
}

/**
 * The claim code mail, to the email on the agent's MLS record. `agentName` is MLS data, the code six digits.
 * Nothing the claimant typed appears in it.
 */
export function buildClaimCodeEmail(input: { code: string; agentName: string; minutes: number }): BuiltMail {
  const first = 'Someone asked to claim your agent profile on AgentInsight.'
  const codeLine = `Your code: ${input.code}`
  const valid = `It is valid for ${input.minutes} minutes. Enter it on the claim page to confirm that the profile is yours.`
  const profile = `Profile: ${input.agentName}`
  const ignore =
    'If you did not ask for this, you can ignore this email: nothing changes on the profile without the code.'
  return {
    subject: 'Your AgentInsight profile claim code',
    text: [first, '', codeLine, valid, '', profile, '', ignore].join('\n'),
    html: page([
      paragraph(first),
      `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${escapeHtml(input.code)}</p>`,
      paragraph(valid),
      paragraph(profile),
      paragraph(ignore),
    ]),
  }
}

/** One queued decision notice as public.take_agent_notices returns it. */
export type AgentNotice = {
  id: number
  kind:
    | 'claim_approved'
    | 'claim_rejected'
    | 'claim_revoked'
    | 'correction_accepted'
    | 'correction_rejected'
    | 'visibility_accepted'
    | 'visibility_rejected'
  email: string
  agent_id: string | null
  agent_name: string | null
  subject_id: string
  reason: string | null
  details: Record<string, unknown>
}

const SUBJECTS: Record<AgentNotice['kind'], string> = {
  claim_approved: 'Your AgentInsight profile claim was approved',
  claim_rejected: 'Your AgentInsight profile claim was not approved',
  claim_revoked: 'Your AgentInsight profile claim was revoked',
  correction_accepted: 'Your correction on AgentInsight was accepted',
  correction_rejected: 'Your correction on AgentInsight was not accepted',
  visibility_accepted: 'Your profile visibility request on AgentInsight was accepted',
  visibility_rejected: 'Your profile visibility request on AgentInsight was not accepted',
}

const FIRST_LINES: Record<AgentNotice['kind'], string> = {
  claim_approved: 'Your claim of an agent profile on AgentInsight was approved: you can now complete the profile.',
  claim_rejected: 'Your claim of an agent profile on AgentInsight was not approved.',
  claim_revoked: 'Your claim of an agent profile on AgentInsight was revoked: the profile is no longer yours to edit.',
  correction_accepted:
    'A correction you filed on AgentInsight was accepted: the figures on your profile now include it.',
  correction_rejected: 'A correction you filed on AgentInsight was not accepted.',
  visibility_accepted: 'Your request about how your profile is shown on AgentInsight was accepted.',
  visibility_rejected: 'Your request about how your profile is shown on AgentInsight was not accepted.',
}

function visibilityWords(details: Record<string, unknown>): string {
  const parts = [
    details.hide_phone ? 'phone number hidden' : 'phone number shown',
    details.hide_email ? 'email address hidden' : 'email address shown',
    details.noindex ? 'kept out of search engines' : 'listed in search engines',
  ]
  return `Requested: ${parts.join(', ')}.`
}

/** The mail of one decision (subject and first line fixed per kind; the reason and the sale further down). */
export function buildAgentNoticeEmail(notice: AgentNotice, siteUrl: string): BuiltMail {
  const lines: string[] = [FIRST_LINES[notice.kind], '']
  if (notice.agent_name) lines.push(`Profile: ${notice.agent_name}`)
  if (notice.kind.startsWith('correction_')) {
    const kind = CORRECTION_KIND_LABELS[notice.details.kind as CorrectionKind] ?? 'Correction'
    const sale = [notice.details.address, notice.details.listing_number ? `MLS ${notice.details.listing_number}` : null]
      .filter((part): part is string => typeof part === 'string' && part !== '')
      .join(', ')
    lines.push(`Correction: ${kind}${sale ? ` (${sale})` : ''}`)
  }
  if (notice.kind.startsWith('visibility_')) lines.push(visibilityWords(notice.details))
  if (notice.reason) lines.push('', 'Reason given by our team:', notice.reason)
  const link = `${siteUrl.replace(/\/+$/, '')}/account/agent`
  lines.push('', `Your agent profile: ${link}`)
  const html = page(
    lines
      .filter((line) => line !== '')
      .map((line) =>
        line === `Your agent profile: ${link}`
          ? `<p><a href="${escapeHtml(link)}">Open your agent profile</a></p>`
          : paragraph(line),
      ),
  )
  return { subject: SUBJECTS[notice.kind], text: lines.join('\n'), html }
}

/**
 * Mails every queued decision notice (up to 100 per call, 20 at a time), each from its builder; a notice whose
 * mail fails goes back to the queue with the error (tried at most 5 times), one to an address that unsubscribed
 * from our mail does not. @returns how many were sent.
 * @throws the database error when the queue cannot be read.
 */
export async function sendAgentNotices(db: Db, mail: MailConfig, siteUrl: string): Promise<number> {
  let sent = 0
  for (let round = 0; round < 5; round += 1) {
    const { data, error } = await db.rpc('take_agent_notices', { max_notices: 20 })
    if (error) throw error
    const notices = (data ?? []) as AgentNotice[]
    for (const notice of notices) {
      try {
        await sendMail(mail, { from: mail.from, to: [notice.email], ...buildAgentNoticeEmail(notice, siteUrl) })
        sent += 1
      } catch (failure) {
        if (!(failure instanceof MailSendError)) throw failure
        // the address unsubscribed from our mail: the decision stands, and trying again would not change that
        if (failure instanceof MailSuppressedError) {
          console.warn(`agent notice ${notice.id} (${notice.kind}) not sent: the recipient unsubscribed`)
          continue
        }
        console.error(`agent notice ${notice.id} (${notice.kind}) not sent: ${failure.message}`)
        const { error: releaseError } = await db.rpc('release_agent_notice', {
          notice_id: notice.id,
          error_message: failure.message,
        })
        if (releaseError) console.error(`agent notice ${notice.id}: could not requeue: ${releaseError.message}`)
      }
    }
    if (notices.length < 20) break
  }
  return sent
}
