/**
 * A small Resend-compatible email client for edge functions: `POST {MAIL_API_URL}/emails` with
 * `Authorization: Bearer {MAIL_API_KEY}` and the JSON body `{ from, to, subject, html, text, headers, attachments? }`
 * (https://resend.com/docs/api-reference/emails/send-email). In production MAIL_API_URL is https://api.resend.com;
 * locally it defaults to LOCAL_MAILBOX_URL, whose `POST /emails` speaks the same shape and stores the message in
 * the local mailbox (supabase/local/mailbox.ts).
 *
 * Every email goes through `sendMail`, which is where two rules hold for all of them (newsletter, report, notices):
 *  - an address on the suppression list (public.email_suppressions, read with the secret key before each send) gets
 *    nothing: it is dropped from the recipients, and when none is left the send fails with MailSuppressedError;
 *  - each recipient gets their own copy with an unsubscribe link in the footer (the site's /unsubscribe page) and
 *    the one-click headers of RFC 8058 (List-Unsubscribe with the unsubscribe function's HTTPS URL,
 *    List-Unsubscribe-Post: List-Unsubscribe=One-Click); tokens: ./unsubscribe.ts.
 */
import { z } from 'zod'

import { resolvePlatformEnv } from './platform-env.ts'
import {
  emailHash,
  oneClickUnsubscribeUrl,
  unsubscribeHeaders,
  unsubscribePageUrl,
  unsubscribeToken,
} from './unsubscribe.ts'

/** A file sent with an email, in Resend's shape: `content` is the file's bytes in base64. */
export type MailAttachment = {
  filename: string
  content: string
  /** MIME type, e.g. 'application/pdf' (Resend derives it from the filename when absent). */
  content_type?: string
}

/** One outgoing email. `to` holds 1-50 addresses (Resend's limit per request); attachments at most 40 MB in total. */
export type MailMessage = {
  from: string
  to: string[]
  subject: string
  html: string
  text: string
  /** Extra headers (Resend's `headers`); sendMail adds the unsubscribe headers itself. */
  headers?: Record<string, string>
  attachments?: MailAttachment[]
}

/** Base64 of bytes (for MailAttachment.content), in chunks so a large PDF does not overflow the call stack. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  return btoa(binary)
}

/** Where and how mail is sent (the provider's API). */
export type MailTransport = {
  /** Base URL without a trailing slash, e.g. https://api.resend.com. */
  apiUrl: string
  /** Bearer token; undefined only for the local mailbox, which does not check it. */
  apiKey: string | undefined
  /** Default sender, e.g. 'Agent Insight <leads@example.com>'. */
  from: string
}

/** What every mail needs besides the transport: unsubscribe links and the suppression list. */
export type MailListSettings = {
  /** The public site (the /unsubscribe page), without a trailing slash. */
  siteUrl: string
  /** The project's API (the unsubscribe function and the suppression list), without a trailing slash. */
  supabaseUrl: string
  /** A secret API key, to read public.email_suppressions. */
  secretKey: string
  /** Key of the unsubscribe tokens' HMAC (REPORT_REQUEST_HMAC_SECRET). */
  tokenSecret: string
}

export type MailConfig = MailTransport & { list: MailListSettings }

const LOCAL_FROM = 'Agent Insight <notifications@localhost>'

const MailEnvSchema = z
  .object({
    MAIL_API_URL: z.url({ protocol: /^https?$/, error: 'MAIL_API_URL must be an http(s) URL.' }).optional(),
    MAIL_API_KEY: z.string().min(1).optional(),
    MAIL_FROM: z.string().min(3).optional(),
    LOCAL_MAILBOX_URL: z.url({ protocol: /^https?$/, error: 'LOCAL_MAILBOX_URL must be an http(s) URL.' }).optional(),
  })
  .transform((env, context) => {
    const local = !env.MAIL_API_URL || env.MAIL_API_URL === env.LOCAL_MAILBOX_URL
    const apiUrl = env.MAIL_API_URL ?? env.LOCAL_MAILBOX_URL
    if (!apiUrl) {
      context.addIssue({
        code: 'custom',
        message: 'MAIL_API_URL is not set (e.g. https://api.resend.com) and there is no LOCAL_MAILBOX_URL.',
      })
      return z.NEVER
    }
    if (!local && !env.MAIL_API_KEY) {
      context.addIssue({ code: 'custom', message: `MAIL_API_KEY is required to send through ${apiUrl}.` })
      return z.NEVER
    }
    if (!local && !env.MAIL_FROM) {
      context.addIssue({
        code: 'custom',
        message: 'MAIL_FROM is required outside the local mailbox (a sender on a verified domain).',
      })
      return z.NEVER
    }
    return {
      apiUrl: apiUrl.replace(/\/+$/, ''),
      apiKey: env.MAIL_API_KEY,
      from: env.MAIL_FROM ?? LOCAL_FROM,
    } satisfies MailTransport
  })

