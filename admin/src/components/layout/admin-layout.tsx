import { Outlet } from '@tanstack/react-router'

import { AuthGuard } from '@/features/auth/components/auth-guard'
import { AdminShell } from './admin-shell'

/**
 * Everything under /admin except the login page: the admin guard, then the shell around the page. Its own module so
 * the `_shell` route loads it lazily (the login page never downloads the shell, its drawer or the status pill).
 */
export function AdminLayout() {
  return (
    <AuthGuard>
      {(user) => (
        <AdminShell email={user.email ?? user.id}>
          <Outlet />
        </AdminShell>
      )}
    </AuthGuard>
  )
}
