import { useEffect, useId, useState, type SubmitEvent } from 'react'
import { z } from 'zod'

import { NewPasswordSchema, PASSWORD_RULE_TEXT } from '@shared/password-policy.ts'

import { supabase } from '../lib/supabase'
import { FormError, SubmitButton, TextField, useAuthRequest } from './form-parts'

type Stage =
  | { kind: 'verifying' }
  | { kind: 'request'; note?: string }
  | { kind: 'requested' }
  | { kind: 'choose' }
  | { kind: 'done' }

const EmailSchema = z.email({ error: 'Please enter a valid email address' })

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
      setStage(
        error
          ? { kind: 'request', note: 'This reset link is invalid or has expired. Request a new one below.' }
          : { kind: 'choose' },
      )
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
  const { busy, error, setError, submit } = useAuthRequest('Password reset request failed')

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = EmailSchema.safeParse(email.trim())
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address')
    await submit(
      () =>
        supabase.auth.resetPasswordForEmail(parsed.data, {
          redirectTo: `${window.location.origin}/auth/reset-password`,
        }),
      onSent,
    )
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
      {note && <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{note}</p>}
      <p className="text-slate-700">
        Enter the email address of your account and we will send you a link to choose a new password.
      </p>
      <TextField
        id={`${id}-email`}
        label="Email"
        type="email"
        name="email"
        required
        autoComplete="email"
        value={email}
        onValueChange={setEmail}
      />
      <FormError message={error} />
      <SubmitButton busy={busy} label="Send reset link" busyLabel="Sending…" />
    </form>
  )
}

function ChooseForm({ onDone }: { onDone: () => void }) {
  const id = useId()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const { busy, error, setError, submit } = useAuthRequest('Password update failed')

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = NewPasswordSchema.safeParse(password)
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please choose another password')
    if (password !== confirm) return setError('The two passwords do not match')
    await submit(() => supabase.auth.updateUser({ password: parsed.data }), onDone)
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
      <TextField
        id={`${id}-password`}
        label="New password"
        type="password"
        name="password"
        required
        autoComplete="new-password"
        value={password}
        onValueChange={setPassword}
        hint={PASSWORD_RULE_TEXT}
      />
      <TextField
        id={`${id}-confirm`}
        label="Confirm new password"
        type="password"
        name="confirm"
        required
        autoComplete="new-password"
        value={confirm}
        onValueChange={setConfirm}
      />
      <FormError message={error} />
      <SubmitButton busy={busy} label="Set new password" busyLabel="Saving…" />
    </form>
  )
}