/**
 * Reads the mail transport from the environment (MAIL_API_URL, MAIL_API_KEY, MAIL_FROM, LOCAL_MAILBOX_URL).
 * Without MAIL_API_URL the local mailbox is used and key and sender are optional; with it both are required.
 * @throws Error naming the missing or malformed variable.
 */
export function mailTransportFromEnv(env: Record<string, string | undefined>): MailTransport {
  const parsed = MailEnvSchema.safeParse(env)
  if (!parsed.success)
    throw new Error(`Mail configuration: ${parsed.error.issues.map((issue) => issue.message).join(' ')}`)
  return parsed.data
}

/**
 * A function's mail settings: the transport (mailTransportFromEnv) and the list settings every send needs, from
 * SITE_URL, REPORT_REQUEST_HMAC_SECRET (32+ characters) and the platform's SUPABASE_URL and secret key.
 * @throws Error naming each missing or malformed variable.
 */
export function mailConfigFromEnv(env: Record<string, string | undefined>): MailConfig {
  const transport = mailTransportFromEnv(env)
  const problems: string[] = []
  const site = z.url({ protocol: /^https?$/ }).safeParse(env.SITE_URL)
  if (!site.success) problems.push('SITE_URL must be the public site URL (unsubscribe links point there).')
  const tokenSecret = env.REPORT_REQUEST_HMAC_SECRET ?? ''
  if (tokenSecret.length < 32)
    problems.push('REPORT_REQUEST_HMAC_SECRET must be set (32+ characters): it signs the unsubscribe links.')
  let platform: ReturnType<typeof resolvePlatformEnv> | undefined
  try {
    platform = resolvePlatformEnv((name) => env[name])
  } catch (error) {
    problems.push((error as Error).message)
  }
  if (problems.length > 0) throw new Error(`Mail configuration: ${problems.join(' ')}`)
  return {
    ...transport,
    list: {
      siteUrl: site.data!.replace(/\/+$/, ''),
      supabaseUrl: platform!.SUPABASE_URL.replace(/\/+$/, ''),
      secretKey: platform!.secretKey,
      tokenSecret,
    },
  }
}

/** The provider's answer to a send: the first message id, every id (one per recipient) and who was left out. */
export type MailSendResult = { id: string; ids: string[]; suppressed: string[] }

export class MailSendError extends Error {
  constructor(
    message: string,
    /** HTTP status of the provider's answer; undefined when the request itself failed. */
    readonly status?: number,
  ) {
    super(message)
    this.name = 'MailSendError'
  }
}

/** Every recipient of a send is on the suppression list (they unsubscribed): nothing was sent. */
export class MailSuppressedError extends MailSendError {
  constructor(readonly recipients: string[]) {
    super('The recipient unsubscribed from our emails, so nothing was sent.')
    this.name = 'MailSuppressedError'
  }
}

const SendResponseSchema = z.object({ id: z.union([z.string(), z.number()]).transform(String) })
const SuppressionRowsSchema = z.array(z.object({ email_hash: z.string() }))

/**
 * The addresses of `recipients` that are on the suppression list.
 * @throws MailSendError when the list cannot be read: without it nothing may be sent.
 */
async function suppressedOf(list: MailListSettings, recipients: string[], fetchImpl: typeof fetch) {
  const hashes = new Map<string, string>()
  for (const address of recipients) hashes.set(await emailHash(address), address)
  const url = `${list.supabaseUrl}/rest/v1/email_suppressions?select=email_hash&email_hash=in.(${[...hashes.keys()].join(',')})`
  let rows: z.infer<typeof SuppressionRowsSchema>
  try {
    const response = await fetchImpl(url, {
      headers: { apikey: list.secretKey, Authorization: `Bearer ${list.secretKey}` },
      signal: AbortSignal.timeout(10_000),
    })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    rows = SuppressionRowsSchema.parse(await response.json())
  } catch (error) {
    throw new MailSendError(`Could not read the suppression list, so nothing was sent: ${(error as Error).message}`)
  }
  return new Set(rows.map((row) => hashes.get(row.email_hash)).filter((address) => address !== undefined))
}

/** The footer every mail ends with: who sent it and the unsubscribe link. */
function withFooter(message: MailMessage, pageUrl: string): Pick<MailMessage, 'html' | 'text'> {
  const href = pageUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
  const html = `<p style="margin-top:24px;font-size:12px;color:#64748b">You received this email from AgentInsight. <a href="${href}">Unsubscribe</a> from all our emails.</p>`
  const closing = message.html.search(/<\/body>/i)
  return {
    html:
      closing === -1
        ? `${message.html}${html}`
        : `${message.html.slice(0, closing)}${html}${message.html.slice(closing)}`,
    text: `${message.text.replace(/\s+$/, '')}\n\n--\nYou received this email from AgentInsight. Unsubscribe from all our emails: ${pageUrl}\n`,
  }
}

