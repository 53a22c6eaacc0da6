/**
 * The figures' arithmetic in TypeScript, the twin of the SQL that stores them (public.refresh_agent_metrics() and
 * its helpers): medians with their 95 % order-statistic interval, means with their 95 % Student t interval, the
 * shrunk sale-to-list, and `recomputeFigure`, which computes any figure from the sales behind it (the rows of
 * public.agent_figure_sales(), or its CSV). A visitor's spreadsheet and this module must land on the stored number;
 * tests hold the two implementations to each other. No imports: runs in the browser, Node and Deno.
 *
 * Units: PERCENT 0-100 for ratios, USD for prices, days for days on market.
 */
import { METRICS, type FigureMetric } from './methodology.ts'

/** The median of ascending `sorted` (the mean of the two middle values for an even count); null when empty. */
export function sortedMedian(sorted: readonly number[]): number | null {
  const n = sorted.length
  if (n === 0) return null
  return (sorted[Math.floor((n - 1) / 2)]! + sorted[Math.floor(n / 2)]!) / 2
}

/**
 * The rank j of the 95 % distribution-free interval of a median of n values: from the j-th smallest to the j-th
 * largest value. j is the largest rank with P(X <= j - 1) <= 0.025 for X ~ Binomial(n, 1/2) (the binomial
 * order-statistic method; coverage >= 95 %). Null below 6 values. Summed in log space like its SQL twin
 * private.median_interval_rank().
 */
export function medianIntervalRank(n: number): number | null {
  if (!Number.isInteger(n) || n < 6) return null
  let logP = -n * Math.log(2)
  let cdf = 0
  let k = 0
  for (;;) {
    if (logP > -700) cdf += Math.exp(logP)
    if (cdf > 0.025) return k
    k += 1
    logP += Math.log(n - k + 1) - Math.log(k)
  }
}

/** Two-sided 95 % Student t factors for 1-30 degrees of freedom, three decimals (the printed table). */
const T_TABLE = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
]

/**
 * The 97.5 % quantile of Student's t with `df` degrees of freedom, three decimals: the table for 1-30, the
 * Cornish-Fisher expansion around the normal quantile beyond (as private.t_quantile_975()). Null below 1.
 */
export function tQuantile975(df: number): number | null {
  if (!Number.isInteger(df) || df < 1) return null
  if (df <= 30) return T_TABLE[df - 1]!
  const z = 1.959963984540054
  const t =
    z +
    (z ** 3 + z) / (4 * df) +
    (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2) +
    (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3)
  return roundTo(t, 3)
}

/** The 95 % order-statistic interval [low, high] of the median of ascending `sorted`; null below 6 values. */
export function medianInterval(sorted: readonly number[]): [number, number] | null {
  const j = medianIntervalRank(sorted.length)
  return j === null ? null : [sorted[j - 1]!, sorted[sorted.length - j]!]
}

/** The 95 % Student t interval of the mean of `values`: mean ± t(n-1) × sample sd ÷ √n; null below 2 values. */
export function meanInterval(values: readonly number[]): [number, number] | null {
  const n = values.length
  if (n < 2) return null
  const mean = values.reduce((a, b) => a + b, 0) / n
  const sd = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1))
  const margin = tQuantile975(n - 1)! * (sd / Math.sqrt(n))
  return [mean - margin, mean + margin]
}

/** Rounds half away from zero to `decimals`, as PostgreSQL's round(numeric, n). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals
  // the epsilon keeps binary representation error (1.005 is 1.00499999...) from rounding a true half down
  return (Math.sign(value) * Math.round(Math.abs(value) * factor * (1 + Number.EPSILON))) / factor
}

/** One sale behind a figure, as the sales function or its CSV gives it. */
export interface FigureSaleInput {
  property_id: string
  side: 'listing' | 'buyer'
  /** Share of the side credited to the agent (1 or 0.5). */
  credit: number
  dual_agency: boolean
  list_price: number | null
  close_price: number
  /** close_price × credit, to the cent (USD). */
  credited_volume: number
  days_on_market: number | null
}

