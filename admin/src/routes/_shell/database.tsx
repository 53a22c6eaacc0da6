import { createRoute } from '@tanstack/react-router'

import { ComingSoon } from '@/components/layout/admin-shell'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'database',
  staticData: { title: 'Database' },
  component: () => <ComingSoon title="Database" />,
})
