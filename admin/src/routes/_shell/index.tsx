import { createRoute } from '@tanstack/react-router'

import { DashboardOverview } from '@/features/dashboard/components/dashboard-overview'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: '/',
  staticData: { title: 'Dashboard' },
  component: DashboardOverview,
})
