import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { AUDIT_SEARCH_DEFAULTS, AuditSearchSchema } from '@/features/audit/api/audit-schemas'
import { searchWithDefaults } from '@/lib/search-params'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'audit',
  ...searchWithDefaults(AuditSearchSchema, AUDIT_SEARCH_DEFAULTS),
  component: lazyRouteComponent(() => import('@/features/audit/components/audit-page'), 'AuditPage'),
})
