import { z } from 'zod'

/** The periods the Traffic tab offers, in days. */
export const PERIOD_DAYS = [7, 30, 90] as const
export type PeriodDays = (typeof PERIOD_DAYS)[number]

/** `?period=7|30|90` on /admin/analytics; anything else falls back to 30 days. */
export const AnalyticsSearchParamsSchema = z.object({
  period: z
    .enum(['7', '30', '90'])
    .catch('30')
    .default('30')
    .transform((value) => Number(value) as PeriodDays),
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
