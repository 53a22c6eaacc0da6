/**
 * notify-new-lead: called by the database webhook `notify_new_lead` (after insert on public.report_requests, see
 * migration 20261121005000) and emails the new lead to the operators (subject and first line fixed: lead values are
 * visitor input and appear only further down, escaped).
 *
 * For a request whose address was confirmed when it was made (a signed-in visitor's confirmed account email) it
 * also mails the visitor the agent's PDF report (_shared/agent-report-delivery.ts; outcome in report_sent_at /
 * report_error) before telling the operators; other requests get theirs from confirm-report once confirmed. A
 * contact-form lead (lead_type contact) only reaches the operators.
 * Caller: only the webhook (header `x-webhook-secret`, checked by public.verify_new_lead_webhook_secret) or a
 * holder of a secret key (`Authorization: Bearer <sb_secret_... or the legacy service_role key>`); anyone else gets 401.
 * verify_jwt is off in config.toml because the webhook sends no JWT; this function does its own check.
 * Body: the Supabase webhook payload `{ type: 'INSERT', schema: 'public', table: 'report_requests', record }`.
 * Recipients: MAIL_OPERATORS (comma-separated) when set, else every administrator's email (public.lead_operator_emails).
 * Answers 200 `{ sent: true, id, recipients }` or `{ sent: false, reason }` when there is nobody to tell; 400 for a
 * bad body; 401 for an unknown caller; 502 when the mail API refuses (so a retrying webhook tries again).
 */
import { parseBody, serveFunction } from '@shared/http.ts'
import { platformEnv, serviceClient } from '@shared/supabase.ts'
import { z } from 'zod'
import { mailConfigFromEnv, MailSendError, MailSuppressedError, sendMail } from '@shared/mail.ts'
import { buildNewLeadEmail, NewLeadWebhookSchema } from './lead-email.ts'
import { deliverAgentReport } from '@shared/agent-report-delivery.ts'

const EnvSchema = z.object({
  SITE_URL: z.url({ error: 'SITE_URL must be a URL.' }),
  MAIL_OPERATORS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((address) => address.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.email({ error: 'MAIL_OPERATORS must be a comma-separated list of email addresses.' }))),
})

/** The lead's agent (the report's subject); a malformed value means no agent. */
const ReportAgentSchema = z.object({ record: z.object({ agent_id: z.uuid().nullable() }) })

const env = EnvSchema.parse(Deno.env.toObject())
const mail = mailConfigFromEnv(Deno.env.toObject())
const supabase = serviceClient()
const adminUrl = `${env.SITE_URL.replace(/\/+$/, '')}/admin/crm`

/** Compares two secrets in time independent of where they differ (both are hashed to 32 bytes first). */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const encoder = new TextEncoder()
  const [x, y] = await Promise.all([a, b].map((value) => crypto.subtle.digest('SHA-256', encoder.encode(value))))
  const left = new Uint8Array(x!)
  const right = new Uint8Array(y!)
  let difference = 0
  for (let index = 0; index < left.length; index += 1) difference |= left[index]! ^ right[index]!
  return difference === 0
}

async function isTrustedCaller(request: Request): Promise<boolean> {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get('Authorization') ?? '')?.[1]
  if (bearer) {
    for (const key of platformEnv().secretKeys) if (await sameSecret(bearer, key)) return true
  }
  const secret = request.headers.get('x-webhook-secret')
  if (!secret) return false
  const { data, error } = await supabase.rpc('verify_new_lead_webhook_secret', { candidate: secret })
  if (error) throw new Error(`verify_new_lead_webhook_secret failed: ${error.message}`)
  return data === true
}

async function operatorEmails(): Promise<string[]> {
  if (env.MAIL_OPERATORS.length > 0) return env.MAIL_OPERATORS
  const { data, error } = await supabase.rpc('lead_operator_emails')
  if (error) throw new Error(`lead_operator_emails failed: ${error.message}`)
  return (data as string[] | null) ?? []
}

serveFunction({
  name: 'notify-new-lead',
  // server-to-server (the database webhook): no browser may call it, so no CORS headers at all
  cors: 'none',
  failureMessage: 'Internal error.',
  invalidBodyMessage: 'Invalid webhook payload: body: expected JSON',
  async handle({ request, body, json }) {
    if (!(await isTrustedCaller(request))) {
      return json({ error: 'Unauthorized: send the webhook secret or the service-role key.' }, 401)
    }
    const payload = parseBody(NewLeadWebhookSchema, body)
    // the visitor's PDF report first (stored outcome, never throws), only to an address confirmed with the request
    // (a signed-in visitor's confirmed account email); otherwise confirm-report mails it when the link is used
    const lead = payload.record
    if (lead.lead_type === 'contact') {
      console.log(`notify-new-lead: ${lead.id} is a contact message: no report`)
    } else if (lead.email_confirmed_at) {
      const agentId = ReportAgentSchema.safeParse(body).data?.record.agent_id ?? null
      const report = await deliverAgentReport(
        supabase,
        mail,
        { id: lead.id, email: lead.email, agent_id: agentId },
        env.SITE_URL,
      )
      console.log(`notify-new-lead: agent report for ${lead.id}: ${report.sent ? 'sent' : report.reason}`)
    } else {
      console.log(`notify-new-lead: agent report for ${lead.id}: waits for the email confirmation`)
    }
    const recipients = await operatorEmails()
    if (recipients.length === 0) {
      console.warn(
        `notify-new-lead: lead ${payload.record.id} arrived but there is no administrator or MAIL_OPERATORS to tell`,
      )
      return json({ sent: false, reason: 'No operators to notify.' })
    }
    const email = buildNewLeadEmail(payload.record, adminUrl)
    try {
      // Resend accepts at most 50 recipients per request; operators are a handful, so one request is enough.
      const result = await sendMail(mail, { from: mail.from, to: recipients.slice(0, 50), ...email })
      return json({ sent: true, id: result.id, recipients: Math.min(recipients.length, 50) })
    } catch (error) {
      // every operator unsubscribed: nothing to retry
      if (error instanceof MailSuppressedError) return json({ sent: false, reason: error.message })
      if (!(error instanceof MailSendError)) throw error
      console.error(`notify-new-lead: ${error.message}`)
      return json({ error: 'The email could not be sent.' }, 502)
    }
  },
})
