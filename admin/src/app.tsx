import { AuthGuard } from './features/auth/components/auth-guard'
import { AuthLoginForm } from './features/auth/components/auth-login-form'
import { DashboardOverview } from './features/dashboard/components/dashboard-overview'
import { usePathname } from './hooks/use-pathname'

/** URL → screen. Everything under /admin except the login page requires an admin session. */
export function App() {
  const pathname = usePathname()

  if (pathname === '/admin/login') return <AuthLoginForm />

  return <AuthGuard>{(user) => <DashboardOverview email={user.email ?? user.id} />}</AuthGuard>
}
