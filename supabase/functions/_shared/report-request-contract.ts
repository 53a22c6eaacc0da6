/**
 * The contract of the `request-report` edge function, shared by the function (Deno), the public site's Get Report
 * dialog (browser) and the tests (Node). No imports, so every runtime can load it.
 *
 * Request: POST /functions/v1/request-report (verify_jwt = false; the site sends the anon key) with JSON
 *   {full_name, email, phone?, property_address?, agent_id?, agent_name?, agent_location?, website?}
 * `website` is the honeypot (HONEYPOT_FIELD): hidden from people; a non-empty value marks a bot, which gets the same
 * 201 as a person while nothing is stored.
 * Answers: 201 {ok: true}; 400 {error, errors: {field: message}} for bad fields (error: the first field's message), or {error} for a body that is not a JSON
 * object; 429 {error: RATE_LIMIT_MESSAGE} with Retry-After; 500 {error} (generic, details only in the function log).
 */

import type { LeadSource } from './lead-source.ts'

export interface ReportRequestBody extends LeadSource {
  full_name: string
  email: string
  phone?: string | null
  property_address?: string | null
  agent_id?: string | null
  agent_name?: string | null
  agent_location?: string | null
  website?: string
}

export type ReportRequestAnswer = { ok: true } | { error: string; errors?: Record<string, string> }

/** Requests allowed per email address per clock hour. */
export const EMAIL_LIMIT_PER_HOUR = 3
/** Requests allowed per client IP address per clock hour (several people can share an office or mobile NAT). */
export const IP_LIMIT_PER_HOUR = 10
/** The 429 message, shown to the visitor as is. */
export const RATE_LIMIT_MESSAGE = 'Too many report requests. Please try again in an hour.'
/** The honeypot field's name: plausible to a form-filling bot, hidden from people and assistive technology. */
export const HONEYPOT_FIELD = 'website'
