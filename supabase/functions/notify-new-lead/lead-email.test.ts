import { describe, expect, it } from 'vitest'
import { buildNewLeadEmail, NEW_CONTACT_SUBJECT, NewLeadWebhookSchema } from './lead-email.ts'

const record = {
  id: '00000000-0000-4000-8000-000000000001',
  full_name: '<script>alert(1)</script> "Ann"',
  email: 'ann@example.com',
  phone: '',
  property_address: null,
  agent_name: 'Jane & Co',
  agent_location: 'Austin, TX',
  created_at: '2026-03-01T10:00:00+00:00',
}

describe('NewLeadWebhookSchema', () => {
  it('accepts the Supabase insert payload and refuses other events, naming the field', () => {
    expect(
      NewLeadWebhookSchema.safeParse({
        type: 'INSERT',
        schema: 'public',
        table: 'report_requests',
        record,
        old_record: null,
      }).success,
    ).toBe(true)
    const update = NewLeadWebhookSchema.safeParse({
      type: 'UPDATE',
      schema: 'public',
      table: 'report_requests',
      record,
    })
    expect(update.error?.issues[0]?.path).toEqual(['type'])
  })
})

describe('buildNewLeadEmail', () => {
  it('escapes lead values in the HTML and says Not provided for empty ones', () => {
    const lead = NewLeadWebhookSchema.parse({
      type: 'INSERT',
      schema: 'public',
      table: 'report_requests',
      record,
    }).record
    const email = buildNewLeadEmail(lead, 'https://example.com/admin/crm')
    // subject and first line are fixed text: every lead value is visitor input
    expect(email.subject).toBe('New agent report request on AgentInsight')
    expect(email.text.split('\n')[0]).toBe('New agent report request')
    expect(email.html).not.toContain('<script>')
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;Ann&quot;')
    expect(email.html).toContain('Jane &amp; Co')
    expect(email.text).toContain('Phone: Not provided')
    expect(email.text).toContain('Property address: Not provided')
    expect(email.text).toContain('Open the CRM: https://example.com/admin/crm')
  })

  it('tells a contact message apart, with the message and without the report fields', () => {
    const lead = NewLeadWebhookSchema.parse({
      type: 'INSERT',
      schema: 'public',
      table: 'report_requests',
      record: { ...record, lead_type: 'contact', message: 'Can you add\nagents in Maine?', agent_name: null },
    }).record
    const email = buildNewLeadEmail(lead, 'https://example.com/admin/crm')
    expect(email.subject).toBe(NEW_CONTACT_SUBJECT)
    expect(email.text).toContain('New contact message\n')
    expect(email.text).toContain('Message: Can you add\nagents in Maine?')
    expect(email.text).not.toContain('Property address')
    expect(email.html).toContain('<h1 style="font-size:18px">New contact message</h1>')
  })
})
