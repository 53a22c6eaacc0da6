/**
 * The agent figures contract: what the database gives the site, the PDF and the functions about an agent's
 * performance, per side, and the rows behind each figure. Tables and functions: docs/figures.md; formulas, window,
 * exclusions, crediting and the small-sample rules: ./methodology.ts.
 *
 * Units: PERCENT 0-100 for ratios and shares, USD for prices and volumes, days for days on market, sides as a count
 * that may end in .5. Dates are ISO `YYYY-MM-DD`.
 */
import type { Database } from './database.types.ts'
import { FIGURE_METRICS, METRICS, type FigureMetric } from './methodology.ts'

export { FIGURE_METRICS, METRICS, type FigureMetric }

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
 * window, data date (window_end, the latest close date), sources and methodology version.
 */
export type FiguresRefresh = Tables['figures_refreshes']['Row']

/** Per ZIP and agent (public.agent_zip_sales): listing-side counts and both sides' sides and volume. */
export type AgentZipSales = Tables['agent_zip_sales']['Row']

/** RESO agent roles: ListAgent, CoListAgent, BuyerAgent, CoBuyerAgent. */
export const TRANSACTION_ROLES = ['list', 'co_list', 'buyer', 'co_buyer'] as const
export type TransactionRole = (typeof TRANSACTION_ROLES)[number]

export const TRANSACTION_SIDES = ['listing', 'buyer'] as const
export type TransactionSide = (typeof TRANSACTION_SIDES)[number]

/** Display words of each role. */
export const ROLE_LABELS: Readonly<Record<TransactionRole, string>> = {
  list: 'List agent',
  co_list: 'Co-list agent',
  buyer: 'Buyer agent',
  co_buyer: 'Co-buyer agent',
}

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
