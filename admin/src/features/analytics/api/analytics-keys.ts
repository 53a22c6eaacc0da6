import type { AnalyticsFilters, AnalyticsRange } from './analytics-period'

/** One aggregate's arguments: its period and the URL's filters. */
export type AnalyticsQueryArgs = AnalyticsRange & AnalyticsFilters

/** Query keys of the analytics aggregates; invalidate through these, never through hand-typed arrays. */
export const analyticsKeys = {
  all: ['analytics'] as const,
  summary: (args: AnalyticsQueryArgs) => [...analyticsKeys.all, 'summary', args] as const,
  daily: (args: AnalyticsQueryArgs) => [...analyticsKeys.all, 'daily', args] as const,
  topPages: (args: AnalyticsQueryArgs) => [...analyticsKeys.all, 'top-pages', args] as const,
  sources: (args: AnalyticsQueryArgs) => [...analyticsKeys.all, 'sources', args] as const,
  goals: (args: AnalyticsQueryArgs) => [...analyticsKeys.all, 'goals', args] as const,
}
