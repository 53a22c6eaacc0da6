import type { Lead } from './crm-schemas'

/**
 * A report_requests row for the CRM unit tests: a fresh pending lead with nothing optional filled in, requested
 * 2026-03-01 10:00 UTC; `overrides` set what a test is about.
 */
export function leadFixture(overrides: Partial<Lead> = {}): Lead {
  return {
    id: crypto.randomUUID(),
    full_name: 'Someone',
    email: 'someone@example.com',
    phone: null,
    property_address: null,
    agent_id: null,
    agent_name: null,
    agent_location: null,
    lead_type: 'report',
    message: null,
    status: 'pending',
    notes: null,
    created_at: '2026-03-01T10:00:00Z',
    updated_at: '2026-03-01T10:00:00Z',
    contacted_at: null,
    report_sent_at: null,
    report_error: null,
    email_confirmed_at: null,
    email_confirmed_via: null,
    owner_id: null,
    follow_up_on: null,
    source_page: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    utm_term: null,
    utm_content: null,
    ...overrides,
  }
}
