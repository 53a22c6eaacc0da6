import { useState, type InputHTMLAttributes } from 'react'

/** The text input look of the site's account forms (sign-in, sign-up, password reset). */
const inputClass =
  'mt-1 block w-full rounded-control border border-slate-400 px-3 py-2 text-base text-slate-900 focus:border-brand-700 focus:outline-2 focus:outline-brand-700 disabled:bg-slate-100 disabled:text-slate-600'

/** The submit button look of the site's account forms. */
const submitButtonClass =
  'w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70'

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'className'> {
  id: string
  label: string
  value: string
  onValueChange: (value: string) => void
  /** A line under the input (e.g. the password rule). */
  hint?: string
}

/** A labelled input of an account form; every other input attribute (type, name, autoComplete, ...) passes through. */
export function TextField({ id, label, value, onValueChange, hint, ...input }: TextFieldProps) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        className={inputClass}
        {...input}
      />
      {hint && <p className="mt-1 text-sm text-slate-600">{hint}</p>}
    </div>
  )
}

/** The inline error of a form (role=alert, so a screen reader reads it when it appears); nothing when `message` is null. */
export function FormError({ id, message }: { id?: string; message: string | null }) {
  if (!message) return null
  return (
    <p id={id} role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  )
}

/** Shown when the auth service cannot be reached at all (network error, not an answer). */
export const AUTH_UNREACHABLE_MESSAGE = 'Could not reach the sign-in service. Please try again.'

/**
 * Busy and error state of an account form around one supabase-js auth call: `submit` clears the error, marks the form
 * busy, runs `request`, shows the auth service's `error.message` when it answers with one, or calls `onSuccess` with
 * the answer; a thrown error (no answer) is logged under `logLabel` and shown as AUTH_UNREACHABLE_MESSAGE.
 */
export function useAuthRequest(logLabel: string) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submit<T extends { error: { message: string } | null }>(
    request: () => Promise<T>,
    onSuccess: (answer: T) => void,
  ) {
    setError(null)
    setBusy(true)
    try {
      const answer = await request()
      if (answer.error) setError(answer.error.message)
      else onSuccess(answer)
    } catch (unexpected) {
      console.error(logLabel, unexpected)
      setError(AUTH_UNREACHABLE_MESSAGE)
    } finally {
      setBusy(false)
    }
  }

  return { busy, error, setError, submit }
}

/** The submit button of an account form: `busyLabel` while the request runs (and disabled), else `label`. */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" disabled={busy} aria-busy={busy} className={submitButtonClass}>
      {busy ? busyLabel : label}
    </button>
  )
}
