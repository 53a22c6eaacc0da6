import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'

import { ToastProvider } from '@/components/ui/toast'

/** Root of the admin: one toast region for the login page and the app, so 'Welcome back, Admin!' survives the move. */
export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: () => (
    <ToastProvider>
      <Outlet />
    </ToastProvider>
  ),
})
