/**
 * A small Resend-compatible email client for edge functions: `POST {MAIL_API_URL}/emails` with
 * `Authorization: Bearer {MAIL_API_KEY}` and the JSON body `{ from, to, subject, html, text, attachments? }`
 * (https://resend.com/docs/api-reference/emails/send-email). In production MAIL_API_URL is https://api.resend.com;
 * locally it defaults to LOCAL_MAILBOX_URL, whose `POST /emails` speaks the same shape and stores the message in
 * the local mailbox (supabase/local/mailbox.ts).
 */
import { z } from 'zod'

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
  attachments?: MailAttachment[]
}

/** Base64 of bytes (for MailAttachment.content), in chunks so a large PDF does not overflow the call stack. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  return btoa(binary)
}

export type MailConfig = {
  /** Base URL without a trailing slash, e.g. https://api.resend.com. */
  apiUrl: string
  /** Bearer token; undefined only for the local mailbox, which does not check it. */
  apiKey: string | undefined
  /** Default sender, e.g. 'Agent Insight <leads@example.com>'. */
  from: string
}

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
    } satisfies MailConfig
  })

/**
 * Reads the mail settings from the environment (MAIL_API_URL, MAIL_API_KEY, MAIL_FROM, LOCAL_MAILBOX_URL).
 * Without MAIL_API_URL the local mailbox is used and key and sender are optional; with it both are required.
 * @throws Error naming the missing or malformed variable.
 */
export function mailConfigFromEnv(env: Record<string, string | undefined>): MailConfig {
  const parsed = MailEnvSchema.safeParse(env)
  if (!parsed.success)
    throw new Error(`Mail configuration: ${parsed.error.issues.map((issue) => issue.message).join(' ')}`)
  return parsed.data
}

/** The provider's answer to a send: its message id. */
export type MailSendResult = { id: string }

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

const SendResponseSchema = z.object({ id: z.union([z.string(), z.number()]).transform(String) })

/**
 * Sends one email through the Resend-compatible API.
 * @returns the provider's message id.
 * @throws MailSendError with the provider's status and message (Resend answers `{ statusCode, name, message }`),
 *   or when the request fails or times out (10 s).
 */
export async function sendMail(
  config: MailConfig,
  message: MailMessage,
  fetchImpl: typeof fetch = fetch,
): Promise<MailSendResult> {
  if (message.to.length === 0) throw new MailSendError('An email needs at least one recipient.')
  let response: Response
  try {
    response = await fetchImpl(`${config.apiUrl}/emails`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify(message),
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
  const parsed = SendResponseSchema.safeParse(body)
  if (!parsed.success) throw new MailSendError('The mail API answered without a message id.', response.status)
  return parsed.data
}

/** Makes text safe for a one-line header such as the subject: control characters (CR, LF, ...) become spaces. */
export function singleLine(value: string): string {
  // deno-lint-ignore no-control-regex -- matching control characters is the point: a CR/LF in a subject would let a
  // lead's name inject extra mail headers
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
}
