import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'imports',
  component: lazyRouteComponent(() => import('@/features/imports/components/imports-page'), 'ImportsPage'),
})
