import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { AGENT_REVIEW_SEARCH_DEFAULTS, AgentReviewSearchSchema } from '@/features/agents/api/agents-schemas'
import { searchWithDefaults } from '@/lib/search-params'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'agents',
  ...searchWithDefaults(AgentReviewSearchSchema, AGENT_REVIEW_SEARCH_DEFAULTS),
  component: lazyRouteComponent(() => import('@/features/agents/components/agents-page'), 'AgentsPage'),
})
