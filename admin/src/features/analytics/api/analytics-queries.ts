import { queryOptions } from '@tanstack/react-query'
import { z } from 'zod'

import { dataOrThrow, supabase } from '@/lib/supabase'
import type { AnalyticsQueryArgs } from './analytics-keys'
import { analyticsKeys } from './analytics-keys'

/** analytics_summary: counts, and conversion_rate as a FRACTION 0-1 (null without visitors). */
export const AnalyticsSummarySchema = z.object({
  visitors: z.number().int().nonnegative(),
  page_views: z.number().int().nonnegative(),
  report_requests: z.number().int().nonnegative(),
  conversion_rate: z.number().nonnegative().nullable(),
})
export type AnalyticsSummary = z.infer<typeof AnalyticsSummarySchema>

/** analytics_daily: one row per UTC day ('yyyy-MM-dd'), oldest first. */
export const AnalyticsDaySchema = z.object({
  day: z.iso.date(),
  page_views: z.number().int(),
  visitors: z.number().int(),
})
export type AnalyticsDay = z.infer<typeof AnalyticsDaySchema>

export const AnalyticsTopPageSchema = z.object({
  path: z.string(),
  page_views: z.number().int(),
  visitors: z.number().int(),
})
export type AnalyticsTopPage = z.infer<typeof AnalyticsTopPageSchema>

/** kind: 'campaign' (utm_source), 'referral' (referrer host) or 'direct'. */
export const AnalyticsSourceSchema = z.object({
  source: z.string(),
  kind: z.enum(['campaign', 'referral', 'direct']),
  page_views: z.number().int(),
  visitors: z.number().int(),
})
export type AnalyticsSource = z.infer<typeof AnalyticsSourceSchema>

/** The Conversions tab's goals (analytics_goals); completions null = not attributable under the filters. */
export const ANALYTICS_GOALS = ['report_request', 'newsletter_confirm'] as const
export const AnalyticsGoalSchema = z.object({
  goal: z.enum(ANALYTICS_GOALS),
  completions: z.number().int().nonnegative().nullable(),
  conversion_rate: z.number().nonnegative().nullable(),
})
export type AnalyticsGoal = z.infer<typeof AnalyticsGoalSchema>

/**
 * analytics_summary for one period (also used by the dashboard's Page Views card).
 * @throws the PostgREST error, or a zod error when the answer has an unexpected shape.
 */
export async function fetchAnalyticsSummary(
  range: AnalyticsQueryArgs,
  signal?: AbortSignal,
): Promise<AnalyticsSummary> {
  let request = supabase.rpc('analytics_summary', range)
  if (signal) request = request.abortSignal(signal)
  return AnalyticsSummarySchema.parse(await dataOrThrow(request.single()))
}

/** Rows shown in the top pages table and the sources chart. */
const TOP_ROWS = 10

/**
 * The rows of one RPC answer checked against `schema`.
 * @throws the PostgREST error, or a zod error when a row has an unexpected shape.
 */
async function parsedRows<T>(
  request: PromiseLike<{ data: unknown; error: Error | null }>,
  schema: z.ZodType<T>,
): Promise<T[]> {
  return z.array(schema).parse(await dataOrThrow(request))
}

/**
 * The admin aggregates over one period (see supabase/migrations/20261121006000_create_page_views.sql). Each
 * throws the PostgREST error (e.g. 'Analytics are available to administrators only') or a zod error when the
 * answer does not have the expected shape.
 */
export const analyticsQueries = {
  summary: (args: AnalyticsQueryArgs) =>
    queryOptions({
      queryKey: analyticsKeys.summary(args),
      queryFn: ({ signal }) => fetchAnalyticsSummary(args, signal),
    }),

  daily: (args: AnalyticsQueryArgs) =>
    queryOptions({
      queryKey: analyticsKeys.daily(args),
      queryFn: ({ signal }) =>
        parsedRows(supabase.rpc('analytics_daily', args).abortSignal(signal), AnalyticsDaySchema),
    }),

  topPages: (args: AnalyticsQueryArgs) =>
    queryOptions({
      queryKey: analyticsKeys.topPages(args),
      queryFn: ({ signal }) =>
        parsedRows(
          supabase.rpc('analytics_top_pages', { ...args, max_rows: TOP_ROWS }).abortSignal(signal),
          AnalyticsTopPageSchema,
        ),
    }),

  sources: (args: AnalyticsQueryArgs) =>
    queryOptions({
      queryKey: analyticsKeys.sources(args),
      queryFn: ({ signal }) =>
        parsedRows(
          supabase.rpc('analytics_sources', { ...args, max_rows: TOP_ROWS }).abortSignal(signal),
          AnalyticsSourceSchema,
        ),
    }),

  goals: (args: AnalyticsQueryArgs) =>
    queryOptions({
      queryKey: analyticsKeys.goals(args),
      queryFn: ({ signal }) =>
        parsedRows(supabase.rpc('analytics_goals', args).abortSignal(signal), AnalyticsGoalSchema),
    }),
}
