import type { AgentReviewFilters } from './agents-schemas'

/** Query keys of Admin -> Agents; invalidate through these, never through hand-typed arrays. */
export const agentReviewKeys = {
  all: ['agent-reviews'] as const,
  lists: () => [...agentReviewKeys.all, 'list'] as const,
  list: (filters: AgentReviewFilters) => [...agentReviewKeys.lists(), filters] as const,
  trail: () => [...agentReviewKeys.all, 'trail'] as const,
}
