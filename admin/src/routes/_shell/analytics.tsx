import { createRoute, lazyRouteComponent, stripSearchParams } from '@tanstack/react-router'

import { ANALYTICS_SEARCH_DEFAULTS, AnalyticsSearchParamsSchema } from '@/features/analytics/api/analytics-period'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'analytics',
  validateSearch: AnalyticsSearchParamsSchema,
  // the default state keeps a bare URL
  search: { middlewares: [stripSearchParams(ANALYTICS_SEARCH_DEFAULTS)] },
  staticData: { title: 'Analytics' },
  component: lazyRouteComponent(() => import('@/features/analytics/components/analytics-page'), 'AnalyticsPage'),
})
