import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { Route as RootRoute } from './__root'

export const Route = createRoute({
  getParentRoute: () => RootRoute,
  path: 'login',
  component: lazyRouteComponent(() => import('@/features/auth/components/auth-login-form'), 'AuthLoginForm'),
})
