/**
 * newsletter-subscribe: the footer's newsletter sign-up with double opt-in (contract: @shared/newsletter.ts).
 * Visitors have no INSERT privilege on newsletter_subscriptions (migration 20261123100000); this function validates,
 * rate-limits per mailbox (case and +tag folded) and per client IP (hashed, the same hourly table as request-report),
 * stores an unconfirmed row with the hash of a random token and mails a link to the site's /newsletter/confirm page
 * (the local mailbox, or the mail API in production: @shared/mail.ts). That page confirms with a POST of the token
 * when the visitor presses Confirm, so a mail scanner that opens the link confirms nothing; an address on the
 * suppression list gets no mail at all (the same answer, so nobody learns that it unsubscribed). Unconfirmed rows
 * expire after 48 hours (public.expire_newsletter_subscriptions, run on every request). Request shell: @shared/http.ts.
 * verify_jwt = false (supabase/config.toml): visitors call it with the anon key only.
 */
import { escapeHtml } from '@shared/html.ts'
import { HttpError, parseBody, serveFunction } from '@shared/http.ts'
import { mailConfigFromEnv, MailSuppressedError, sendMail } from '@shared/mail.ts'
import {
  NEWSLETTER_ALREADY_CONFIRMED_MESSAGE,
  NEWSLETTER_CHECK_INBOX,
  NEWSLETTER_CONFIRM_HOURS,
  NEWSLETTER_CONFIRMED_MESSAGE,
  NEWSLETTER_EMAIL_LIMIT_PER_HOUR,
  NEWSLETTER_IP_LIMIT_PER_HOUR,
  NEWSLETTER_LINK_INVALID,
  NEWSLETTER_RATE_LIMIT_MESSAGE,
  NewsletterConfirmSchema,
  NewsletterSubscribeSchema,
  confirmationTokenHash,
  newConfirmationToken,
  newsletterConfirmUrl,
} from '@shared/newsletter.ts'
import { enforceHourlyLimit, rateLimitSecret } from '@shared/rate-limit.ts'
import { platformEnv, serviceClient } from '@shared/supabase.ts'
import { z } from 'zod'

const env = {
  ...platformEnv(),
  ...z
    .object({ SITE_URL: z.url({ error: 'SITE_URL must be the site URL' }) })
    .parse({ SITE_URL: Deno.env.get('SITE_URL') }),
}
const hmacSecret = rateLimitSecret(Deno.env.get('REPORT_REQUEST_HMAC_SECRET'))
const mail = mailConfigFromEnv(Deno.env.toObject())
const admin = serviceClient()

/**
 * Confirms the sign-up whose link carries `token`: 200 confirmed (or already confirmed: the hash is kept so a second
 * press says so), 404 for an unknown token or one older than NEWSLETTER_CONFIRM_HOURS.
 */
async function confirm(token: string, json: (body: unknown, status?: number) => Response): Promise<Response> {
  const hash = await confirmationTokenHash(token)
  const { data: confirmed, error } = await admin
    .from('newsletter_subscriptions')
    .update({ confirmed_at: new Date().toISOString() })
    .eq('confirmation_token_hash', hash)
    .is('confirmed_at', null)
    .gt('created_at', new Date(Date.now() - NEWSLETTER_CONFIRM_HOURS * 3600_000).toISOString())
    .select('id')
  if (error) throw error
  if (confirmed.length === 1) return json({ outcome: 'confirmed', message: NEWSLETTER_CONFIRMED_MESSAGE })
  const { data: earlier, error: readError } = await admin
    .from('newsletter_subscriptions')
    .select('id')
    .eq('confirmation_token_hash', hash)
    .not('confirmed_at', 'is', null)
    .maybeSingle()
  if (readError) throw readError
  if (earlier) return json({ outcome: 'already_confirmed', message: NEWSLETTER_ALREADY_CONFIRMED_MESSAGE })
  throw new HttpError(404, NEWSLETTER_LINK_INVALID)
}

serveFunction({
  name: 'newsletter-subscribe',
  cors: 'public',
  failureMessage: 'Something went wrong. Please try again later.',
  async handle({ request, body, json }) {
    if (body && 'token' in body) return await confirm(parseBody(NewsletterConfirmSchema, body).token, json)
    const { email } = parseBody(NewsletterSubscribeSchema, body)

    const expired = await admin.rpc('expire_newsletter_subscriptions')
    if (expired.error) throw expired.error

    await enforceHourlyLimit(admin, hmacSecret, request, email, {
      emailKind: 'newsletter-email',
      ipKind: 'newsletter-ip',
      emailPerHour: NEWSLETTER_EMAIL_LIMIT_PER_HOUR,
      ipPerHour: NEWSLETTER_IP_LIMIT_PER_HOUR,
      message: NEWSLETTER_RATE_LIMIT_MESSAGE,
    })

    const address = email.toLowerCase()
    const { data: existing, error: readError } = await admin
      .from('newsletter_subscriptions')
      .select('id, confirmed_at')
      .eq('email', address)
      .maybeSingle()
    if (readError) throw readError
    // already confirmed: the same answer, and no mail (the owner is subscribed; nobody learns whether they are)
    if (existing?.confirmed_at) return json({ message: NEWSLETTER_CHECK_INBOX }, 202)

    const token = newConfirmationToken()
    const pending = {
      confirmation_token_hash: await confirmationTokenHash(token),
      confirmation_sent_at: new Date().toISOString(),
    }
    const { error: writeError } = existing
      ? await admin.from('newsletter_subscriptions').update(pending).eq('id', existing.id)
      : await admin.from('newsletter_subscriptions').insert({ email: address, ...pending })
    if (writeError) throw writeError

    const link = newsletterConfirmUrl(env.SITE_URL, token)
    try {
      await sendMail(mail, {
        from: mail.from,
        to: [address],
        subject: 'Confirm your Agent Insight newsletter subscription',
        text: `Please confirm your subscription to the Agent Insight newsletter by opening this link within ${NEWSLETTER_CONFIRM_HOURS} hours and pressing Confirm:\n\n${link}\n\nIf you did not sign up, ignore this email and nothing will be sent to you.`,
        html: `<p>Please confirm your subscription to the Agent Insight newsletter within ${NEWSLETTER_CONFIRM_HOURS} hours:</p><p><a href="${escapeHtml(link)}">Confirm my subscription</a></p><p>If you did not sign up, ignore this email and nothing will be sent to you.</p>`,
      })
    } catch (error) {
      // an address that unsubscribed from everything gets no mail; the answer stays the same for every address
      if (!(error instanceof MailSuppressedError)) throw error
    }
    return json({ message: NEWSLETTER_CHECK_INBOX }, 202)
  },
})
