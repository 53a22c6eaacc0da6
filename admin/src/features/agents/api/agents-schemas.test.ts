import { describe, expect, it } from 'vitest'

import {
  AgentReviewSearchSchema,
  decisionFormSchema,
  decisionsFor,
  matchesQuery,
  statusesOf,
  statusLabel,
  visibilityWords,
} from './agents-schemas'

describe('Admin -> Agents', () => {
  it('reads the URL state, falling back on the defaults', () => {
    expect(AgentReviewSearchSchema.parse({})).toEqual({ tab: 'claims', status: 'open', q: '' })
    expect(AgentReviewSearchSchema.parse({ tab: 'corrections', status: 'decided', q: ' Lee ' })).toEqual({
      tab: 'corrections',
      status: 'decided',
      q: 'Lee',
    })
    expect(AgentReviewSearchSchema.parse({ tab: 'users', status: 'maybe' })).toEqual({
      tab: 'claims',
      status: 'open',
      q: '',
    })
  })

  it('maps each filter to the statuses of each queue', () => {
    expect(statusesOf('claims', 'open')).toEqual(['code_sent', 'review_requested'])
    expect(statusesOf('claims', 'decided')).toEqual(['approved', 'rejected', 'revoked'])
    expect(statusesOf('corrections', 'open')).toEqual(['pending'])
    expect(statusesOf('visibility', 'decided')).toEqual(['accepted', 'rejected', 'withdrawn'])
    expect(statusesOf('visibility', 'all')).toBeNull()
  })

  it('offers the decisions an item can still take', () => {
    expect(decisionsFor({ subject: 'claim', status: 'review_requested' })).toEqual(['approve', 'reject'])
    expect(decisionsFor({ subject: 'claim', status: 'approved' })).toEqual(['revoke'])
    expect(decisionsFor({ subject: 'claim', status: 'revoked' })).toEqual([])
    expect(decisionsFor({ subject: 'correction', status: 'pending' })).toEqual(['accept', 'reject'])
    expect(decisionsFor({ subject: 'visibility', status: 'withdrawn' })).toEqual([])
    expect(statusLabel({ subject: 'claim', status: 'review_requested' })).toBe('Review requested')
    expect(statusLabel({ subject: 'correction', status: 'pending' })).toBe('Pending')
  })

  it('requires a reason to reject or revoke, not to approve', () => {
    expect(decisionFormSchema('approve').safeParse({ reason: '' }).success).toBe(true)
    const reject = decisionFormSchema('reject').safeParse({ reason: '   ' })
    expect(reject.success).toBe(false)
    expect(reject.error?.issues[0]?.message).toBe('Give a reason: it is mailed to the agent')
    expect(decisionFormSchema('revoke').safeParse({ reason: 'x'.repeat(1001) }).error?.issues[0]?.message).toBe(
      'Keep the reason to 1,000 characters',
    )
  })

  it('searches by agent name or account email, case ignored', () => {
    const item = {
      agent: { id: 'a', name: 'Jordan Lee', brokerage: null, license_number: null, email: null },
      email: 'jl@example.com',
    }
    expect(matchesQuery(item, 'lee')).toBe(true)
    expect(matchesQuery(item, 'JL@EXAMPLE')).toBe(true)
    expect(matchesQuery(item, 'smith')).toBe(false)
    expect(matchesQuery({ agent: null, email: null }, '')).toBe(true)
    expect(visibilityWords({ hide_phone: true, hide_email: false, noindex: true })).toBe(
      'hide phone, show email, out of search engines',
    )
  })
})
