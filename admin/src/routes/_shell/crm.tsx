import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { LEAD_SEARCH_DEFAULTS, LeadSearchSchema } from '@/features/crm/api/crm-schemas'
import { searchWithDefaults } from '@/lib/search-params'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'crm',
  ...searchWithDefaults(LeadSearchSchema, LEAD_SEARCH_DEFAULTS),
  component: lazyRouteComponent(() => import('@/features/crm/components/crm-page'), 'CrmPage'),
})
