/**
 * The pure rules of the `request-report` and `confirm-report` edge functions: the request body schema, the
 * honeypot, the confirmation body and the confirmation email. The HTTP contract and the limits live in
 * ./report-request-contract.ts.
 */
import { z } from 'zod'

import { fieldErrors } from './field-errors.ts'
import { escapeHtml } from './html.ts'
import { SOURCE_PAGE_MAX, UTM_MAX, type UtmField } from './lead-source.ts'
import { LINK_TOKEN_PATTERN } from './link-token.ts'
import { CONFIRMATION_HOURS, HONEYPOT_FIELD } from './report-request-contract.ts'

export {
  EMAIL_LIMIT_PER_DAY,
  EMAIL_LIMIT_PER_HOUR,
  HONEYPOT_FIELD,
  IP_LIMIT_PER_HOUR,
  RATE_LIMIT_MESSAGE,
} from './report-request-contract.ts'

const optionalText = (max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(max, { error: message })
    .nullish()
    .transform((value) => (value ? value : null))

const utmValue = (field: UtmField) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(UTM_MAX, { error: `${field} must be ${UTM_MAX} characters or fewer` })
    .nullish()
    .transform((value) => (value ? value : null))

/** zod fields for the lead source (./lead-source.ts); messages name the field, so a 400 says which one was wrong. */
export const leadSourceFields = {
  source_page: z
    .string({ error: 'source_page must be text' })
    .trim()
    .max(SOURCE_PAGE_MAX, { error: `source_page must be ${SOURCE_PAGE_MAX} characters or fewer` })
    .refine((value) => value === '' || value.startsWith('/'), {
      error: 'source_page must be a site path starting with /',
    })
    .nullish()
    .transform((value) => (value ? value : null)),
  utm_source: utmValue('utm_source'),
  utm_medium: utmValue('utm_medium'),
  utm_campaign: utmValue('utm_campaign'),
  utm_term: utmValue('utm_term'),
  utm_content: utmValue('utm_content'),
}

/** The form body; limits repeat the report_requests check constraints so bad input is a 400, never a 500. */
export const ReportRequestSchema = z.object({
  full_name: z
    .string({ error: 'Please enter your full name' })
    .trim()
    .min(1, { error: 'Please enter your full name' })
    .max(200, { error: 'Name must be 200 characters or fewer' }),
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(320, { error: 'Email must be 320 characters or fewer' })
    .pipe(z.email({ error: 'Please enter a valid email address' })),
  phone: z
    .string({ error: 'Please enter a valid phone number' })
    .trim()
    .max(40, { error: 'Please enter a valid phone number' })
    .refine((value) => value === '' || /^[+()\d\s.-]{7,40}$/.test(value), {
      error: 'Please enter a valid phone number',
    })
    .nullish()
    .transform((value) => (value ? value : null)),
  property_address: optionalText(300, 'Property address must be 300 characters or fewer'),
  agent_id: z
    .uuid({ error: 'Unknown agent' })
    .nullish()
    .transform((value) => value ?? null),
  agent_name: optionalText(200, 'Agent name must be 200 characters or fewer'),
  agent_location: optionalText(200, 'Agent location must be 200 characters or fewer'),
  // where the lead came from (page and UTM of the visit, ./lead-source.ts)
  ...leadSourceFields,
})

export type ReportRequest = z.infer<typeof ReportRequestSchema>

/** The fields a visitor types into the Get Report form, as typed (the agent travels hidden). */
export interface ReportRequestFormValues {
  full_name: string
  email: string
  phone: string
  property_address: string
}

/** The form's own check: the same rules and messages as the function's, for the fields the visitor types. */
export const ReportRequestFormSchema = ReportRequestSchema.pick({
  full_name: true,
  email: true,
  phone: true,
  property_address: true,
})

/**
 * Checks the Get Report form in the browser before sending; the function re-validates with the same schema.
 * Returns the cleaned values (blanks become null) or one message per field.
 */
export function checkReportRequestForm(
  values: ReportRequestFormValues,
): { data: z.output<typeof ReportRequestFormSchema> } | { errors: Record<string, string> } {
  const parsed = ReportRequestFormSchema.safeParse(values)
  return parsed.success ? { data: parsed.data } : { errors: fieldErrors(parsed.error) }
}

/** True when the honeypot field holds anything other than blanks. */
export function isBot(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false
  const value = (body as Record<string, unknown>)[HONEYPOT_FIELD]
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null
}

/** The body of confirm-report: the token of the confirmation link. */
export const ReportConfirmationSchema = z.object({
  token: z
    .string({ error: 'token must be the code from the confirmation link' })
    .regex(LINK_TOKEN_PATTERN, { error: 'token must be the code from the confirmation link' }),
})

/** The page of the public site a confirmation link opens: `<site>/report/confirm?token=<token>`. */
export function reportConfirmationUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/report/confirm?token=${token}`
}

/**
 * The confirmation email of a report request. Fixed text: it carries neither agent data nor anything the visitor
 * typed (their name included), so nobody can use it to put words in front of a stranger; only the link varies.
 */
export function buildReportConfirmationEmail(link: string): { subject: string; html: string; text: string } {
  const intro = 'Someone asked AgentInsight to email an agent performance report to this address.'
  const ask = `To receive it, confirm that this is your address within ${CONFIRMATION_HOURS} hours:`
  const ignore = 'If you did not ask for a report, ignore this email: nothing will be sent to you.'
  return {
    subject: 'Confirm your email to receive your AgentInsight report',
    text: `Hello,\n\n${intro} ${ask}\n\n${link}\n\n${ignore}\n\nAgentInsight\n`,
    html: `<p>Hello,</p><p>${intro} ${ask}</p><p><a href="${escapeHtml(link)}">Confirm my email and send the report</a></p><p>${ignore}</p><p>AgentInsight</p>`,
  }
}
