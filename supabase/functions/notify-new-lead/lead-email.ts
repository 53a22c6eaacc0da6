/**
 * The new-lead email: the webhook payload's schema and the pure function that turns a lead into the subject, HTML
 * and text the operators receive. Every lead value is visitor input, so it is HTML-escaped and kept out of the
 * subject and the first line (both fixed text).
 */
import { z } from 'zod'
import { escapeHtml } from '@shared/html.ts'

const optionalText = z
  .string()
  .nullish()
  .transform((value) => (value && value.trim() !== '' ? value : null))

/** The report_requests columns the email shows (a subset of the webhook's `record`). */
export const NewLeadRecordSchema = z.object({
  id: z.uuid(),
  full_name: z.string().min(1),
  email: z.string().min(3),
  phone: optionalText,
  property_address: optionalText,
  agent_name: optionalText,
  agent_location: optionalText,
  created_at: z.string().min(1),
  /** When the address was confirmed (a signed-in visitor's confirmed account email); null until the link is used. */
  email_confirmed_at: z.string().nullish(),
  /** report: a Get Report request; contact: a contact-form message (rows written before lead types read report). */
  lead_type: z
    .enum(['report', 'contact'])
    .nullish()
    .transform((value) => value ?? 'report'),
  message: optionalText,
})
export type NewLeadRecord = z.infer<typeof NewLeadRecordSchema>

/**
 * A Supabase database-webhook payload for an insert into public.report_requests
 * (`{ type, table, schema, record, old_record }`).
 */
export const NewLeadWebhookSchema = z.object({
  type: z.literal('INSERT', { error: 'type must be INSERT' }),
  schema: z.literal('public', { error: 'schema must be public' }),
  table: z.literal('report_requests', { error: 'table must be report_requests' }),
  record: NewLeadRecordSchema,
})

export type NewLeadEmail = { subject: string; html: string; text: string }

/** The operators' alert subject (fixed text). */
export const NEW_LEAD_SUBJECT = 'New agent report request on AgentInsight'
/** The operators' alert subject for a contact-form message (fixed text). */
export const NEW_CONTACT_SUBJECT = 'New contact message on AgentInsight'

/**
 * Builds the operators' email for one lead. `adminUrl` is the CRM page (e.g. https://example.com/admin/crm).
 * Empty optional fields read 'Not provided', as in the CRM's Lead Details.
 */
export function buildNewLeadEmail(lead: NewLeadRecord, adminUrl: string): NewLeadEmail {
  const contact = lead.lead_type === 'contact'
  const rows: [string, string][] = contact
    ? [
        ['Name', lead.full_name],
        ['Email', lead.email],
        ['Message', lead.message ?? 'Not provided'],
        ['Submitted', lead.created_at],
      ]
    : [
        ['Name', lead.full_name],
        ['Email', lead.email],
        ['Phone', lead.phone ?? 'Not provided'],
        ['Property address', lead.property_address ?? 'Not provided'],
        ['Agent', lead.agent_name ?? 'Not provided'],
        ['Agent location', lead.agent_location ?? 'Not provided'],
        ['Submitted', lead.created_at],
        [
          'Email confirmed',
          lead.email_confirmed_at ? 'Yes (signed-in account)' : 'Not yet (a confirmation link was sent)',
        ],
      ]
  // fixed: every lead value is visitor input, which never goes in a subject or a first line
  const subject = contact ? NEW_CONTACT_SUBJECT : NEW_LEAD_SUBJECT
  const heading = contact ? 'New contact message' : 'New agent report request'
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#0f172a">
<h1 style="font-size:18px">${heading}</h1>
<table style="border-collapse:collapse">${rows
    .map(
      ([label, value]) =>
        `<tr><th style="text-align:left;vertical-align:top;padding:4px 12px 4px 0;color:#475569">${escapeHtml(label)}</th><td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    )
    .join('')}</table>
<p><a href="${escapeHtml(adminUrl)}">Open the CRM</a></p>
</body></html>`
  const text = [
    heading,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    `Open the CRM: ${adminUrl}`,
  ].join('\n')
  return { subject, html, text }
}
