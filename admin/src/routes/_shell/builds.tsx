import { createRoute } from '@tanstack/react-router'

import { BuildsPage } from '@/features/site-status/components/builds-page'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'builds',
  staticData: { title: 'Builds' },
  component: BuildsPage,
})
