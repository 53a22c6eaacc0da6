/**
 * The `request-report` edge function's pure rules: the request body schema, field-level error messages, the
 * honeypot, and the keyed hashes the rate limit stores (never raw emails or IP addresses).
 * The HTTP contract and the limits live in ./report-request-contract.ts.
 */
import { z } from 'zod'

import { fieldErrors } from './field-errors.ts'
import { SOURCE_PAGE_MAX, UTM_MAX, type UtmField } from './lead-source.ts'
import { HONEYPOT_FIELD } from './report-request-contract.ts'

export {
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

/**
 * HMAC-SHA-256 of `kind:value` under `secret`, hex. The rate-limit table stores only these, so it cannot be turned
 * back into email or IP addresses without the secret (a plain hash of an IPv4 address is brute-forced in minutes).
 */
export async function rateLimitKey(
  secret: string,
  kind: 'email' | 'ip' | 'newsletter-email' | 'newsletter-ip',
  value: string,
): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
  const signature = await crypto.subtle.sign('HMAC', key, encoder.encode(`${kind}:${value.trim().toLowerCase()}`))
  return Array.from(new Uint8Array(signature), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * The key of the rate-limit HMACs (request-report and newsletter-subscribe share the hourly table): the secret
 * REPORT_REQUEST_HMAC_SECRET, its own so rotating the API keys does not reset the limits and an API key never
 * doubles as a hashing key (`supabase secrets set`, 32+ characters).
 * @throws Error naming the variable when it is missing or too short (the function then fails at boot).
 */
export function rateLimitSecret(value: string | undefined): string {
  if (!value) throw new Error('REPORT_REQUEST_HMAC_SECRET is not set')
  if (value.length < 32) throw new Error('REPORT_REQUEST_HMAC_SECRET must be at least 32 characters')
  return value
}
