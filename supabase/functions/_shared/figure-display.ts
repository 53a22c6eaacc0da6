/**
 * How the site shows an agent's figures (public.agent_figures): each figure's value in its unit, its sample size (n),
 * its 95 % interval, its difference from the primary ZIP's own figure ("+1.8 pts vs ZIP average"), the small-sample
 * note and the link to "the sales behind this figure". One set of rules for the profile, the result cards, the compare
 * view and the ZIP and city pages, so a figure reads the same everywhere and a test can recompute what a page shows.
 *
 * Imports the methodology module, the URL builders, the formatters and types only (no zod): the results and compare
 * islands load this file, and so does the PDF report (Deno).
 * Units in: PERCENT 0-100 for ratios and shares, USD, days, sides (may end in .5); out: display strings.
 */
import type { AgentFigures } from './figures-contract.ts'
import {
  METHODOLOGY_VERSION,
  METRICS,
  MIN_SALES_TO_RANK,
  MIN_SAMPLE_FOR_RATES,
  dataAsOfLine,
  smallSampleNote,
  type FigureMetric,
} from './methodology.ts'
import { figureSalesUrl } from './urls.ts'
import { formatCount, formatDate, formatDays, formatPercent, formatSides, formatUsd } from './format.ts'

export { formatSides }

/**
 * The figures of each side, in the order the profile and the PDF report show them; with the primary ZIP's (zip_sides,
 * zip_market_share, shown with the rank) every figure of agent_figures appears once.
 */
export const FIGURE_GROUPS: readonly {
  id: 'listing' | 'buyer' | 'total'
  title: string
  who: string
  count: FigureMetric
  metrics: readonly FigureMetric[]
}[] = [
  {
    id: 'listing',
    title: 'Listing side',
    who: 'as list agent or co-list agent',
    count: 'listing_sales',
    metrics: [
      'listing_sales',
      'listing_sides',
      'listing_volume',
      'sale_to_list_median',
      'sale_to_list_mean',
      'sale_to_list_shrunk',
      'days_on_market_median',
      'days_on_market_mean',
      'listing_price_min',
      'listing_price_max',
    ],
  },
  {
    id: 'buyer',
    title: 'Buyer side',
    who: 'as buyer agent or co-buyer agent',
    count: 'buyer_sales',
    metrics: [
      'buyer_sales',
      'buyer_sides',
      'buyer_volume',
      'buyer_paid_to_list_median',
      'buyer_paid_to_list_mean',
      'buyer_price_min',
      'buyer_price_max',
    ],
  },
  {
    id: 'total',
    title: 'Both sides',
    who: 'every sale with either side',
    count: 'total_sales',
    metrics: ['total_sales', 'total_sides', 'total_volume', 'dual_agency_sales'],
  },
]

/** The columns of an agent_figures row by name (numerics may arrive as strings from PostgREST). */
type FiguresRow = Pick<AgentFigures, 'agent_id' | 'window_start' | 'window_end' | 'sources'> & Partial<AgentFigures>

const column = (figures: FiguresRow, name: string): number | null => {
  const value = (figures as unknown as Record<string, number | string | null | undefined>)[name]
  if (value === null || value === undefined || value === '') return null
  const number = Number(value)
  return Number.isFinite(number) ? number : null
}

/** `value` of `metric` in its unit: "14", "12.5", "$5,230,000", "101.2%", "23 days"; an em dash when missing. */
export function formatFigure(metric: FigureMetric, value: number | string | null | undefined): string {
  switch (METRICS[metric].unit) {
    case 'sales':
      return formatCount(value)
    case 'sides':
      return formatSides(value)
    case 'usd':
      return formatUsd(value)
    case 'percent':
      return formatPercent(value)
    case 'days':
      return formatDays(value)
  }
}

/** The stored value of `metric`, or null. */
export function figureNumber(figures: FiguresRow, metric: FigureMetric): number | null {
  return column(figures, metric)
}

/** The sample size (n) of `metric`: its own n column, or the count it is. */
export function figureN(figures: FiguresRow, metric: FigureMetric): number {
  return column(figures, METRICS[metric].sampleColumn ?? metric) ?? 0
}

/** The stored 95 % interval of `metric` as [low, high], or null. */
export function figureBounds(figures: FiguresRow, metric: FigureMetric): [number, number] | null {
  const interval = METRICS[metric].interval
  if (!interval) return null
  const low = column(figures, interval.low)
  const high = column(figures, interval.high)
  return low === null || high === null ? null : [low, high]
}

/** "95 % interval 99.1% to 102.3%". */
export function intervalText(metric: FigureMetric, bounds: readonly [number, number]): string {
  return `95 % interval ${formatFigure(metric, bounds[0])} to ${formatFigure(metric, bounds[1])}`
}

/** Why a figure that has intervals shows none: too few values for the method. */
export function noIntervalText(metric: FigureMetric, n: number): string | null {
  const interval = METRICS[metric].interval
  if (!interval) return null
  const needed = interval.method === 'order-statistic' ? 6 : 2
  return n < needed ? `No 95 % interval below ${needed} sales` : null
}

