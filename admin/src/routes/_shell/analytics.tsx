import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { ANALYTICS_SEARCH_DEFAULTS, AnalyticsSearchParamsSchema } from '@/features/analytics/api/analytics-period'
import { searchWithDefaults } from '@/lib/search-params'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'analytics',
  ...searchWithDefaults(AnalyticsSearchParamsSchema, ANALYTICS_SEARCH_DEFAULTS),
  component: lazyRouteComponent(() => import('@/features/analytics/components/analytics-page'), 'AnalyticsPage'),
})