/** What some figures need besides the rows: the shrinkage target and weight, the ZIP's closed sales. */
export interface FigureContext {
  /** The primary ZIP's mean sale-to-list (PERCENT), for sale_to_list_shrunk. */
  prior?: number | null
  /** Shrinkage weight k, for sale_to_list_shrunk. */
  shrinkK?: number | null
  /** All closed sales in the primary ZIP in the window, for zip_market_share. */
  zipClosedSales?: number | null
}

export interface RecomputedFigure {
  /** Unrounded; compare with the stored value at its decimals (METRICS[metric].decimals). */
  value: number | null
  /** The figure's sample size. */
  n: number
  /** Its 95 % interval, unrounded, when it has one. */
  interval: [number, number] | null
}

const ratioOf = (row: FigureSaleInput) =>
  row.list_price !== null && row.list_price > 0 ? (row.close_price / row.list_price) * 100 : null

/**
 * Computes `metric` from the sales behind it (`rows` must be exactly that metric's rows, as the sales function
 * returns them), following the methodology: counts of sales, sums of credit and credited volume, min/max prices,
 * medians and means of sale price ÷ list price × 100 or of days on market, the shrunk sale-to-list, the ZIP share.
 */
export function recomputeFigure(
  metric: FigureMetric,
  rows: readonly FigureSaleInput[],
  context: FigureContext = {},
): RecomputedFigure {
  const definition = METRICS[metric]
  const sales = new Set(rows.map((row) => row.property_id)).size
  const sum = (pick: (row: FigureSaleInput) => number) => rows.reduce((total, row) => total + pick(row), 0)
  const sorted = (values: Array<number | null>) =>
    values.filter((value): value is number => value !== null).sort((a, b) => a - b)
  const plain = (value: number | null, n = sales): RecomputedFigure => ({ value, n, interval: null })
  switch (definition.unit === 'percent' || definition.unit === 'days' ? metric : definition.unit) {
    case 'sales':
      return plain(sales)
    case 'sides':
      return plain(rows.length === 0 ? 0 : sum((row) => row.credit))
    case 'usd':
      if (metric.endsWith('_min')) return plain(rows.length === 0 ? null : Math.min(...rows.map((r) => r.close_price)))
      if (metric.endsWith('_max')) return plain(rows.length === 0 ? null : Math.max(...rows.map((r) => r.close_price)))
      return plain(sum((row) => row.credited_volume))
    case 'sale_to_list_median':
    case 'buyer_paid_to_list_median':
    case 'days_on_market_median': {
      const values = sorted(rows.map(metric === 'days_on_market_median' ? (row) => row.days_on_market : ratioOf))
      return { value: sortedMedian(values), n: values.length, interval: medianInterval(values) }
    }
    case 'sale_to_list_mean':
    case 'buyer_paid_to_list_mean':
    case 'days_on_market_mean': {
      const values = sorted(rows.map(metric === 'days_on_market_mean' ? (row) => row.days_on_market : ratioOf))
      const mean = values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length
      return { value: mean, n: values.length, interval: meanInterval(values) }
    }
    case 'sale_to_list_shrunk': {
      const values = sorted(rows.map(ratioOf))
      const { prior, shrinkK } = context
      const value =
        values.length === 0 || prior === null || prior === undefined || shrinkK === null || shrinkK === undefined
          ? null
          : (values.reduce((a, b) => a + b, 0) + shrinkK * prior) / (values.length + shrinkK)
      return { value, n: values.length, interval: null }
    }
    case 'zip_market_share': {
      const closed = context.zipClosedSales
      return plain(closed ? (sum((row) => row.credit) * 100) / (2 * closed) : null)
    }
  }
  throw new Error(`No recomputation for the figure ${metric}`)
}
