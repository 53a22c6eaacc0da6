/**
 * The contract of the `request-report` and `confirm-report` edge functions, shared by the functions (Deno), the
 * public site's Get Report dialog and confirmation page (browser) and the tests (Node). No imports besides types,
 * so every runtime can load it.
 *
 * A report is mailed only to an address its owner confirmed:
 * POST /functions/v1/request-report (verify_jwt = false; the site sends the anon key, or a signed-in visitor's
 *   access token) with JSON {full_name, email, phone?, property_address?, agent_id?, agent_name?, agent_location?,
 *   source_page?, utm_*?, website?}. The lead is stored at once. Then:
 *   - a signed-in visitor whose account email is confirmed and names the same mailbox: the address counts as
 *     confirmed and the report is mailed (delivery 'report');
 *   - anyone else: a confirmation email goes to the address (a fixed text: no agent data, nothing the visitor typed)
 *     with a link to SITE_URL/report/confirm?token=<64 hex>, valid CONFIRMATION_HOURS (delivery 'confirmation').
 *   `website` is the honeypot (HONEYPOT_FIELD): hidden from people; a non-empty value marks a bot, which gets the
 *   same 201 as a person while nothing is stored or mailed.
 *   Answers: 201 {ok: true, delivery}; 400 {error, errors: {field: message}} naming the bad fields; 429
 *   {error: RATE_LIMIT_MESSAGE} with Retry-After; 502 {error: CONFIRMATION_NOT_SENT_MESSAGE} when the lead was stored
 *   but the mail API refused the confirmation email; 500 {error} (generic, details only in the function log).
 * POST /functions/v1/confirm-report with JSON {token} (the confirmation page sends it when the visitor presses the
 *   button, so a mail scanner that only opens links confirms nothing):
 *   200 {status: 'sent' | 'already_confirmed' | 'not_sent', message}; 400 for a malformed token; 404
 *   {error: LINK_INVALID_MESSAGE}; 410 {error: LINK_EXPIRED_MESSAGE}; 429 with Retry-After.
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

/** What happens next: the report is mailed now, or a confirmation email went to the address first. */
export type ReportDeliveryStep = 'report' | 'confirmation'

export type ReportRequestAnswer =
  { ok: true; delivery: ReportDeliveryStep } | { error: string; errors?: Record<string, string> }

/** The body of confirm-report. */
export interface ReportConfirmationBody {
  token: string
}

export type ReportConfirmationAnswer =
  | { status: 'sent' | 'already_confirmed' | 'not_sent'; message: string }
  | { error: string; errors?: Record<string, string> }

/** Requests (and so confirmation emails) allowed per mailbox per clock hour; the mailbox folds case, +tags and Gmail dots. */
export const EMAIL_LIMIT_PER_HOUR = 3
/** Requests allowed per mailbox per day (24-hour window since the epoch, UTC). */
export const EMAIL_LIMIT_PER_DAY = 5
/** Requests allowed per client IP address per clock hour (several people can share an office or mobile NAT). */
export const IP_LIMIT_PER_HOUR = 10
/** Confirmation attempts allowed per client IP address per clock hour. */
export const CONFIRM_IP_LIMIT_PER_HOUR = 30
/** How long a confirmation link works, in hours. */
export const CONFIRMATION_HOURS = 48
/** The 429 message, shown to the visitor as is. */
export const RATE_LIMIT_MESSAGE = 'Too many report requests. Please try again later.'
/** The 502 message when the lead is stored but its confirmation email could not be sent. */
export const CONFIRMATION_NOT_SENT_MESSAGE =
  'Your request was saved, but we could not send the confirmation email. Please try again later.'
/** confirm-report's answers, shown to the visitor as they are. */
export const LINK_INVALID_MESSAGE = "This confirmation link is not valid. Ask for the report again on the agent's page."
export const LINK_EXPIRED_MESSAGE = `This confirmation link has expired (links work for ${CONFIRMATION_HOURS} hours). Ask for the report again on the agent's page.`
export const REPORT_SENT_MESSAGE = 'Thanks, your email is confirmed. The report is on its way to your inbox.'
export const ALREADY_CONFIRMED_MESSAGE = 'This request was already confirmed; the report was sent to your inbox.'
export const CONFIRM_RATE_LIMIT_MESSAGE = 'Too many attempts. Please try again later.'
/** The honeypot field's name: plausible to a form-filling bot, hidden from people and assistive technology. */
export const HONEYPOT_FIELD = 'website'
