import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: '/',
  component: lazyRouteComponent(
    () => import('@/features/dashboard/components/dashboard-overview'),
    'DashboardOverview',
  ),
})
