import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { useToast } from '@/components/ui/toast'
import { assuranceOf, needsEnrollment, needsSecondFactor } from '../api/auth-mfa'
import { useSignInMutation, useSignOutMutation, useVerifyCodeMutation } from '../api/auth-mutations'
import { authQueries } from '../api/auth-queries'
import type { LoginCredentials } from '../api/auth-schemas'
import { LoginCredentialsSchema } from '../api/auth-schemas'
import { AuthEnrollmentStep } from './auth-enrollment-step'
import { TotpCodeField, totpCodeError, useTotpCodeForm } from './totp-code-field'
import { siteLink } from '@/lib/site-link'

/** GoTrue answers a wrong email and a wrong password alike; say so in words an admin can act on. */
function describeSignInError(error: Error): string {
  if (error.message === 'Invalid login credentials') {
    return 'Invalid email or password. Please check your credentials and try again.'
  }
  return error.message
}

/**
 * /admin/login (spec "Admin sign-in"): a link back to the site, email and password, 'Access Admin Dashboard'
 * ('Authenticating...' while it works), 'Authorized personnel only'. Only an administrator is welcomed with the
 * 'Welcome back, Admin!' toast; anyone else lands on the guard's 'Not authorized'.
 */
export function AuthLoginForm() {
  const signIn = useSignInMutation()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const session = useQuery(authQueries.session())
  const { toast } = useToast()
  const form = useForm<LoginCredentials>({
    resolver: zodResolver(LoginCredentialsSchema),
    defaultValues: { email: '', password: '' },
  })

  // Already signed in (and not mid sign-in, nor waiting for the authenticator code or its enrollment): go to the
  // dashboard.
  const awaitingCode = needsSecondFactor(session.data)
  const atPasswordStep = Boolean(session.data) && !awaitingCode && assuranceOf(session.data!).currentLevel === 'aal1'
  const adminRole = useQuery({ ...authQueries.adminRole(session.data?.user.id ?? ''), enabled: atPasswordStep })
  const mustEnroll = needsEnrollment(session.data, adminRole.data)
  const signedIn =
    Boolean(session.data) && signIn.isIdle && !awaitingCode && !mustEnroll && !(atPasswordStep && adminRole.isPending)
  useEffect(() => {
    if (signedIn) void navigate({ to: '/', replace: true })
  }, [signedIn, navigate])

  // The password was right and the account has an authenticator app: ask for its code (aal1 -> aal2).
  if (awaitingCode && session.data) return <AuthCodeStep factorId={assuranceOf(session.data).totpFactor!.id} />
  // An administrator without an authenticator app sets one up first (every administrator works at aal2).
  if (mustEnroll) return <AuthEnrollmentStep />

  const handleSubmit = form.handleSubmit((credentials) =>
    signIn.mutate(credentials, {
      onSuccess: async (signedInSession) => {
        if (needsSecondFactor(signedInSession)) return // the code step renders from the session query
        if (
          signedInSession &&
          (await queryClient.fetchQuery(authQueries.adminRole(signedInSession.user.id)).catch(() => false)) &&
          needsEnrollment(signedInSession, true)
        )
          return // the enrollment step renders from the session and role queries
        // the same check as the guard (public.is_admin()); its answer is cached for the guard
        const isAdmin = signedInSession
          ? await queryClient
              .fetchQuery(authQueries.isAdmin(signedInSession.user.id, assuranceOf(signedInSession).currentLevel))
              .catch(() => false)
          : false
        if (isAdmin) toast({ title: 'Welcome back, Admin!', description: 'You are signed in.' })
        void navigate({ to: '/' })
      },
    }),
  )

  const { errors } = form.formState
  const errorMessage =
    errors.email?.message ?? errors.password?.message ?? (signIn.error ? describeSignInError(signIn.error) : null)

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-4">
      <a href={siteLink('/')} className="text-sm font-medium text-blue-700 hover:underline">
        ← Back to AgentInsight
      </a>
      <Card className="w-full max-w-sm">
        <CardTitle>Admin Sign In</CardTitle>
        <CardDescription>Sign in with your AgentInsight admin account.</CardDescription>

        <form className="mt-6 space-y-4" onSubmit={handleSubmit} noValidate>
          {errorMessage && <Alert>{errorMessage}</Alert>}

          <div className="space-y-1.5">
            <Label htmlFor="email">Email</Label>
            <Input
              id="email"
              type="email"
              autoComplete="email"
              required
              aria-invalid={errors.email ? true : undefined}
              {...form.register('email')}
            />
          </div>

          <div className="space-y-1.5">
            <Label htmlFor="password">Password</Label>
            <Input
              id="password"
              type="password"
              autoComplete="current-password"
              required
              aria-invalid={errors.password ? true : undefined}
              {...form.register('password')}
            />
          </div>

          <Button type="submit" className="w-full" disabled={signIn.isPending}>
            {signIn.isPending ? 'Authenticating...' : 'Access Admin Dashboard'}
          </Button>
        </form>

        <p className="mt-6 text-center text-xs text-slate-500">Authorized personnel only</p>
      </Card>
    </main>
  )
}

/**
 * The second step of signing in for an admin with an authenticator app: a 6-digit code checked against their
 * verified TOTP factor. Cancel signs out (the aal1 session is of no use to the admin).
 */
function AuthCodeStep({ factorId }: { factorId: string }) {
  const verify = useVerifyCodeMutation()
  const signOut = useSignOutMutation()
  const { toast } = useToast()
  const navigate = useNavigate()
  const { form, onSubmit } = useTotpCodeForm((code) =>
    verify.mutate(
      { factorId, code },
      {
        onSuccess: () => {
          toast({ title: 'Welcome back, Admin!', description: 'You are signed in.' })
          void navigate({ to: '/' })
        },
      },
    ),
  )
  const errorMessage = totpCodeError(form, verify.error)

  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <Card className="w-full max-w-sm">
        <CardTitle>Two-factor authentication</CardTitle>
        <CardDescription>Enter the 6-digit code from your authenticator app.</CardDescription>
        <form className="mt-6 space-y-4" onSubmit={onSubmit} noValidate>
          {errorMessage && <Alert>{errorMessage}</Alert>}
          <TotpCodeField form={form} id="code" label="Authentication code" autoFocus />
          <Button type="submit" className="w-full" disabled={verify.isPending}>
            {verify.isPending ? 'Verifying...' : 'Verify'}
          </Button>
          <Button
            type="button"
            variant="ghost"
            className="w-full"
            onClick={() => signOut.mutate()}
            disabled={signOut.isPending}
          >
            Cancel and sign out
          </Button>
        </form>
      </Card>
    </main>
  )
}
