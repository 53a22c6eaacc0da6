/**
 * The contact form's contract, shared by the `contact` function (Deno), the /contact page's form (browser) and the
 * tests (Node). A message becomes a lead of type `contact` in the CRM (report_requests.lead_type), with the visitor's
 * name, email and message, and reaches the operators like a report request; nothing is mailed to the visitor.
 *
 * POST /functions/v1/contact (verify_jwt = false; the site sends the anon key)
 *   {full_name, email, message, website?, source_page?, utm_*?}  (`website` is the honeypot: a bot gets 201 too)
 *   -> 201 {ok: true}
 *   -> 400 {error, errors: {field: message}}; 429 {error: CONTACT_RATE_LIMIT_MESSAGE} with Retry-After
 */
import { z } from 'zod'

import { fieldErrors } from './field-errors.ts'
import { leadSourceFields } from './report-request.ts'

/** Longest message (report_requests_message_check). */
export const CONTACT_MESSAGE_MAX = 5000
/** Messages per mailbox (case and +tag folded) per clock hour. */
export const CONTACT_EMAIL_LIMIT_PER_HOUR = 3
/** Messages per client IP per clock hour. */
export const CONTACT_IP_LIMIT_PER_HOUR = 10
export const CONTACT_RATE_LIMIT_MESSAGE = 'Too many messages. Please try again in an hour.'
/** What the form says once the message is stored. */
export const CONTACT_SENT_MESSAGE = 'Thanks! Your message reached the AgentInsight team.'

/** The fields the visitor types, with the messages shown under each. */
export const ContactFormSchema = z.object({
  full_name: z
    .string({ error: 'Please enter your name' })
    .trim()
    .min(1, { error: 'Please enter your name' })
    .max(200, { error: 'Name must be 200 characters or fewer' }),
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(320, { error: 'Email must be 320 characters or fewer' })
    .pipe(z.email({ error: 'Please enter a valid email address' })),
  message: z
    .string({ error: 'Please write your message' })
    .trim()
    .min(1, { error: 'Please write your message' })
    .max(CONTACT_MESSAGE_MAX, { error: 'Message must be 5,000 characters or fewer' }),
})

/** The function's body: the form plus where the visit came from (page and UTM, as on report requests). */
export const ContactSchema = ContactFormSchema.extend(leadSourceFields)
export type Contact = z.infer<typeof ContactSchema>

export type ContactAnswer = { ok: true } | { error: string; errors?: Record<string, string> }

/** Checks the form in the browser before sending; the function checks again with the same schema. */
export function checkContactForm(values: {
  full_name: string
  email: string
  message: string
}): { data: z.output<typeof ContactFormSchema> } | { errors: Record<string, string> } {
  const parsed = ContactFormSchema.safeParse(values)
  return parsed.success ? { data: parsed.data } : { errors: fieldErrors(parsed.error) }
}
