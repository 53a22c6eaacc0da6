import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { useEffect, useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { useToast } from '@/components/ui/toast'
import { useSignInMutation } from '../api/auth-mutations'
import { authQueries } from '../api/auth-queries'
import { LoginCredentialsSchema } from '../api/auth-schemas'

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
  const [formError, setFormError] = useState<string | null>(null)

  // Already signed in (and not mid sign-in): the login page has nothing to offer, go to the dashboard.
  const signedIn = Boolean(session.data) && signIn.isIdle
  useEffect(() => {
    if (signedIn) void navigate({ to: '/', replace: true })
  }, [signedIn, navigate])

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const parsed = LoginCredentialsSchema.safeParse({ email: form.get('email'), password: form.get('password') })
    if (!parsed.success) {
      setFormError(parsed.error.issues[0]?.message ?? 'Check the form and try again.')
      return
    }
    setFormError(null)
    signIn.mutate(parsed.data, {
      onSuccess: async (session) => {
        // the same check as the guard (public.is_admin()); its answer is cached for the guard
        const isAdmin = session ? await queryClient.fetchQuery(authQueries.isAdmin(session.user.id)).catch(() => false) : false
        if (isAdmin) toast({ title: 'Welcome back, Admin!', description: 'You are signed in.' })
        void navigate({ to: '/' })
      },
    })
  }

  const errorMessage = formError ?? (signIn.error ? describeSignInError(signIn.error) : null)

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-4">
      <a href="/" className="text-sm font-medium text-blue-700 hover:underline">
        ← Back to AgentInsight
      </a>
      <Card className="w-full max-w-sm">
        <CardTitle>Admin Sign In</CardTitle>
        <CardDescription>Sign in with your AgentInsight admin account.</CardDescription>

        <form className="mt-6 space-y-4" onSubmit={handleSubmit} noValidate>
          {errorMessage && <Alert>{errorMessage}</Alert>}

          <div className="space-y-1.5">
            <Label htmlFor="email">Email</Label>
            <Input id="email" name="email" type="email" autoComplete="email" required />
          </div>

          <div className="space-y-1.5">
            <Label htmlFor="password">Password</Label>
            <Input id="password" name="password" type="password" autoComplete="current-password" required />
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
