import { describe, expect, it } from 'vitest'

import {
  countLeads,
  customerType,
  duplicatesOf,
  filterLeads,
  followUpState,
  formatWaiting,
  LeadNoteBodySchema,
  LeadSearchSchema,
  reportDelivery,
  requestsPerEmail,
  waitingMs,
} from './crm-schemas'
import { leadFixture } from './lead-fixture'

const lead = leadFixture

const leads = [
  lead({ full_name: 'Ada Lovelace', email: 'ada@example.com', agent_name: 'Jane Roe', agent_location: 'Austin, TX' }),
  lead({ full_name: 'Bob Stone', email: 'BOB@example.com', status: 'contacted', agent_location: 'Denver, CO' }),
  lead({ full_name: 'Cy Young', email: 'bob@example.com', status: 'qualified', agent_name: 'Max Austin' }),
  lead({ full_name: 'Di Prince', email: 'di@example.com', status: 'closed' }),
]

describe('filterLeads', () => {
  it('searches name, email, agent name and agent location case-insensitively', () => {
    const names = (search: string) => filterLeads(leads, { search, status: 'all' }).map((item) => item.full_name)
    expect(names('LOVELACE')).toEqual(['Ada Lovelace'])
    expect(names('bob@')).toEqual(['Bob Stone', 'Cy Young'])
    expect(names('austin')).toEqual(['Ada Lovelace', 'Cy Young'])
    expect(names('denver')).toEqual(['Bob Stone'])
    expect(names('  ')).toHaveLength(4)
    expect(names('nobody')).toEqual([])
  })
  it('filters by status and combines with the search', () => {
    expect(filterLeads(leads, { search: '', status: 'closed' }).map((item) => item.full_name)).toEqual(['Di Prince'])
    expect(filterLeads(leads, { search: 'bob', status: 'qualified' }).map((item) => item.full_name)).toEqual([
      'Cy Young',
    ])
  })
})

describe('countLeads', () => {
  it('counts total requests and each status', () => {
    expect(countLeads(leads)).toEqual({ total: 4, pending: 1, contacted: 1, qualified: 1, closed: 1 })
  })
})

describe('owner and follow-up filters', () => {
  const me = '00000000-0000-4000-8000-0000000000aa'
  const other = '00000000-0000-4000-8000-0000000000bb'
  const pipeline = [
    lead({ full_name: 'Mine overdue', owner_id: me, follow_up_on: '2026-03-01' }),
    lead({ full_name: 'Mine today', owner_id: me, follow_up_on: '2026-03-02' }),
    lead({ full_name: 'Theirs later', owner_id: other, follow_up_on: '2026-03-09' }),
    lead({ full_name: 'Nobody', owner_id: null }),
  ]
  const names = (owner: string, followUp: 'all' | 'overdue' | 'today' = 'all') =>
    filterLeads(pipeline, { search: '', status: 'all', owner, followUp }, { userId: me, today: '2026-03-02' }).map(
      (item) => item.full_name,
    )
  it('filters by owner: me, unassigned, or one administrator', () => {
    expect(names('me')).toEqual(['Mine overdue', 'Mine today'])
    expect(names('unassigned')).toEqual(['Nobody'])
    expect(names(other)).toEqual(['Theirs later'])
  })
  it('filters overdue (before today) and due today follow-ups', () => {
    expect(names('all', 'overdue')).toEqual(['Mine overdue'])
    expect(names('all', 'today')).toEqual(['Mine today'])
    expect(followUpState(null, '2026-03-02')).toBeNull()
  })
})

describe('duplicatesOf', () => {
  it('finds the other requests with the same email in any case, oldest first', () => {
    const a = lead({ email: 'pat@example.com', created_at: '2026-03-03T00:00:00Z' })
    const b = lead({ email: 'PAT@example.com', created_at: '2026-03-01T00:00:00Z' })
    const c = lead({ email: 'pat@example.com', created_at: '2026-03-02T00:00:00Z' })
    expect(duplicatesOf(a, [a, b, c, ...leads])).toEqual([b, c])
  })
})

describe('LeadSearchSchema', () => {
  it('reads the page as a number and falls back on unreadable values', () => {
    expect(LeadSearchSchema.parse({ page: '3', status: 'qualified', followUp: 'overdue' })).toMatchObject({
      page: 3,
      status: 'qualified',
      followUp: 'overdue',
      owner: 'all',
      q: '',
    })
    expect(LeadSearchSchema.parse({ page: '-1', status: 'x', owner: 'someone' })).toMatchObject({
      page: 1,
      status: 'all',
      owner: 'all',
    })
  })
})

describe('customerType', () => {
  it('is Returning when the email (any case) has more than one request', () => {
    const counts = requestsPerEmail(leads)
    expect(customerType('Bob@Example.com', counts)).toBe('Returning')
    expect(customerType('ada@example.com', counts)).toBe('New')
  })
})

describe('waitingMs / formatWaiting', () => {
  const now = new Date('2026-03-03T12:30:00Z')
  it('runs from created_at to now while pending', () => {
    expect(formatWaiting(waitingMs(lead({}), now))).toBe('2d 2h')
  })
  it('stops at the first contact', () => {
    expect(formatWaiting(waitingMs(lead({ status: 'closed', contacted_at: '2026-03-01T13:05:00Z' }), now))).toBe(
      '3h 5m',
    )
  })
  it('is unknown for a worked lead without contacted_at', () => {
    expect(formatWaiting(waitingMs(lead({ status: 'contacted' }), now))).toBe('—')
  })
  it('formats short waits', () => {
    expect(formatWaiting(30_000)).toBe('< 1m')
    expect(formatWaiting(45 * 60_000)).toBe('45m')
  })
})

describe('LeadNoteBodySchema', () => {
  it('trims, refuses a blank note and more than 5,000 characters', () => {
    expect(LeadNoteBodySchema.parse('  called back  ')).toBe('called back')
    expect(LeadNoteBodySchema.safeParse('  ').error?.issues[0]?.message).toBe('Write a note first.')
    expect(LeadNoteBodySchema.safeParse('x'.repeat(5001)).error?.issues[0]?.message).toBe(
      'A note must be at most 5,000 characters.',
    )
  })
})

describe('reportDelivery', () => {
  it('says whether the PDF report went out', () => {
    expect(reportDelivery({ report_sent_at: '2026-11-23T10:00:00Z', report_error: null })).toEqual({
      state: 'sent',
      text: 'Sent',
    })
    expect(reportDelivery({ report_sent_at: null, report_error: 'The email could not be sent.' })).toEqual({
      state: 'failed',
      text: 'Not sent: The email could not be sent.',
    })
    expect(reportDelivery({ report_sent_at: null, report_error: null })).toEqual({ state: 'pending', text: 'Sending…' })
    expect(reportDelivery({ report_sent_at: null, report_error: null, email_confirmed_at: null })).toEqual({
      state: 'pending',
      text: 'Waiting for the visitor to confirm their email',
    })
  })
})
