import { createRoute, Outlet } from '@tanstack/react-router'

import { AdminShell } from '@/components/layout/admin-shell'
import { AuthGuard } from '@/features/auth/components/auth-guard'
import { Route as RootRoute } from './__root'

/** Everything under /admin except the login page: the admin guard and the shell. */
export const Route = createRoute({
  getParentRoute: () => RootRoute,
  id: '_shell',
  component: () => (
    <AuthGuard>
      {(user) => (
        <AdminShell email={user.email ?? user.id}>
          <Outlet />
        </AdminShell>
      )}
    </AuthGuard>
  ),
  notFoundComponent: NotFound,
})

function NotFound() {
  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">Page not found</h1>
      <p className="mt-2 text-slate-600">There is no admin page at {window.location.pathname}.</p>
    </section>
  )
}
