/**
 * request-report: the public site's "Get Report" form. Validates the body (zod, field-level 400s), drops honeypot
 * submissions silently (a bot sees the same success as a person), rate-limits per mailbox (case and +tag folded) and
 * per client IP (the gateway's hop, see @shared/client-ip.ts), both hashed, then stores a pending report_requests
 * row with the service role: visitors have no INSERT privilege on the table (migration 20261123100000), so this
 * function is the only way in. Contract: @shared/report-request-contract.ts; request shell: @shared/http.ts.
 * verify_jwt = false (supabase/config.toml): visitors call it with the anon key only.
 */
import { parseBody, serveFunction } from '@shared/http.ts'
import { enforceHourlyLimit } from '@shared/rate-limit.ts'
import { platformEnv, serviceClient } from '@shared/supabase.ts'

import {
  EMAIL_LIMIT_PER_HOUR,
  IP_LIMIT_PER_HOUR,
  RATE_LIMIT_MESSAGE,
  ReportRequestSchema,
  isBot,
  rateLimitSecret,
} from '@shared/report-request.ts'

// REPORT_REQUEST_HMAC_SECRET keys the rate-limit HMACs (see rateLimitSecret); checked at boot
const hmacSecret = rateLimitSecret(Deno.env.get('REPORT_REQUEST_HMAC_SECRET'))
platformEnv()
const admin = serviceClient()

serveFunction({
  name: 'request-report',
  cors: 'public',
  failureMessage: 'Could not save your request. Please try again later.',
  async handle({ request, body, json }) {
    // a bot gets the same answer as a person, so it has nothing to learn from; nothing is stored or counted
    if (isBot(body)) return json({ ok: true }, 201)

    const form = parseBody(ReportRequestSchema, body)

    await enforceHourlyLimit(admin, hmacSecret, request, form.email, {
      emailKind: 'email',
      ipKind: 'ip',
      emailPerHour: EMAIL_LIMIT_PER_HOUR,
      ipPerHour: IP_LIMIT_PER_HOUR,
      message: RATE_LIMIT_MESSAGE,
    })

    const { error } = await admin.from('report_requests').insert({ ...form, status: 'pending' })
    if (error) {
      // the agent was deleted between page load and submit: keep the lead, without the dangling reference
      if (error.code === '23503' && form.agent_id) {
        const retry = await admin.from('report_requests').insert({ ...form, agent_id: null, status: 'pending' })
        if (retry.error) throw retry.error
      } else {
        throw error
      }
    }
    return json({ ok: true }, 201)
  },
})
