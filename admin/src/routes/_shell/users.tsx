import { createRoute } from '@tanstack/react-router'

import { ComingSoon } from '@/components/layout/admin-shell'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'users',
  staticData: { title: 'Users' },
  component: () => <ComingSoon title="Users" />,
})
