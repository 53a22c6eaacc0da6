/**
 * The newsletter sign-up contract (double opt-in), shared by the `newsletter-subscribe` function, the site's footer
 * form and the tests. No I/O besides Web Crypto, so every runtime can load it.
 *
 * POST /functions/v1/newsletter-subscribe {email} (anon key; verify_jwt = false)
 *   -> 202 {message: NEWSLETTER_CHECK_INBOX} for every valid address, new, pending or already confirmed, so the
 *      answer does not reveal who is subscribed. A new or pending address gets a confirmation email; a confirmed
 *      one gets nothing.
 *   -> 400 {error, errors: {email}}; 429 {error: NEWSLETTER_RATE_LIMIT_MESSAGE} with Retry-After.
 * POST /functions/v1/newsletter-subscribe {token} (the site's /newsletter/confirm page, after the visitor presses
 *   Confirm; the link in the email opens that page, so opening the link alone, as a mail scanner does, confirms nothing)
 *   -> 200 {outcome: 'confirmed' | 'already_confirmed', message}
 *   -> 404 {error: NEWSLETTER_LINK_INVALID} for an unknown or expired token; 400 {error, errors: {token}} for a malformed one.
 * Any other method -> 405.
 * Unconfirmed sign-ups expire after NEWSLETTER_CONFIRM_HOURS; only confirmed rows may be mailed
 * (public.newsletter_recipients), and never to an address on the suppression list (@shared/mail.ts).
 */
import { z } from 'zod'

/** Sign-ups (and confirmation emails) per mailbox (case and +tag folded) per clock hour. */
export const NEWSLETTER_EMAIL_LIMIT_PER_HOUR = 3
/** Sign-ups per client IP per clock hour. */
export const NEWSLETTER_IP_LIMIT_PER_HOUR = 10
/** How long a confirmation link works. */
export const NEWSLETTER_CONFIRM_HOURS = 48

export const NEWSLETTER_CHECK_INBOX = 'Thanks! Check your inbox and click the link to confirm your subscription.'
export const NEWSLETTER_RATE_LIMIT_MESSAGE = 'Too many sign-ups. Please try again in an hour.'
export const NEWSLETTER_CONFIRMED_MESSAGE =
  'You are subscribed. New market guides and agent tips will come to your inbox, about twice a month.'
export const NEWSLETTER_ALREADY_CONFIRMED_MESSAGE = 'You were already subscribed. Nothing changed.'
export const NEWSLETTER_LINK_INVALID =
  'This confirmation link has expired or is not valid. Sign up again at the bottom of any page.'

export const NewsletterSubscribeSchema = z.object({
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(320, { error: 'Email is too long' })
    .pipe(z.email({ error: 'Please enter a valid email address' })),
})
export type NewsletterSubscribe = z.infer<typeof NewsletterSubscribeSchema>

/** The confirmation body: the token of the emailed link. */
export const NewsletterConfirmSchema = z.object({
  token: z
    .string({ error: 'token must be the code from the confirmation link' })
    .regex(/^[0-9a-f]{64}$/, { error: 'token must be the code from the confirmation link' }),
})

/** What a confirmation answers: what happened, in words for the visitor. */
export type NewsletterConfirmAnswer =
  { outcome: 'confirmed' | 'already_confirmed'; message: string } | { error: string; errors?: Record<string, string> }

/** The site page a confirmation email links to: `<site>/newsletter/confirm?token=<token>`. */
export function newsletterConfirmUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/newsletter/confirm?token=${token}`
}

/** 64 hex characters of randomness: the token in a confirmation link. */
export function newConfirmationToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** SHA-256 hex of a token: what the table stores, so a database reader cannot confirm for someone else. */
export async function confirmationTokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
