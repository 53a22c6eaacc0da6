/**
 * contact: the /contact page's form. Validates the body (contract: @shared/contact.ts), drops honeypot submissions
 * silently, rate-limits per mailbox and per client IP (hashed, the same table as the other public forms), then stores
 * the message as a lead of type `contact` (report_requests, service role: visitors cannot insert there). The
 * new-lead webhook tells the operators as for any lead; the visitor gets no mail, so the form cannot be used to send
 * mail to a stranger. Request shell: @shared/http.ts. verify_jwt = false (supabase/config.toml): anon key only.
 */
import {
  CONTACT_EMAIL_LIMIT_PER_HOUR,
  CONTACT_IP_LIMIT_PER_HOUR,
  CONTACT_RATE_LIMIT_MESSAGE,
  ContactSchema,
} from '@shared/contact.ts'
import { parseBody, serveFunction } from '@shared/http.ts'
import { enforceHourlyLimit, rateLimitSecret } from '@shared/rate-limit.ts'
import { isBot } from '@shared/report-request.ts'
import { platformEnv, serviceClient } from '@shared/supabase.ts'

const hmacSecret = rateLimitSecret(Deno.env.get('REPORT_REQUEST_HMAC_SECRET'))
platformEnv()
const admin = serviceClient()

serveFunction({
  name: 'contact',
  cors: 'public',
  failureMessage: 'Could not send your message. Please try again later.',
  async handle({ request, body, json }) {
    // a bot gets the same answer as a person; nothing is stored or counted
    if (isBot(body)) return json({ ok: true }, 201)
    const form = parseBody(ContactSchema, body)
    await enforceHourlyLimit(admin, hmacSecret, request, form.email, {
      emailKind: 'contact-email',
      ipKind: 'contact-ip',
      emailPerHour: CONTACT_EMAIL_LIMIT_PER_HOUR,
      ipPerHour: CONTACT_IP_LIMIT_PER_HOUR,
      message: CONTACT_RATE_LIMIT_MESSAGE,
    })
    const { error } = await admin.from('report_requests').insert({ ...form, lead_type: 'contact', status: 'pending' })
    if (error) throw error
    return json({ ok: true }, 201)
  },
})
