/**
 * Sends the footer's newsletter form (src/components/NewsletterSignup.astro): validates the address with the
 * function's own schema (NewsletterSubscribeSchema, @shared/newsletter.ts), POSTs `{ email }` to
 * newsletter-subscribe, and writes the outcome into the form:
 * - an invalid address: the field error under the field (`aria-invalid`, `aria-describedby`), nothing sent;
 * - 2xx: the field emptied, the function's message (NEWSLETTER_CHECK_INBOX) in the status line;
 * - 400 or 429: the function's error (a bad address, "Too many sign-ups...") in the status line, in red;
 * - anything else or no network: "Something went wrong. Please try again later." (logged to the console).
 * Loaded only when a visitor sends the form, so zod is not on any page until then.
 */
import { NEWSLETTER_CHECK_INBOX, NewsletterSubscribeSchema } from '@shared/newsletter.ts'
import { callFunction } from '~/lib/functions-client'

/** The status line's text for an answer we cannot explain to the visitor. */
const NEWSLETTER_FAILED = 'Something went wrong. Please try again later.'

/** Validates and sends `form`; never throws (every failure is shown in the form). */
export async function sendNewsletterForm(form: HTMLFormElement): Promise<void> {
  const input = form.querySelector<HTMLInputElement>('input[name="email"]')!
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  const fieldError = form.querySelector<HTMLElement>('[data-newsletter-error]')!
  const status = form.querySelector<HTMLElement>('[data-newsletter-status]')!
  if (button.disabled) return // one request at a time
  const show = (message: string, tone: 'done' | 'error') => {
    status.textContent = message
    status.dataset.tone = tone
  }

  const parsed = NewsletterSubscribeSchema.safeParse({ email: input.value })
  if (!parsed.success) {
    fieldError.textContent = parsed.error.issues[0]?.message ?? 'Please enter a valid email address'
    fieldError.hidden = false
    input.setAttribute('aria-invalid', 'true')
    input.setAttribute('aria-describedby', fieldError.id)
    show('', 'done')
    return
  }
  fieldError.hidden = true
  input.removeAttribute('aria-invalid')
  input.removeAttribute('aria-describedby')
  show('', 'done')
  button.disabled = true
  try {
    const response = await callFunction<{ message?: string; error?: string }>('newsletter-subscribe', parsed.data)
    if (response.ok) {
      input.value = ''
      show(response.body?.message ?? NEWSLETTER_CHECK_INBOX, 'done')
    } else if (response.status === 400 || response.status === 429) {
      show(response.body?.error ?? 'Please check the address and try again.', 'error')
    } else {
      console.error('Newsletter sign-up failed', response.status, response.body)
      show(NEWSLETTER_FAILED, 'error')
    }
  } catch (error) {
    console.error('Newsletter sign-up failed', error)
    show(NEWSLETTER_FAILED, 'error')
  } finally {
    button.disabled = false
  }
}
