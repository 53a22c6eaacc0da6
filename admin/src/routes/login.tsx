import { createRoute } from '@tanstack/react-router'

import { AuthLoginForm } from '@/features/auth/components/auth-login-form'
import { Route as RootRoute } from './__root'

export const Route = createRoute({
  getParentRoute: () => RootRoute,
  path: 'login',
  component: AuthLoginForm,
})
