import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'settings',
  component: lazyRouteComponent(() => import('@/features/settings/components/settings-page'), 'SettingsPage'),
})
