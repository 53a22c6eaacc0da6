import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'database',
  component: lazyRouteComponent(() => import('@/components/layout/coming-soon'), 'ComingSoon'),
})
