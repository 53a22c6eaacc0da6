import { z } from 'zod'

/** The periods the Traffic tab offers, in days. */
export const PERIOD_DAYS = [7, 30, 90] as const
export type PeriodDays = (typeof PERIOD_DAYS)[number]

/** The tabs of /admin/analytics. */
export const ANALYTICS_TABS = ['traffic', 'content', 'users', 'conversions'] as const
export type AnalyticsTab = (typeof ANALYTICS_TABS)[number]

export const ANALYTICS_SEARCH_DEFAULTS = { period: 30, tab: 'traffic' } as const

/**
 * /admin/analytics URL state (validated by its route): `?period=7|30|90` (days; anything else falls back to 30) and
 * the active `tab`.
 */
export const AnalyticsSearchParamsSchema = z.object({
  period: z.coerce
    .number()
    .pipe(z.union([z.literal(7), z.literal(30), z.literal(90)]))
    .default(30)
    .catch(30),
  tab: z.enum(ANALYTICS_TABS).default('traffic').catch('traffic'),
})

/** A half-open period [period_start, period_end) as ISO timestamps, the argument shape of the analytics_* SQL functions. */
export type AnalyticsRange = { period_start: string; period_end: string }

/**
 * "Last N days" as whole UTC days: from UTC midnight N-1 days before `now` up to the next UTC midnight, so the
 * period holds exactly N days (today included) and the daily chart shows N points. The range only changes at UTC
 * midnight, which keeps query keys stable while the page is open.
 *
 * @param days length of the period in days (1 or more).
 * @param now the current time (injectable for tests).
 */
export function periodRange(days: number, now: Date = new Date()): AnalyticsRange {
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth()
  const day = now.getUTCDate()
  return {
    period_start: new Date(Date.UTC(year, month, day - (days - 1))).toISOString(),
    period_end: new Date(Date.UTC(year, month, day + 1)).toISOString(),
  }
}
