import { z } from 'zod'

/** The periods the Traffic tab offers, in days. */
export const PERIOD_DAYS = [7, 30, 90] as const
export type PeriodDays = (typeof PERIOD_DAYS)[number]

/** The tabs of /admin/analytics. */
export const ANALYTICS_TABS = ['traffic', 'content', 'users', 'conversions'] as const
export type AnalyticsTab = (typeof ANALYTICS_TABS)[number]

export const ANALYTICS_SEARCH_DEFAULTS = { period: 30, tab: 'traffic' } as const

/** A page path filter: starts with '/', at most 300 characters (the page_views.path rule). */
const PagePathSchema = z.string().trim().regex(/^\//, 'A page starts with /').max(300)
/** An excluded path prefix: a path longer than '/' alone (excluding '/' would leave nothing). */
const ExcludePathSchema = z.string().trim().regex(/^\/./, 'An excluded path starts with / and is more than /').max(300)
/** A traffic source label as analytics_sources names it: utm_source, referrer host or 'Direct'. */
const TrafficSourceSchema = z.string().trim().min(1).max(255)

/**
 * /admin/analytics URL state (validated by its route): `?period=7|30|90` (days; anything else falls back to 30), the
 * active `tab`, and the optional filters `page` (one path), `source` (one traffic source) and `exclude` (a path
 * prefix to leave out). A filter that breaks its rule is dropped rather than sent (the SQL functions refuse them with
 * 22023 too).
 */
export const AnalyticsSearchParamsSchema = z.object({
  period: z.coerce
    .number()
    .pipe(z.union([z.literal(7), z.literal(30), z.literal(90)]))
    .default(30)
    .catch(30),
  tab: z.enum(ANALYTICS_TABS).default('traffic').catch('traffic'),
  page: PagePathSchema.optional().catch(undefined),
  source: TrafficSourceSchema.optional().catch(undefined),
  exclude: ExcludePathSchema.optional().catch(undefined),
})
export type AnalyticsSearchParams = z.infer<typeof AnalyticsSearchParamsSchema>

/** A filter field as typed: empty (no filter), or a value that passes the URL's rule for it, else `message`. */
const filterField = (rule: z.ZodType<string>, message: string) =>
  z
    .string()
    .trim()
    .refine((value) => value === '' || rule.safeParse(value).success, { message })

/**
 * The analytics filter form: the same rules as the URL's `page`, `source` and `exclude` (AnalyticsSearchParamsSchema),
 * each broken one named in words; every field trimmed, '' for no filter.
 */
export const AnalyticsFilterFormSchema = z.object({
  page: filterField(PagePathSchema, 'Page must be a path starting with /, e.g. /blog.'),
  source: filterField(TrafficSourceSchema, 'Source must be 1 to 255 characters, e.g. google.com or Direct.'),
  exclude: filterField(ExcludePathSchema, 'Exclude path must start with / and be more than / alone, e.g. /admin.'),
})
export type AnalyticsFilterForm = z.infer<typeof AnalyticsFilterFormSchema>

/** The filters of the analytics_* SQL functions; an absent key is no filter (the functions' defaults are null). */
export type AnalyticsFilters = { page_path?: string; traffic_source?: string; exclude_path?: string }

/** The URL's filters as the SQL functions take them, only the ones set (so query keys stay equal without filters). */
export function filtersOf(search: Pick<AnalyticsSearchParams, 'page' | 'source' | 'exclude'>): AnalyticsFilters {
  return {
    ...(search.page ? { page_path: search.page } : {}),
    ...(search.source ? { traffic_source: search.source } : {}),
    ...(search.exclude ? { exclude_path: search.exclude } : {}),
  }
}

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

/**
 * The period of the same length just before `range` (for comparing a period with the one before it): [start - (end - start), start).
 */
export function previousRange(range: AnalyticsRange): AnalyticsRange {
  const start = Date.parse(range.period_start)
  const length = Date.parse(range.period_end) - start
  return { period_start: new Date(start - length).toISOString(), period_end: range.period_start }
}
