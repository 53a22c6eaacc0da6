import { AdminShell, ComingSoon } from './components/layout/admin-shell'
import { ToastProvider } from './components/ui/toast'
import { AnalyticsPage } from './features/analytics/components/analytics-page'
import { AuthGuard } from './features/auth/components/auth-guard'
import { AuthLoginForm } from './features/auth/components/auth-login-form'
import { BlogAdminPage } from './features/blog/components/blog-admin-page'
import { CalendarPage } from './features/calendar/components/calendar-page'
import { CrmPage } from './features/crm/components/crm-page'
import { DashboardOverview } from './features/dashboard/components/dashboard-overview'
import { SettingsPage } from './features/settings/components/settings-page'
import { usePathname } from './hooks/use-pathname'

/** URL → screen. Everything under /admin except the login page requires an admin session. */
export function App() {
  const pathname = usePathname()

  // One toast region for the login page and the app, so 'Welcome back, Admin!' survives the move to /admin.
  return (
    <ToastProvider>
      {pathname === '/admin/login' ? (
        <AuthLoginForm />
      ) : (
        <AuthGuard>
          {(user) => (
            <AdminShell pathname={pathname} email={user.email ?? user.id}>
              <AdminRoute pathname={pathname} />
            </AdminShell>
          )}
        </AuthGuard>
      )}
    </ToastProvider>
  )
}

function AdminRoute({ pathname }: { pathname: string }) {
  switch (pathname) {
    case '/admin':
      return <DashboardOverview />
    case '/admin/blog':
      return <BlogAdminPage />
    case '/admin/calendar':
      return <CalendarPage />
    case '/admin/crm':
      return <CrmPage />
    case '/admin/analytics':
      return <AnalyticsPage />
    case '/admin/users':
      return <ComingSoon title="Users" />
    case '/admin/database':
      return <ComingSoon title="Database" />
    case '/admin/settings':
      return <SettingsPage />
    default:
      return (
        <section>
          <h1 className="text-2xl font-bold tracking-tight">Page not found</h1>
          <p className="mt-2 text-slate-600">There is no admin page at {pathname}.</p>
        </section>
      )
  }
}
