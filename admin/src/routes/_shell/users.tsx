import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'users',
  component: lazyRouteComponent(() => import('@/components/layout/coming-soon'), 'ComingSoon'),
})
