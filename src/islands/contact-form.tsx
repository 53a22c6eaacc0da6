import { useId, useState, type ReactNode, type SubmitEvent } from 'react'

import { CONTACT_MESSAGE_MAX, CONTACT_SENT_MESSAGE, checkContactForm, type ContactAnswer } from '@shared/contact.ts'
import { captureUtm, visitStorage } from '@shared/lead-source.ts'
import { HONEYPOT_FIELD } from '@shared/report-request-contract.ts'
import { storedAccount } from '../lib/agent-lists'
import { callFunction } from '../lib/functions-client'
import { CONTACT_PRIVACY_LINE } from '../lib/privacy-notice'

type Values = { full_name: string; email: string; message: string }
type Status = { kind: 'editing' } | { kind: 'sending' } | { kind: 'sent'; email: string }

/**
 * The /contact form: name, email and message, sent to the contact function, which stores it as a contact lead for
 * the operators (the CRM). Signed-in visitors find their name and email filled in. Field errors appear under their
 * fields; typed text is kept through every failure.
 */
export function ContactForm() {
  const id = useId()
  const [values, setValues] = useState<Values>(() => {
    const account = typeof window === 'undefined' ? null : storedAccount()
    return { full_name: account?.fullName ?? '', email: account?.email ?? '', message: '' }
  })
  const [website, setWebsite] = useState('')
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [status, setStatus] = useState<Status>({ kind: 'editing' })

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const checked = checkContactForm(values)
    if ('errors' in checked) {
      setErrors(checked.errors)
      setFormError(null)
      focusFirstInvalid(form)
      return
    }
    setErrors({})
    setFormError(null)
    setStatus({ kind: 'sending' })
    try {
      const response = await callFunction<ContactAnswer>('contact', {
        ...checked.data,
        [HONEYPOT_FIELD]: website,
        source_page: location.pathname,
        ...captureUtm(location.search, visitStorage()),
      })
      if (response.ok) {
        setStatus({ kind: 'sent', email: checked.data.email })
        return
      }
      setStatus({ kind: 'editing' })
      const answer = response.body
      if (answer && 'errors' in answer && answer.errors) {
        setErrors(answer.errors)
        focusFirstInvalid(form)
      } else
        setFormError(
          answer && 'error' in answer ? answer.error : `Could not send your message (error ${response.status}).`,
        )
    } catch (error) {
      console.error('Contact message failed', error)
      setStatus({ kind: 'editing' })
      setFormError('Could not reach the server. Check your connection and try again.')
    }
  }

  if (status.kind === 'sent')
    return (
      <div role="status" className="rounded-card border border-green-200 bg-green-50 p-5">
        <p className="font-semibold text-green-900">{CONTACT_SENT_MESSAGE}</p>
        <p className="mt-2 text-slate-800">We answer by email to {status.email}.</p>
      </div>
    )

  const field = (name: keyof Values, label: string, input: (props: FieldProps) => ReactNode) => {
    const inputId = `${id}-${name}`
    const errorId = `${inputId}-error`
    const message = errors[name]
    return (
      <div>
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
          {label}
        </label>
        {input({
          id: inputId,
          name,
          value: values[name],
          onChange: (value: string) => setValues((current) => ({ ...current, [name]: value })),
          'aria-invalid': message ? true : undefined,
          'aria-describedby': message ? errorId : undefined,
        })}
        {message && (
          <p id={errorId} className="mt-1 text-sm text-red-800">
            {message}
          </p>
        )}
      </div>
    )
  }

  const inputClass =
    'mt-1 block w-full rounded-control border border-slate-400 px-3 py-2 text-base text-slate-900 focus:border-brand-700 focus:outline-2 focus:outline-brand-700 aria-[invalid=true]:border-red-700'
  const sending = status.kind === 'sending'
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={sending}>
      {field('full_name', 'Your name', ({ onChange, ...props }) => (
        <input
          {...props}
          type="text"
          autoComplete="name"
          onChange={(e) => onChange(e.target.value)}
          className={inputClass}
        />
      ))}
      {field('email', 'Email', ({ onChange, ...props }) => (
        <input
          {...props}
          type="email"
          autoComplete="email"
          onChange={(e) => onChange(e.target.value)}
          className={inputClass}
        />
      ))}
      {field('message', 'Message', ({ onChange, ...props }) => (
        <textarea
          {...props}
          rows={6}
          maxLength={CONTACT_MESSAGE_MAX}
          onChange={(e) => onChange(e.target.value)}
          className={inputClass}
        />
      ))}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={`${id}-website`}>Website</label>
        <input
          id={`${id}-website`}
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          value={website}
          onChange={(event) => setWebsite(event.target.value)}
        />
      </div>
      {formError && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {formError}
        </p>
      )}
      <p className="text-sm text-slate-700">
        {CONTACT_PRIVACY_LINE}{' '}
        <a href="/privacy" className="text-brand-700 underline">
          Privacy policy
        </a>
      </p>
      <button
        type="submit"
        disabled={sending}
        aria-busy={sending}
        className="rounded-control bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70"
      >
        {sending ? 'Sending…' : 'Send message'}
      </button>
    </form>
  )
}

interface FieldProps {
  id: string
  name: string
  value: string
  onChange: (value: string) => void
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}

function focusFirstInvalid(form: HTMLFormElement) {
  window.requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
}
