import { describe, expect, it } from 'vitest'

import type { Lead } from './crm-schemas'
import { countLeads, customerType, filterLeads, formatWaiting, LeadNotesSchema, reportDelivery, requestsPerEmail, waitingMs } from './crm-schemas'

function lead(overrides: Partial<Lead>): Lead {
  return {
    id: crypto.randomUUID(),
    full_name: 'Someone',
    email: 'someone@example.com',
    phone: null,
    property_address: null,
    agent_id: null,
    agent_name: null,
    agent_location: null,
    status: 'pending',
    notes: null,
    created_at: '2026-03-01T10:00:00Z',
    updated_at: '2026-03-01T10:00:00Z',
    contacted_at: null,
    report_sent_at: null,
    report_error: null,
    ...overrides,
  }
}

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
    expect(filterLeads(leads, { search: 'bob', status: 'qualified' }).map((item) => item.full_name)).toEqual(['Cy Young'])
  })
})

describe('countLeads', () => {
  it('counts total, pending, contacted (incl. qualified) and closed', () => {
    expect(countLeads(leads)).toEqual({ total: 4, pending: 1, contacted: 2, qualified: 1, closed: 1 })
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
    expect(formatWaiting(waitingMs(lead({ status: 'closed', contacted_at: '2026-03-01T13:05:00Z' }), now))).toBe('3h 5m')
  })
  it('is unknown for a worked lead without contacted_at', () => {
    expect(formatWaiting(waitingMs(lead({ status: 'contacted' }), now))).toBe('—')
  })
  it('formats short waits', () => {
    expect(formatWaiting(30_000)).toBe('< 1m')
    expect(formatWaiting(45 * 60_000)).toBe('45m')
  })
})

describe('LeadNotesSchema', () => {
  it('stores blank notes as null and refuses more than 10,000 characters', () => {
    expect(LeadNotesSchema.parse('  ')).toBeNull()
    expect(LeadNotesSchema.safeParse('x'.repeat(10_001)).error?.issues[0]?.message).toBe('Notes must be at most 10,000 characters.')
  })
})

describe('reportDelivery', () => {
  it('says whether the PDF report went out', () => {
    expect(reportDelivery({ report_sent_at: '2026-11-23T10:00:00Z', report_error: null })).toEqual({ state: 'sent', text: 'Sent' })
    expect(reportDelivery({ report_sent_at: null, report_error: 'The email could not be sent.' })).toEqual({ state: 'failed', text: 'Not sent: The email could not be sent.' })
    expect(reportDelivery({ report_sent_at: null, report_error: null })).toEqual({ state: 'pending', text: 'Sending…' })
  })
})
