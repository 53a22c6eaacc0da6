import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'builds',
  component: lazyRouteComponent(() => import('@/features/site-status/components/builds-page'), 'BuildsPage'),
})
