/**
 * confirm-report: the second step of a report request (contract: @shared/report-request-contract.ts). The site's
 * /report/confirm page posts the token of the confirmation link when the visitor presses its button; a request whose
 * link is valid (a known hash, sent within CONFIRMATION_HOURS, lead not in the trash) is marked confirmed
 * (email_confirmed_at, email_confirmed_via = 'link') and the agent's PDF report is mailed to it
 * (@shared/agent-report-delivery.ts). A second press answers 'already_confirmed' and mails nothing.
 * Per client IP at most CONFIRM_IP_LIMIT_PER_HOUR attempts an hour (tokens are 256-bit, so this only bounds load).
 * verify_jwt = false (supabase/config.toml): the page calls it with the anon key.
 */
import { deliverAgentReport } from '@shared/agent-report-delivery.ts'
import { HttpError, parseBody, serveFunction } from '@shared/http.ts'
import { linkTokenHash } from '@shared/link-token.ts'
import { mailConfigFromEnv } from '@shared/mail.ts'
import { enforceRateLimits, ipValue, rateLimitSecret } from '@shared/rate-limit.ts'
import {
  ALREADY_CONFIRMED_MESSAGE,
  CONFIRM_IP_LIMIT_PER_HOUR,
  CONFIRM_RATE_LIMIT_MESSAGE,
  CONFIRMATION_HOURS,
  LINK_EXPIRED_MESSAGE,
  LINK_INVALID_MESSAGE,
  REPORT_SENT_MESSAGE,
} from '@shared/report-request-contract.ts'
import { ReportConfirmationSchema } from '@shared/report-request.ts'
import { platformEnv, serviceClient } from '@shared/supabase.ts'
import { z } from 'zod'

const hmacSecret = rateLimitSecret(Deno.env.get('REPORT_REQUEST_HMAC_SECRET'))
platformEnv()
const siteUrl = z.url({ error: 'SITE_URL must be the site URL' }).parse(Deno.env.get('SITE_URL'))
const mail = mailConfigFromEnv(Deno.env.toObject())
const admin = serviceClient()

serveFunction({
  name: 'confirm-report',
  cors: 'public',
  failureMessage: 'Could not confirm your request. Please try again later.',
  async handle({ request, body, json }) {
    const { token } = parseBody(ReportConfirmationSchema, body)
    await enforceRateLimits(
      admin,
      hmacSecret,
      [{ kind: 'confirm-ip-hour', value: ipValue(request), limit: CONFIRM_IP_LIMIT_PER_HOUR, windowSeconds: 3600 }],
      CONFIRM_RATE_LIMIT_MESSAGE,
    )

    const hash = await linkTokenHash(token)
    const { data: found, error } = await admin
      .from('report_requests')
      .select('id, email_confirmed_at, confirmation_sent_at, deleted_at')
      .eq('confirmation_token_hash', hash)
      .maybeSingle()
    if (error) throw error
    // a lead the operators moved to the trash gets no report
    if (!found || found.deleted_at) throw new HttpError(404, LINK_INVALID_MESSAGE)
    if (found.email_confirmed_at) return json({ status: 'already_confirmed', message: ALREADY_CONFIRMED_MESSAGE })
    const sentAt = found.confirmation_sent_at ? Date.parse(found.confirmation_sent_at) : 0
    if (Date.now() - sentAt > CONFIRMATION_HOURS * 3600_000) throw new HttpError(410, LINK_EXPIRED_MESSAGE)

    // only one of two simultaneous presses gets the row, so the report is mailed once
    const { data: lead, error: confirmError } = await admin
      .from('report_requests')
      .update({ email_confirmed_at: new Date().toISOString(), email_confirmed_via: 'link' })
      .eq('id', found.id)
      .is('email_confirmed_at', null)
      .select('id, email, agent_id')
      .maybeSingle()
    if (confirmError) throw confirmError
    if (!lead) return json({ status: 'already_confirmed', message: ALREADY_CONFIRMED_MESSAGE })

    const delivery = await deliverAgentReport(admin, mail, lead, siteUrl)
    console.log(`confirm-report: agent report for ${lead.id}: ${delivery.sent ? 'sent' : delivery.reason}`)
    return delivery.sent
      ? json({ status: 'sent', message: REPORT_SENT_MESSAGE })
      : json({ status: 'not_sent', message: delivery.reason })
  },
})
