import * as Tabs from '@radix-ui/react-tabs'
import { useEffect, useId, useState, type SubmitEvent } from 'react'
import { z } from 'zod'

import { NewPasswordSchema, PASSWORD_MIN_LENGTH, PASSWORD_RULE_TEXT } from '@shared/password-policy.ts'
import { nextPath } from '~/lib/auth-redirect'
import { supabase } from '~/lib/supabase'
import { FormError, SubmitButton, TextField, useAuthRequest } from './form-parts'
import { useToast } from './use-toast'

type Mode = 'signin' | 'signup'

export const SignInSchema = z.object({
  email: z.email({ error: 'Please enter a valid email address' }),
  password: z.string().min(1, { error: 'Please enter your password' }),
})

export const SignUpSchema = z.object({
  fullName: z
    .string()
    .trim()
    .min(1, { error: 'Please enter your full name' })
    .max(100, { error: 'Full name must be 100 characters or fewer' }),
  email: z.email({ error: 'Please enter a valid email address' }),
  // the one password policy (supabase/config.toml's [auth], @shared/password-policy.ts), checked here so a visitor
  // sees it before the auth service refuses the password
  password: NewPasswordSchema,
})

/** Success toasts. */
export const SIGNED_IN_MESSAGE = 'Signed in successfully!'
export const SIGNED_UP_CONFIRM_MESSAGE =
  'Account created successfully! Please check your email to confirm your account.'
/** When the project does not ask for e-mail confirmation, sign-up signs the visitor in straight away. */
export const SIGNED_UP_MESSAGE = 'Account created successfully! You are signed in.'

/** How long the success toast stays readable before the redirect, ms. */
const REDIRECT_DELAY_MS = 1200

/**
 * The /auth card: Sign In and Sign Up tabs (Radix tabs, arrow keys move between them) over supabase-js email and
 * password auth with the anon key. Shows the auth service's message inline on failure, a toast on success, then goes
 * to `?next=` (a path of this site) or the home page; a visitor who already has a session is sent there straight away.
 */
export function AuthCard() {
  const [mode, setMode] = useState<Mode>('signin')
  const { toast, show } = useToast()

  useEffect(() => {
    let cancelled = false
    void supabase.auth.getSession().then(({ data }) => {
      if (!cancelled && data.session) window.location.replace(nextPath(window.location.search))
    })
    return () => {
      cancelled = true
    }
  }, [])

  function succeed(message: string) {
    show(message)
    window.setTimeout(() => window.location.assign(nextPath(window.location.search)), REDIRECT_DELAY_MS)
  }

  return (
    <div className="mx-auto w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-center text-2xl font-bold tracking-tight">Welcome Back</h1>
      <p className="mt-2 text-center text-slate-700">
        Sign in to save agents and follow your reports, or create a free account.
      </p>
      <Tabs.Root value={mode} onValueChange={(value) => setMode(value as Mode)} className="mt-6">
        <Tabs.List aria-label="Account" className="grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1">
          {(
            [
              ['signin', 'Sign In'],
              ['signup', 'Sign Up'],
            ] as const
          ).map(([value, label]) => (
            <Tabs.Trigger
              key={value}
              value={value}
              className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-700 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm"
            >
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="signin" className="mt-6">
          <AuthForm mode="signin" onSuccess={() => succeed(SIGNED_IN_MESSAGE)} />
          <p className="mt-4 text-center text-sm">
            <a href="/auth/reset-password" className="font-medium text-blue-700 hover:underline">
              Forgot your password?
            </a>
          </p>
        </Tabs.Content>
        <Tabs.Content value="signup" className="mt-6">
          <AuthForm
            mode="signup"
            onSuccess={(signedIn) => (signedIn ? succeed(SIGNED_UP_MESSAGE) : show(SIGNED_UP_CONFIRM_MESSAGE))}
          />
        </Tabs.Content>
      </Tabs.Root>
      {toast}
    </div>
  )
}

interface AuthFormProps {
  mode: Mode
  /** `signedIn` is false when sign-up needs an email confirmation first. */
  onSuccess: (signedIn: boolean) => void
}

function AuthForm({ mode, onSuccess }: AuthFormProps) {
  const id = useId()
  const [fullName, setFullName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const { busy, error, setError, submit } = useAuthRequest('Auth request failed')
  const signIn = mode === 'signin'

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = signIn
      ? SignInSchema.safeParse({ email: email.trim(), password })
      : SignUpSchema.safeParse({ fullName, email: email.trim(), password })
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please check the form')
      return
    }
    if (signIn) {
      await submit(
        () => supabase.auth.signInWithPassword({ email: parsed.data.email, password: parsed.data.password }),
        () => onSuccess(true),
      )
    } else {
      const data = parsed.data as z.infer<typeof SignUpSchema>
      // the confirmation link returns to the site root; the name is kept as user metadata full_name
      await submit(
        () =>
          supabase.auth.signUp({
            email: data.email,
            password: data.password,
            options: { emailRedirectTo: `${window.location.origin}/`, data: { full_name: data.fullName } },
          }),
        (answer) => onSuccess(Boolean(answer.data.session)),
      )
    }
  }

  const errorId = `${id}-error`
  return (
    <form onSubmit={onSubmit} noValidate aria-describedby={error ? errorId : undefined} aria-busy={busy}>
      {/* every field is disabled while the request runs */}
      <fieldset disabled={busy} className="space-y-4">
        {!signIn && (
          <TextField
            id={`${id}-name`}
            label="Full name"
            type="text"
            name="full_name"
            required
            autoComplete="name"
            value={fullName}
            onValueChange={setFullName}
          />
        )}
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
        <TextField
          id={`${id}-password`}
          label="Password"
          type="password"
          name="password"
          required
          minLength={signIn ? undefined : PASSWORD_MIN_LENGTH}
          autoComplete={signIn ? 'current-password' : 'new-password'}
          value={password}
          onValueChange={setPassword}
          hint={signIn ? undefined : PASSWORD_RULE_TEXT}
        />
        <FormError id={errorId} message={error} />
        <SubmitButton
          busy={busy}
          label={signIn ? 'Sign In' : 'Create Account'}
          busyLabel={signIn ? 'Signing in…' : 'Creating account…'}
        />
      </fieldset>
    </form>
  )
}
