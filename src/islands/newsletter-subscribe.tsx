import { useId, useState, type SubmitEvent } from 'react'

import { NEWSLETTER_CHECK_INBOX, NewsletterSubscribeSchema } from '@shared/newsletter.ts'

import { callFunction } from '../lib/functions-client'

type Status =
  { kind: 'idle' } | { kind: 'sending' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string }

/**
 * Footer sign-up with double opt-in: sends `{ email }` to the newsletter-subscribe function (contract in
 * @shared/newsletter.ts), which mails a confirmation link. Every valid address gets the same "check your inbox"
 * answer, so the form does not reveal who is subscribed.
 */
export function NewsletterSubscribe() {
  const id = useId()
  const [email, setEmail] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [status, setStatus] = useState<Status>({ kind: 'idle' })

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = NewsletterSubscribeSchema.safeParse({ email })
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address')
      setStatus({ kind: 'idle' })
      return
    }
    setFieldError(null)
    setStatus({ kind: 'sending' })
    try {
      const response = await callFunction<{ message?: string; error?: string }>('newsletter-subscribe', parsed.data)
      if (response.ok) {
        setEmail('')
        setStatus({ kind: 'done', message: response.body?.message ?? NEWSLETTER_CHECK_INBOX })
      } else if (response.status === 400 || response.status === 429) {
        setStatus({ kind: 'failed', message: response.body?.error ?? 'Please check the address and try again.' })
      } else {
        console.error('Newsletter sign-up failed', response.status, response.body)
        setStatus({ kind: 'failed', message: 'Something went wrong. Please try again later.' })
      }
    } catch (error) {
      console.error('Newsletter sign-up failed', error)
      setStatus({ kind: 'failed', message: 'Something went wrong. Please try again later.' })
    }
  }

  const errorId = `${id}-error`
  return (
    <form className="mt-3" onSubmit={onSubmit} noValidate>
      <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-800">
        Email address
      </label>
      {/* the button drops below the field when the column is too narrow for both (the laptop footer's fourth column) */}
      <div className="mt-1 flex flex-wrap gap-2">
        <input
          id={`${id}-email`}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? errorId : undefined}
          className="min-w-[13rem] flex-1 rounded-md border border-slate-400 px-3 py-2 text-sm focus:border-brand-700 focus:outline-2 focus:outline-brand-700"
          placeholder="you@example.com"
        />
        <button
          type="submit"
          disabled={status.kind === 'sending'}
          className="rounded-md bg-brand-700 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60"
        >
          Subscribe
        </button>
      </div>
      {fieldError && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {fieldError}
        </p>
      )}
      <p
        role="status"
        className={status.kind === 'failed' ? 'mt-2 text-sm text-red-700' : 'mt-2 text-sm text-green-800'}
      >
        {status.kind === 'done' || status.kind === 'failed' ? status.message : ''}
      </p>
    </form>
  )
}
