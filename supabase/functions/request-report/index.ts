/**
 * request-report: the public site's "Get Report" form (contract: @shared/report-request-contract.ts). Validates the
 * body, drops honeypot submissions silently (a bot sees the same success as a person), rate-limits per mailbox
 * (case, +tags and Gmail dots folded: @shared/mailbox-key.ts) and per client IP (the gateway's hop,
 * @shared/client-ip.ts), both hashed, then stores the lead with the service role: visitors have no INSERT privilege
 * on report_requests, so this function is the only way in.
 * The report itself goes only to a confirmed address: a signed-in visitor whose confirmed account email names the
 * same mailbox is confirmed at once (the new-lead webhook's notify-new-lead then mails the PDF); anyone else gets a
 * fixed confirmation email whose link opens the site's /report/confirm page, and confirm-report mails the PDF.
 * verify_jwt = false (supabase/config.toml): visitors call it with the anon key, or their own access token.
 */
import { parseBody, serveFunction } from '@shared/http.ts'
import { linkTokenHash, newLinkToken } from '@shared/link-token.ts'
import { mailConfigFromEnv, MailSendError, sendMail } from '@shared/mail.ts'
import { mailboxKey } from '@shared/mailbox-key.ts'
import { enforceRateLimits, ipValue, rateLimitSecret } from '@shared/rate-limit.ts'
import { CONFIRMATION_NOT_SENT_MESSAGE, type ReportDeliveryStep } from '@shared/report-request-contract.ts'
import {
  buildReportConfirmationEmail,
  EMAIL_LIMIT_PER_DAY,
  EMAIL_LIMIT_PER_HOUR,
  IP_LIMIT_PER_HOUR,
  isBot,
  RATE_LIMIT_MESSAGE,
  reportConfirmationUrl,
  ReportRequestSchema,
} from '@shared/report-request.ts'
import { platformEnv, serviceClient } from '@shared/supabase.ts'
import { z } from 'zod'

// REPORT_REQUEST_HMAC_SECRET keys the rate-limit HMACs (see rateLimitSecret); checked at boot
const hmacSecret = rateLimitSecret(Deno.env.get('REPORT_REQUEST_HMAC_SECRET'))
const platform = platformEnv()
/** The public keys the site may send (new publishable and legacy anon): they carry no user. */
const publicKeys = new Set([platform.publishableKey, Deno.env.get('SUPABASE_ANON_KEY')].filter(Boolean))
const siteUrl = z.url({ error: 'SITE_URL must be the site URL' }).parse(Deno.env.get('SITE_URL'))
const mail = mailConfigFromEnv(Deno.env.toObject())
const admin = serviceClient()

/**
 * The caller's account email when the request carries a signed-in user's access token and Auth has confirmed that
 * email; null for the anon key, an invalid or expired token, or an unconfirmed account.
 */
async function confirmedAccountEmail(request: Request): Promise<string | null> {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
  if (!token || publicKeys.has(token)) return null
  const { data, error } = await admin.auth.getUser(token)
  if (error || !data.user?.email || !data.user.email_confirmed_at) return null
  return data.user.email
}

serveFunction({
  name: 'request-report',
  cors: 'public',
  failureMessage: 'Could not save your request. Please try again later.',
  async handle({ request, body, json }) {
    // a bot gets the same answer as a person, so it has nothing to learn from; nothing is stored, counted or mailed
    if (isBot(body)) return json({ ok: true, delivery: 'confirmation' satisfies ReportDeliveryStep }, 201)
    const form = parseBody(ReportRequestSchema, body)

    const mailbox = mailboxKey(form.email)
    await enforceRateLimits(
      admin,
      hmacSecret,
      [
        { kind: 'report-mailbox-hour', value: mailbox, limit: EMAIL_LIMIT_PER_HOUR, windowSeconds: 3600 },
        { kind: 'report-mailbox-day', value: mailbox, limit: EMAIL_LIMIT_PER_DAY, windowSeconds: 86_400 },
        { kind: 'report-ip-hour', value: ipValue(request), limit: IP_LIMIT_PER_HOUR, windowSeconds: 3600 },
      ],
      RATE_LIMIT_MESSAGE,
    )

    const account = await confirmedAccountEmail(request)
    const now = new Date().toISOString()
    if (account !== null && mailboxKey(account) === mailbox) {
      // the new-lead webhook (notify-new-lead) mails the report of a confirmed request
      await storeLead({ ...form, email_confirmed_at: now, email_confirmed_via: 'account' })
      return json({ ok: true, delivery: 'report' satisfies ReportDeliveryStep }, 201)
    }

    const token = newLinkToken()
    const id = await storeLead({
      ...form,
      confirmation_token_hash: await linkTokenHash(token),
      confirmation_sent_at: now,
    })
    try {
      await sendMail(mail, {
        from: mail.from,
        to: [form.email],
        ...buildReportConfirmationEmail(reportConfirmationUrl(siteUrl, token)),
      })
    } catch (error) {
      if (!(error instanceof MailSendError)) throw error
      console.error(`request-report: confirmation email for ${id} not sent: ${error.message}`)
      const { error: recordError } = await admin
        .from('report_requests')
        .update({ report_error: `The confirmation email could not be sent: ${error.message}`.slice(0, 2000) })
        .eq('id', id)
      if (recordError) console.error(`request-report: could not record the failure for ${id}: ${recordError.message}`)
      return json({ error: CONFIRMATION_NOT_SENT_MESSAGE }, 502)
    }
    return json({ ok: true, delivery: 'confirmation' satisfies ReportDeliveryStep }, 201)
  },
})

type LeadRow = z.output<typeof ReportRequestSchema> & {
  email_confirmed_at?: string
  email_confirmed_via?: 'account'
  confirmation_token_hash?: string
  confirmation_sent_at?: string
}

/** Inserts the pending lead; @returns its id. An agent deleted since the page was built is dropped, the lead kept. */
async function storeLead(row: LeadRow): Promise<string> {
  const first = await admin
    .from('report_requests')
    .insert({ ...row, status: 'pending' })
    .select('id')
    .single()
  if (!first.error) return first.data.id
  if (first.error.code !== '23503' || !row.agent_id) throw first.error
  const retry = await admin
    .from('report_requests')
    .insert({ ...row, agent_id: null, status: 'pending' })
    .select('id')
    .single()
  if (retry.error) throw retry.error
  return retry.data.id
}
