import { createRoute, lazyRouteComponent, stripSearchParams } from '@tanstack/react-router'

import { LEAD_SEARCH_DEFAULTS, LeadSearchSchema } from '@/features/crm/api/crm-schemas'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'crm',
  validateSearch: LeadSearchSchema,
  // the default state keeps a bare URL
  search: { middlewares: [stripSearchParams(LEAD_SEARCH_DEFAULTS)] },
  staticData: { title: 'CRM' },
  component: lazyRouteComponent(() => import('@/features/crm/components/crm-page'), 'CrmPage'),
})
