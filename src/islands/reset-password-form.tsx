import { useEffect, useId, useState, type SubmitEvent } from 'react'
import { z } from 'zod'

import { NewPasswordSchema, PASSWORD_RULE_TEXT } from '@shared/password-policy.ts'

import { supabase } from '../lib/supabase'

type Stage =
  | { kind: 'verifying' }
  | { kind: 'request'; note?: string }
  | { kind: 'requested' }
  | { kind: 'choose' }
  | { kind: 'done' }

const EmailSchema = z.email({ error: 'Please enter a valid email address' })

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-base text-slate-900 focus:border-blue-700 focus:outline-2 focus:outline-blue-700'
const buttonClass =
  'w-full rounded-md bg-blue-700 px-4 py-2.5 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-wait disabled:opacity-70'

/**
 * /auth/reset-password. Opened from the recovery email (`?token_hash=…&type=recovery`, supabase/templates/
 * recovery.html) it verifies the token with supabase.auth.verifyOtp, which signs the visitor in for the reset, then
 * sets the new password with updateUser. Opened without a token (the "Forgot your password?" link on the sign-in
 * card, or an expired link) it asks for the email address and sends the recovery email.
 */
export function ResetPasswordForm() {
  // rendered in the browser only (client:only), so the link's token can decide the first screen
  const [tokenHash] = useState(() => {
    const params = new URLSearchParams(window.location.search)
    return params.get('type') === 'recovery' ? params.get('token_hash') : null
  })
  const [stage, setStage] = useState<Stage>(tokenHash ? { kind: 'verifying' } : { kind: 'request' })

  useEffect(() => {
    if (!tokenHash) return
    let cancelled = false
    void supabase.auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' }).then(({ error }) => {
      if (cancelled) return
      // the token is single-use: drop it from the address bar so a reload does not try it again
      window.history.replaceState(null, '', window.location.pathname)
      setStage(error ? { kind: 'request', note: 'This reset link is invalid or has expired. Request a new one below.' } : { kind: 'choose' })
    })
    return () => {
      cancelled = true
    }
  }, [tokenHash])

  return (
    <div className="mx-auto w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-center text-2xl font-bold tracking-tight">Reset your password</h1>
      {stage.kind === 'verifying' && (
        <p role="status" className="mt-6 text-center text-slate-700">
          Checking your reset link…
        </p>
      )}
      {stage.kind === 'request' && <RequestForm note={stage.note} onSent={() => setStage({ kind: 'requested' })} />}
      {stage.kind === 'requested' && (
        <p role="status" className="mt-6 text-center text-slate-700">
          If an account exists for that address, we sent it a link to reset the password. Check your email.
        </p>
      )}
      {stage.kind === 'choose' && <ChooseForm onDone={() => setStage({ kind: 'done' })} />}
      {stage.kind === 'done' && (
        <div role="status" className="mt-6 text-center">
          <p className="text-slate-700">Your password has been updated and you are signed in.</p>
          <a href="/" className="mt-4 inline-block font-semibold text-blue-700 hover:underline">
            Go to the home page
          </a>
        </div>
      )}
    </div>
  )
}

function RequestForm({ note, onSent }: { note?: string; onSent: () => void }) {
  const id = useId()
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = EmailSchema.safeParse(email.trim())
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address')
    setError(null)
    setBusy(true)
    try {
      const { error: authError } = await supabase.auth.resetPasswordForEmail(parsed.data, { redirectTo: `${window.location.origin}/auth/reset-password` })
      if (authError) return setError(authError.message)
      onSent()
    } catch (unexpected) {
      console.error('Password reset request failed', unexpected)
      setError('Could not reach the sign-in service. Please try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
      {note && <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{note}</p>}
      <p className="text-slate-700">Enter the email address of your account and we will send you a link to choose a new password.</p>
      <div>
        <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-800">
          Email
        </label>
        <input id={`${id}-email`} type="email" name="email" required autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} className={inputClass} />
      </div>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy} aria-busy={busy} className={buttonClass}>
        {busy ? 'Sending…' : 'Send reset link'}
      </button>
    </form>
  )
}

function ChooseForm({ onDone }: { onDone: () => void }) {
  const id = useId()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = NewPasswordSchema.safeParse(password)
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please choose another password')
    if (password !== confirm) return setError('The two passwords do not match')
    setError(null)
    setBusy(true)
    try {
      const { error: authError } = await supabase.auth.updateUser({ password: parsed.data })
      if (authError) return setError(authError.message)
      onDone()
    } catch (unexpected) {
      console.error('Password update failed', unexpected)
      setError('Could not reach the sign-in service. Please try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
      <div>
        <label htmlFor={`${id}-password`} className="block text-sm font-medium text-slate-800">
          New password
        </label>
        <input id={`${id}-password`} type="password" name="password" required autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} className={inputClass} />
        <p className="mt-1 text-sm text-slate-600">{PASSWORD_RULE_TEXT}</p>
      </div>
      <div>
        <label htmlFor={`${id}-confirm`} className="block text-sm font-medium text-slate-800">
          Confirm new password
        </label>
        <input id={`${id}-confirm`} type="password" name="confirm" required autoComplete="new-password" value={confirm} onChange={(event) => setConfirm(event.target.value)} className={inputClass} />
      </div>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy} aria-busy={busy} className={buttonClass}>
        {busy ? 'Saving…' : 'Set new password'}
      </button>
    </form>
  )
}
