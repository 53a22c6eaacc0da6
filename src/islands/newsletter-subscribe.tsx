import { useId, useState, type SubmitEvent } from 'react'
import { z } from 'zod'

import { supabase } from '../lib/supabase'

export const NewsletterFormSchema = z.object({
  email: z.email({ error: 'Please enter a valid email address' }).max(320, { error: 'Email is too long' }),
})

export type NewsletterForm = z.infer<typeof NewsletterFormSchema>

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string }

/** Postgres unique_violation: the address is already on the list (the table stores emails lower-cased). */
const UNIQUE_VIOLATION = '23505'

/**
 * Footer sign-up: inserts `{ email }` into newsletter_subscriptions as anon. The insert does not ask for the row back
 * (anon may insert but never read the list), so a duplicate shows up only as a unique violation.
 */
export function NewsletterSubscribe() {
  const id = useId()
  const [email, setEmail] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [status, setStatus] = useState<Status>({ kind: 'idle' })

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = NewsletterFormSchema.safeParse({ email: email.trim() })
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address')
      setStatus({ kind: 'idle' })
      return
    }
    setFieldError(null)
    setStatus({ kind: 'sending' })
    const { error } = await supabase.from('newsletter_subscriptions').insert(parsed.data)
    if (!error) {
      setEmail('')
      setStatus({ kind: 'done', message: 'Thanks for subscribing!' })
    } else if (error.code === UNIQUE_VIOLATION) {
      setStatus({ kind: 'done', message: "You're already subscribed" })
    } else {
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
      <div className="mt-1 flex gap-2">
        <input
          id={`${id}-email`}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? errorId : undefined}
          className="min-w-0 flex-1 rounded-md border border-slate-400 px-3 py-2 text-sm focus:border-brand-700 focus:outline-2 focus:outline-brand-700"
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
      <p role="status" className={status.kind === 'failed' ? 'mt-2 text-sm text-red-700' : 'mt-2 text-sm text-green-800'}>
        {status.kind === 'done' || status.kind === 'failed' ? status.message : ''}
      </p>
    </form>
  )
}