/** The figures that are compared with the primary ZIP's own figure, the column of the difference and its words. */
const VS_ZIP: Partial<Record<FigureMetric, { column: string; unit: 'pts' | 'days'; zip: string }>> = {
  sale_to_list_mean: { column: 'sale_to_list_vs_zip', unit: 'pts', zip: 'ZIP average' },
  buyer_paid_to_list_mean: { column: 'buyer_paid_to_list_vs_zip', unit: 'pts', zip: 'ZIP average' },
  days_on_market_median: { column: 'days_on_market_vs_zip', unit: 'days', zip: 'ZIP median' },
}

/** A signed difference with one decimal and a true minus sign: +1.8, −6.0, 0.0. */
function signed(value: number): string {
  const text = Math.abs(value).toFixed(1)
  if (text === '0.0') return '0.0'
  return `${value > 0 ? '+' : '−'}${text}`
}

/**
 * The difference from the primary ZIP's figure (Redfin's ZIP market data): "+1.8 pts vs ZIP average" for sale-to-list
 * and paid-to-list (percentage points against the ZIP's average sale-to-list), "−6.0 days vs ZIP median" for days on
 * market. Null for figures without a ZIP counterpart or when the ZIP has no figure.
 */
export function vsZipText(figures: FiguresRow, metric: FigureMetric): string | null {
  const rule = VS_ZIP[metric]
  if (!rule) return null
  const delta = column(figures, rule.column)
  if (delta === null) return null
  return `${signed(delta)} ${rule.unit === 'pts' ? 'pts' : Math.abs(delta) === 1 ? 'day' : 'days'} vs ${rule.zip}`
}

/** Whether a figure is a rate or median (its small samples are flagged and sort last). */
export function isRate(metric: FigureMetric): boolean {
  const unit = METRICS[metric].unit
  return unit === 'percent' || unit === 'days'
}

/** Everything one figure shows, ready to render. */
export interface FigureDisplay {
  metric: FigureMetric
  label: string
  /** The value in its unit, e.g. "101.2%"; an em dash when the agent has none. */
  value: string
  /** The sample size behind it. */
  n: number
  /** "n = 14 sales". */
  nText: string
  /** "95 % interval 99.1% to 102.3%", or why there is none, or null for figures without intervals. */
  interval: string | null
  /** "+1.8 pts vs ZIP average", or null. */
  vsZip: string | null
  /** "Too few sales to rank: 3 sales, fewer than the 5 needed" for a rate on a small sample, else null. */
  smallSample: string | null
  /** "the sales behind this figure". */
  href: string
}

/** One figure of an agent as the pages show it. */
export function figureDisplay(figures: FiguresRow, metric: FigureMetric): FigureDisplay {
  const n = figureN(figures, metric)
  const bounds = figureBounds(figures, metric)
  return {
    metric,
    label: METRICS[metric].label,
    value: formatFigure(metric, figureNumber(figures, metric)),
    n,
    nText: `n = ${formatCount(n)} ${n === 1 ? 'sale' : 'sales'}`,
    interval: bounds ? intervalText(metric, bounds) : noIntervalText(metric, n),
    vsZip: vsZipText(figures, metric),
    smallSample: isRate(metric) && n > 0 ? smallSampleNote(n, 'sales', MIN_SAMPLE_FOR_RATES) : null,
    href: figureSalesUrl(figures.agent_id, metric),
  }
}

/** "Oct 1, 2024 – Sep 30, 2026": the window the figures cover. */
export function figuresWindowText(figures: Pick<AgentFigures, 'window_start' | 'window_end'>): string {
  return `${formatDate(figures.window_start)} – ${formatDate(figures.window_end)}`
}

/** How a properties.source reads in a sentence: the demo generator's 'demo' is named for what it is. */
export function sourceLabel(source: string): string {
  return source === 'demo' ? 'generated demo data' : source
}

/**
 * "Data as of Sep 30, 2026 from generated demo data, methodology v4": the data date (the latest close date in the
 * data, the window's end), the feeds and the methodology version, as every page with figures states them.
 */
export function dataAsOfText(dataDate: string | null, sources: readonly string[]): string {
  if (!dataDate) return `No closed sales counted yet, methodology v${METHODOLOGY_VERSION}`
  return dataAsOfLine(formatDate(dataDate), [...new Set(sources)].sort().map(sourceLabel))
}

/**
 * The rank in the primary ZIP as a sentence, or "too few sales to rank" and why: "#2 of 14 agents in 78704 by sides"
 * or the stored ranking note.
 */
export function zipRankText(
  figures: Pick<AgentFigures, 'zip_rank' | 'zip_agents' | 'primary_zip_code' | 'ranking_note'>,
): { ranked: boolean; text: string } {
  if (figures.zip_rank !== null && figures.zip_agents !== null && figures.primary_zip_code)
    return {
      ranked: true,
      text: `#${figures.zip_rank} of ${figures.zip_agents} ${figures.zip_agents === 1 ? 'agent' : 'agents'} in ${figures.primary_zip_code} by sides`,
    }
  return { ranked: false, text: figures.ranking_note ?? 'Too few sales to rank' }
}

/**
 * Why an agent is not ranked in an area: "Too few sales to rank: 3 closed sales in 78704 in the window, fewer than
 * the 5 needed" (the words of the stored ranking note, for any area).
 */
export function areaRankNote(sales: number, area: string, minimum = MIN_SALES_TO_RANK): string {
  return `Too few sales to rank: ${sales} closed ${sales === 1 ? 'sale' : 'sales'} in ${area} in the window, fewer than the ${minimum} needed`
}