/**
 * Sends `message` through the Resend-compatible API, one copy per recipient that is not on the suppression list,
 * each with its own unsubscribe footer link and RFC 8058 List-Unsubscribe / List-Unsubscribe-Post headers; several
 * copies go in one batch request per 100 (one request each when the message has attachments).
 * @returns the provider's message ids and the recipients left out.
 * @throws MailSuppressedError when every recipient unsubscribed (nothing was sent).
 * @throws MailSendError with the provider's status and message (Resend answers `{ statusCode, name, message }`),
 *   when the request fails or times out (10 s), or when the suppression list cannot be read.
 */
export async function sendMail(
  config: MailConfig,
  message: MailMessage,
  fetchImpl: typeof fetch = fetch,
): Promise<MailSendResult> {
  if (message.to.length === 0) throw new MailSendError('An email needs at least one recipient.')
  // one copy per mailbox address (the suppression list and the tokens ignore case)
  const recipients = [...new Map(message.to.map((address) => [address.trim().toLowerCase(), address.trim()])).values()]
  const suppressed = await suppressedOf(config.list, recipients, fetchImpl)
  const allowed = recipients.filter((address) => !suppressed.has(address))
  if (allowed.length === 0) throw new MailSuppressedError(recipients)
  const copies = await Promise.all(
    allowed.map(async (address): Promise<MailMessage> => {
      const token = await unsubscribeToken(config.list.tokenSecret, address)
      return {
        ...message,
        to: [address],
        ...withFooter(message, unsubscribePageUrl(config.list.siteUrl, token)),
        headers: {
          ...message.headers,
          ...unsubscribeHeaders(oneClickUnsubscribeUrl(config.list.supabaseUrl, token)),
        },
      }
    }),
  )
  const ids: string[] = []
  // several copies go out in batches of up to 100 in one request each (Resend's batch takes no attachments)
  if (copies.length === 1 || message.attachments?.length) {
    for (const copy of copies) ids.push(await sendOne(config, copy, fetchImpl))
  } else {
    for (let index = 0; index < copies.length; index += BATCH_MAX)
      ids.push(...(await sendBatch(config, copies.slice(index, index + BATCH_MAX), fetchImpl)))
  }
  return { id: ids[0]!, ids, suppressed: [...suppressed] }
}

/** Most emails in one batch request (Resend's limit). */
const BATCH_MAX = 100
const BatchResponseSchema = z.object({ data: z.array(SendResponseSchema) })

/** One POST /emails/batch (https://resend.com/docs/api-reference/emails/send-batch-emails); returns the ids in order. */
async function sendBatch(config: MailTransport, messages: MailMessage[], fetchImpl: typeof fetch): Promise<string[]> {
  const body = await post(config, '/emails/batch', messages, fetchImpl)
  const parsed = BatchResponseSchema.safeParse(body)
  if (!parsed.success || parsed.data.data.length !== messages.length)
    throw new MailSendError('The mail API answered the batch without one id per email.')
  return parsed.data.data.map((item) => item.id)
}

/** One POST /emails; returns the provider's message id. */
async function sendOne(config: MailTransport, message: MailMessage, fetchImpl: typeof fetch): Promise<string> {
  const parsed = SendResponseSchema.safeParse(await post(config, '/emails', message, fetchImpl))
  if (!parsed.success) throw new MailSendError('The mail API answered without a message id.')
  return parsed.data.id
}

/**
 * POSTs JSON to the mail API; returns the parsed answer.
 * @throws MailSendError with the provider's status and message, or when the request fails or times out (10 s).
 */
async function post(config: MailTransport, path: string, payload: unknown, fetchImpl: typeof fetch): Promise<unknown> {
  let response: Response
  try {
    response = await fetchImpl(`${config.apiUrl}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(10_000),
    })
  } catch (error) {
    throw new MailSendError(`Could not reach the mail API at ${config.apiUrl}: ${(error as Error).message}`)
  }
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const detail = body && typeof body === 'object' && 'message' in body ? String(body.message) : response.statusText
    throw new MailSendError(`The mail API refused the email (${response.status}): ${detail}`, response.status)
  }
  return body
}

/** Makes text safe for a one-line header such as the subject: control characters (CR, LF, ...) become spaces. */
export function singleLine(value: string): string {
  // deno-lint-ignore no-control-regex -- matching control characters is the point: a CR/LF in a subject would let a
  // lead's name inject extra mail headers
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
}
