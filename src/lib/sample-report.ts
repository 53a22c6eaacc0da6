/**
 * The sample report's content (a static 'Agent Performance Report' with sample data), shared by the
 * /sample-report page and its PDF (src/pages/sample-report.pdf.ts), which goes through the same template as the report mailed after a
 * request (supabase/functions/_shared/agent-report.ts). Every figure is
 * invented to show the report's layout; none describes a real agent or market.
 */
import type { AgentReportData } from '@shared/agent-report.ts'
import { reportFigureParts } from '@shared/agent-report-figures.ts'
import type { AgentFigures } from '@shared/figures-contract.ts'
import { gaugeBand, percentileBand, type GaugeBand, type PercentileBand } from '@shared/report-bands.ts'

export const SAMPLE_AGENT = {
  name: 'Jordan Sample',
  brokerage: 'Example Realty Group',
  license: 'TX-0000000 (sample)',
  area: 'Austin, TX 78704',
  phone: '(555) 010-0199',
  email: 'jordan.sample@example.com',
} as const

export interface SampleGauge {
  label: string
  /** Text in the middle of the ring, e.g. "99.2%". */
  display: string
  /** Value as a PERCENT 0-100 of the gauge's maximum. */
  percentOfMax: number
  caption: string
  band: GaugeBand
}

const gauge = (label: string, display: string, percentOfMax: number, caption: string): SampleGauge => ({
  label,
  display,
  percentOfMax,
  caption,
  band: gaugeBand(percentOfMax),
})

export const SAMPLE_GAUGES: readonly SampleGauge[] = [
  gauge('Sale-to-list ratio', '99.2%', 99.2, 'Share of list price achieved'),
  gauge('Speed of sale', '21 days', Math.round((1 - 21 / 90) * 1000) / 10, 'Average days on market (90-day scale)'),
  gauge('Sales volume', '24', (24 / 30) * 100, 'Homes sold in 12 months (30 = top of scale)'),
]

export interface SampleMetric {
  label: string
  value: string
  note: string
  /** Rank among the area's agents with 5+ sales, 0-100 (100 = best). */
  percentile: number
  band: PercentileBand
}

const metric = (label: string, value: string, note: string, percentile: number): SampleMetric => ({
  label,
  value,
  note,
  percentile,
  band: percentileBand(percentile),
})

export const SAMPLE_METRICS: readonly SampleMetric[] = [
  metric('Homes sold (12 months)', '24', 'Area average for agents with 5+ sales: 11', 88),
  metric('Average sale price', '$612,000', 'Range $385,000 - $1,050,000', 64),
  metric('Average days on market', '21', 'Area average: 34 days', 72),
  metric('Sale-to-list price ratio', '99.2%', 'Area average: 97.8%', 81),
  metric('Market share', '4.2%', "Share of the ZIP code's closed sales", 52),
]

export interface SampleSale {
  address: string
  /** ISO date (RESO CloseDate). */
  closeDate: string
  /** USD (RESO ListPrice). */
  listPrice: number
  /** USD (RESO ClosePrice). */
  closePrice: number
  /** Days (RESO DaysOnMarket). */
  daysOnMarket: number
}

export const SAMPLE_SALES: readonly SampleSale[] = [
  { address: '1204 Example Ave', closeDate: '2026-10-18', listPrice: 549000, closePrice: 561000, daysOnMarket: 9 },
  { address: '88 Sample Ct', closeDate: '2026-09-30', listPrice: 725000, closePrice: 710000, daysOnMarket: 27 },
  { address: '415 Placeholder Ln', closeDate: '2026-09-12', listPrice: 489000, closePrice: 489000, daysOnMarket: 14 },
  { address: '3107 Demo Dr', closeDate: '2026-08-25', listPrice: 1050000, closePrice: 1012000, daysOnMarket: 41 },
  { address: '56 Illustration St', closeDate: '2026-08-02', listPrice: 399000, closePrice: 412500, daysOnMarket: 6 },
]

/** Close price as a PERCENT of list price, e.g. 102.2. */
export function saleToListPercent(sale: SampleSale): number {
  return (sale.closePrice / sale.listPrice) * 100
}

export const SAMPLE_SUMMARY = `In this sample, ${SAMPLE_AGENT.name} closed more sales than most agents in the area over the last 12 months, sold homes close to their list price, and went under contract faster than the area average. Sales were concentrated in single-family homes between $400,000 and $750,000, so the record is most relevant to homes in that range.`

export const SAMPLE_MARKET_ANALYSIS = [
  'The sample area had about 2.5 months of inventory over the period, which points to a market that leans toward sellers. In conditions like these, an agent who sells at or near list price is pricing homes accurately rather than relying on bidding wars.',
  "Days on market rose through late summer across the area. The agent's longest sale in this sample was also the highest-priced one, which is typical: fewer buyers shop at the top of a local market.",
]

export const SAMPLE_REPORT_INFO = [
  ['Report type', 'Sample (illustrative data)'],
  ['Period covered', 'Last 12 months'],
  ['Sales analysed', '24 closed sales'],
  ['Source', 'Listing records (list price, close price, close date, days on market)'],
] as const

/** Where the PDF is served and the file name it downloads as. */
export const SAMPLE_REPORT_PDF_PATH = '/sample-report.pdf'
export const SAMPLE_REPORT_PDF_FILENAME = 'agentinsight-sample-report.pdf'

