import type { User } from '@supabase/supabase-js'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { useEffect } from 'react'

import { Alert } from '@/components/ui/alert'
import { assuranceOf, needsEnrollment, needsSecondFactor } from '../api/auth-mfa'
import { authQueries } from '../api/auth-queries'
import { AuthNotAuthorized } from './auth-not-authorized'
import { AuthStatusScreen } from './auth-status-screen'

type AuthGuardProps = {
  /** Rendered only for a signed-in user for whom `public.is_admin()` is true. */
  children: (user: User) => ReactNode
}

/**
 * Gate for every admin screen: no session, or a session still waiting for its authenticator code, sends the
 * visitor to /admin/login; a session without admin rights gets "Not authorized". This is a convenience for the UI
 * only; RLS (public.is_admin(), which requires aal2 for every administrator) is what protects the data. An
 * administrator without an authenticator app is sent to the login page's enrollment step.
 */
export function AuthGuard({ children }: AuthGuardProps) {
  const session = useQuery(authQueries.session())
  const signedOut = session.isSuccess && (session.data === null || needsSecondFactor(session.data))
  const navigate = useNavigate()

  useEffect(() => {
    if (signedOut) void navigate({ to: '/login', replace: true })
  }, [signedOut, navigate])

  if (session.isError) {
    return (
      <AuthStatusScreen>
        <Alert>Could not read your session: {session.error.message}</Alert>
      </AuthStatusScreen>
    )
  }
  if (!session.data || signedOut) return <AuthStatusScreen>Loading...</AuthStatusScreen>

  return (
    <AdminCheck user={session.data.user} aal={assuranceOf(session.data).currentLevel}>
      {children}
    </AdminCheck>
  )
}

function AdminCheck({ user, aal, children }: { user: User; aal: string; children: AuthGuardProps['children'] }) {
  const isAdmin = useQuery(authQueries.isAdmin(user.id, aal))
  const session = useQuery(authQueries.session())
  // an administrator without an authenticator app is sent to set one up (the login page's enrollment step)
  const adminRole = useQuery({ ...authQueries.adminRole(user.id), enabled: isAdmin.data === false && aal !== 'aal2' })
  const mustEnroll = needsEnrollment(session.data, adminRole.data)
  const navigate = useNavigate()
  useEffect(() => {
    if (mustEnroll) void navigate({ to: '/login', replace: true })
  }, [mustEnroll, navigate])

  if (isAdmin.isPending) return <AuthStatusScreen>Loading...</AuthStatusScreen>
  if (isAdmin.isError) {
    return (
      <AuthStatusScreen>
        <Alert>Could not check your admin rights: {isAdmin.error.message}</Alert>
      </AuthStatusScreen>
    )
  }
  if (!isAdmin.data && (mustEnroll || adminRole.isLoading)) return <AuthStatusScreen>Loading...</AuthStatusScreen>
  if (!isAdmin.data) return <AuthNotAuthorized email={user.email ?? user.id} />

  return children(user)
}
