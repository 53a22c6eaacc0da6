/**
 * The agent figures contract: what the database gives the site, the PDF and the functions about an agent's
 * performance, per side, and the rows behind each figure. Tables and functions: docs/figures.md; formulas, window,
 * exclusions, crediting and the small-sample rules: ./methodology.ts.
 *
 * Units: PERCENT 0-100 for ratios and shares, USD for prices and volumes, days for days on market, sides as a count
 * that may end in .5. Dates are ISO `YYYY-MM-DD`.
 */
import { z } from 'zod'

import type { Database } from './database.types.ts'
import {
  FIGURE_METRICS,
  METRICS,
  ROLE_LABELS,
  TRANSACTION_ROLES,
  TRANSACTION_SIDES,
  type FigureMetric,
  type TransactionRole,
  type TransactionSide,
} from './methodology.ts'

export {
  FIGURE_METRICS,
  METRICS,
  ROLE_LABELS,
  TRANSACTION_ROLES,
  TRANSACTION_SIDES,
  type FigureMetric,
  type TransactionRole,
  type TransactionSide,
}

type Tables = Database['public']['Tables']

/**
 * One agent's figures (public.agent_figures, anyone reads): listing side, buyer side, totals, sample sizes (…_n),
 * 95 % intervals (…_low / …_high), the shrunk sale-to-list, the primary ZIP's rank and share, and the ZIP's own
 * figures with the deltas ("vs ZIP"). Only agents with at least one counted side have a row.
 */
export type AgentFigures = Tables['agent_figures']['Row']

/** What a ZIP's figures rest on (public.zip_sales_coverage): closed sales in the window, date range, sources. */
export type ZipSalesCoverage = Tables['zip_sales_coverage']['Row']

/**
 * One row of public.figures_refreshes per metrics refresh; the latest (by refreshed_at) describes the figures shown:
 * window (whole calendar months), data date (data_date, the latest close date in the data), sources and methodology
 * version.
 */
export type FiguresRefresh = Tables['figures_refreshes']['Row']

/** Per ZIP and agent (public.agent_zip_sales): listing-side counts and both sides' sides and volume. */
export type AgentZipSales = Tables['agent_zip_sales']['Row']

/** The stored value of `metric` in an agent's figures row (null when the agent has no value for it). */
export function figureValue(figures: AgentFigures, metric: FigureMetric): number | null {
  const value = (figures as unknown as Record<string, number | null>)[metric]
  return value === undefined || value === null ? null : Number(value)
}

/** The sample size (n) of `metric`: its own n column, or the number of rows it is computed from. */
export function figureSampleSize(figures: AgentFigures, metric: FigureMetric): number {
  const column = METRICS[metric].sampleColumn ?? metric
  return Number((figures as unknown as Record<string, number | null>)[column] ?? 0)
}

/** The 95 % interval of `metric` as [low, high], or null when it has none (or too few values for one). */
export function figureInterval(figures: AgentFigures, metric: FigureMetric): [number, number] | null {
  const interval = METRICS[metric].interval
  if (!interval) return null
  const row = figures as unknown as Record<string, number | null>
  const low = row[interval.low]
  const high = row[interval.high]
  return low === null || low === undefined || high === null || high === undefined ? null : [Number(low), Number(high)]
}

const isoDate = z.iso.date()
const money = z.number().nonnegative()

/**
 * One sale behind a figure, as public.agent_figure_sales() returns it: the sale, the agent's role and credit on it,
 * and where the record came from (source, source_record_id: the feed and its ListingKey).
 */
export const FigureSaleSchema = z.object({
  property_id: z.string(),
  address: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip_code: z.string().nullable(),
  close_date: isoDate,
  role: z.enum(TRANSACTION_ROLES),
  side: z.enum(TRANSACTION_SIDES),
  /** Share of the side credited to the agent: 1 or 0.5. */
  credit: z.number().positive().max(1),
  dual_agency: z.boolean(),
  list_price: money.nullable(),
  close_price: money,
  /** close_price x credit, to the cent, USD. */
  credited_volume: money,
  /** close_price / list_price x 100 (PERCENT), null without a list price. */
  sale_to_list: z.number().nullable(),
  days_on_market: z.number().int().nullable(),
  property_type: z.string().nullable(),
  source: z.string().nullable(),
  source_record_id: z.string().nullable(),
})
export type FigureSale = z.infer<typeof FigureSaleSchema>

/**
 * "The sales behind this figure": public.agent_figure_sales(agent_id, metric, max_rows) (anyone may call it; one
 * agent and one metric at a time, at most 2,000 rows). `value` is the stored figure, `rows` the sales it is computed
 * from (newest first), `formula` the rule in words. For the shrunk sale-to-list, `prior` and `shrink_k` complete the
 * inputs; for the ZIP share, `zip_closed_sales`. `truncated` is true when the agent has more rows than were returned
 * (then the figure cannot be recomputed from them alone; `total_rows` says how many there are).
 */
export const AgentFigureSalesSchema = z.object({
  agent_id: z.string(),
  metric: z.enum(FIGURE_METRICS),
  label: z.string(),
  unit: z.enum(['sales', 'sides', 'usd', 'percent', 'days']),
  formula: z.string(),
  methodology_version: z.string(),
  value: z.number().nullable(),
  n: z.number().int().nonnegative(),
  interval_low: z.number().nullable(),
  interval_high: z.number().nullable(),
  /** Null only before the first metrics refresh. */
  window_start: isoDate.nullable(),
  window_end: isoDate.nullable(),
  /** "Data as of": the latest close date in the data when these figures were written. Null before the first refresh. */
  data_date: isoDate.nullable(),
  zip_code: z.string().nullable(),
  prior: z.number().nullable(),
  shrink_k: z.number().nullable(),
  zip_closed_sales: z.number().int().nullable(),
  total_rows: z.number().int().nonnegative(),
  truncated: z.boolean(),
  rows: z.array(FigureSaleSchema),
})
export type AgentFigureSales = z.infer<typeof AgentFigureSalesSchema>

/** Largest number of rows agent_figure_sales() returns for one call. */
export const FIGURE_SALES_MAX_ROWS = 2000