export const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })
export const reportDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })

/** The sample agent's figures per side, invented to fill the report's layout (the shape of public.agent_figures). */
export const SAMPLE_FIGURES: AgentFigures = {
  agent_id: '00000000-0000-4000-8000-000000000000',
  window_start: '2024-11-01',
  window_end: '2026-10-31',
  data_date: '2026-10-31',
  last_close_date: '2026-10-18',
  sources: ['sample'],
  listing_sales: 24,
  listing_sides: 22.5,
  listing_volume: 14_688_000,
  listing_price_min: 385_000,
  listing_price_max: 1_050_000,
  sale_to_list_n: 24,
  sale_to_list_median: 99.6,
  sale_to_list_median_low: 98.4,
  sale_to_list_median_high: 100.9,
  sale_to_list_mean: 99.2,
  sale_to_list_mean_low: 98.3,
  sale_to_list_mean_high: 100.1,
  sale_to_list_prior: 97.9,
  sale_to_list_shrink_k: 12,
  sale_to_list_shrunk: 98.6,
  days_on_market_n: 24,
  days_on_market_median: 17,
  days_on_market_median_low: 12,
  days_on_market_median_high: 26,
  days_on_market_mean: 21,
  days_on_market_mean_low: 16.4,
  days_on_market_mean_high: 25.6,
  buyer_sales: 9,
  buyer_sides: 9,
  buyer_volume: 5_040_000,
  buyer_price_min: 410_000,
  buyer_price_max: 780_000,
  buyer_paid_to_list_n: 9,
  buyer_paid_to_list_median: 98.1,
  buyer_paid_to_list_median_low: 96.5,
  buyer_paid_to_list_median_high: 100.2,
  buyer_paid_to_list_mean: 98.4,
  buyer_paid_to_list_mean_low: 96.9,
  buyer_paid_to_list_mean_high: 99.9,
  total_sales: 32,
  total_sides: 31.5,
  total_volume: 19_728_000,
  dual_agency_sales: 1,
  primary_zip_code: '78704',
  zip_sales: 21,
  zip_sides: 20.5,
  zip_volume: 12_300_000,
  zip_rank: 3,
  zip_agents: 41,
  zip_market_share: 4.2,
  ranking_note: null,
  zip_benchmark_period_end: '2026-10-31',
  zip_sale_to_list_percent: 97.8,
  zip_median_days_on_market: 34,
  sale_to_list_vs_zip: 1.4,
  days_on_market_vs_zip: -17,
  buyer_paid_to_list_vs_zip: 0.6,
  updated_at: '2026-11-01T00:00:00Z',
}

const SAMPLE_ZIP = {
  zip_code: '78704',
  city: 'Austin',
  state: 'TX',
  median_sale_price: 598000,
  avg_sale_to_list_percent: 97.8,
  median_dom: 34,
  homes_sold: 61,
  period_end: '2026-10-31',
  attribution: 'Sample figures in the layout of the Redfin Data Center market tracker; not real market data.',
  source: 'Sample',
} as const

/** The sample as report data; `generatedOn` is the build day, `siteUrl` the site's origin. */
export function sampleReportData(generatedOn: string, siteUrl: string | URL): AgentReportData {
  const samplePage = new URL('/sample-report', siteUrl).href
  const parts = reportFigureParts(
    SAMPLE_FIGURES,
    SAMPLE_ZIP as unknown as Parameters<typeof reportFigureParts>[1],
    siteUrl,
  )
  return {
    generatedOn,
    sample: true,
    agent: {
      name: SAMPLE_AGENT.name,
      brokerage: SAMPLE_AGENT.brokerage,
      licenseNumber: SAMPLE_AGENT.license,
      area: SAMPLE_AGENT.area,
      phone: SAMPLE_AGENT.phone,
      email: SAMPLE_AGENT.email,
      url: samplePage,
    },
    window: parts.window,
    dataAsOf: `Sample data: ${parts.dataAsOf.replace(/^Data as of /, 'as of ')}`,
    methodology: parts.methodology,
    // a sample agent has no sales to open: its figures link to the sample page
    highlights: parts.highlights.map((box) => ({ ...box, url: samplePage })),
    figureGroups: parts.figureGroups.map((group) => ({
      ...group,
      figures: group.figures.map((figure) => ({ ...figure, url: samplePage })),
    })),
    ranking: parts.ranking,
    zip: {
      zipCode: SAMPLE_ZIP.zip_code,
      area: 'Austin, TX',
      medianSalePrice: SAMPLE_ZIP.median_sale_price,
      saleToListPercent: SAMPLE_ZIP.avg_sale_to_list_percent,
      medianDaysOnMarket: SAMPLE_ZIP.median_dom,
      homesSold: SAMPLE_ZIP.homes_sold,
      periodEnd: SAMPLE_ZIP.period_end,
      attribution: SAMPLE_ZIP.attribution,
      rows: parts.zipRows,
    },
    sales: SAMPLE_SALES.map((sale, index) => ({
      ...sale,
      role: index === 2 ? 'Buyer agent' : 'List agent',
      source: `sample SAMPLE-${1001 + index}`,
    })),
    salesNote: `The ${SAMPLE_SALES.length} newest of ${SAMPLE_FIGURES.total_sales} sales (sample).`,
    sources: ['Sample report: every figure is invented to show the layout; none describes a real agent or market.'],
  }
}
