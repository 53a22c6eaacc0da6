import type { AnalyticsRange } from './analytics-period'

/** Query keys of the analytics aggregates; invalidate through these, never through hand-typed arrays. */
export const analyticsKeys = {
  all: ['analytics'] as const,
  summary: (range: AnalyticsRange) => [...analyticsKeys.all, 'summary', range] as const,
  daily: (range: AnalyticsRange) => [...analyticsKeys.all, 'daily', range] as const,
  topPages: (range: AnalyticsRange) => [...analyticsKeys.all, 'top-pages', range] as const,
  sources: (range: AnalyticsRange) => [...analyticsKeys.all, 'sources', range] as const,
}
