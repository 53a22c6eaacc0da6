/**
 * How every agent figure is computed, as data: the one source of the /methodology page, the profile's and PDF's
 * "methodology v<N>" line and the docs. The SQL that computes the figures (public.refresh_agent_metrics(), the
 * per-agent sales function) implements exactly this; tests compare the two (the version and each formula's words
 * with the database's, and every figure with its recomputation from the sales behind it).
 *
 * Units: PERCENT 0-100 for ratios and shares (101.5 means 101.5 %), USD for prices and volumes, days for days on
 * market, sides as a count that may end in .5.
 * No imports: the site, the admin and the functions (Deno) all load it.
 */

/** The version printed next to every figure ("methodology v3"); bump it with a changelog entry when a rule changes. */
export const METHODOLOGY_VERSION = '4'

export interface MethodologyChange {
  version: string
  /** ISO date the version took effect. */
  date: string
  changes: string[]
}

/** Newest first. */
export const METHODOLOGY_CHANGELOG: readonly MethodologyChange[] = [
  {
    version: '4',
    date: '2026-11-29',
    changes: [
      'The window is the 24 calendar months ending with the month of the latest close date in our data (it was the 24 months ending at that date): it moves once a month, so a day’s new sales change only the figures they belong to.',
      'The data date (“Data as of”) is the latest close date in our data when an agent’s figures were last written; a day that leaves an agent’s figures as they were leaves their page, and its date, as it was.',
    ],
  },
  {
    version: '3',
    date: '2026-11-28',
    changes: [
      'The share of the ZIP’s sides is given to one decimal (it was two): one more sale in a ZIP no longer moves every agent’s share there.',
      'The adjusted sale-to-list pulls toward the primary ZIP’s mean sale-to-list rounded to one decimal, for the same reason.',
    ],
  },
  {
    version: '2',
    date: '2026-11-27',
    changes: [
      'Both sides of a sale count: buyer agents, co-list agents and co-buyer agents are credited, not only the listing agent.',
      'An agent and a co-agent on the same side share it, half each; an agent on both sides of a sale (dual agency) gets both sides, and the sale is marked.',
      'Figures are given per side (listing side, buyer side) and in total, each with the number of sales behind it.',
      'Medians and means carry a 95 % interval; sale-to-list is also given shrunk toward the ZIP figure, which is what sorting by sale-to-list uses.',
      'ZIP rankings count sides in the ZIP, ties broken by volume; each figure is compared with the ZIP’s own figure.',
      'Every figure lists the sales behind it, with a CSV download that recomputes it.',
    ],
  },
  {
    version: '1',
    date: '2026-11-21',
    changes: [
      'Figures from closed sales as listing agent over the 24 months ending at the latest close date in the data.',
      'An agent is ranked in their primary ZIP only with at least 5 closed sales there (from 2026-11-23).',
    ],
  },
]

/**
 * The metrics window: whole calendar months of closed sales, ending with the month of the latest close date in the
 * data (the data date), both ends included.
 */
export const WINDOW_MONTHS = 24

export const WINDOW_TEXT =
  'Every figure covers the 24 calendar months ending with the month of the latest close date in our data (the data date): with a data date of November 28, 2026, sales that closed from December 1, 2024 to November 30, 2026. The window moves on the first sale of a new month. Sales that closed earlier are not counted. “Data as of” gives the data date when the figures were last written: a day that changes none of an agent’s figures leaves their page, and its date, as it was.'

/** Why a sale or a value is left out of a figure. */
export const EXCLUSIONS = [
  {
    id: 'non-closed',
    text: 'Listings that did not close (StandardStatus Active, Pending, Withdrawn, Expired, Canceled and the like) are not sales and are not counted.',
  },
  {
    id: 'missing-price',
    text: 'A closed sale without a sale price (ClosePrice) is not counted.',
  },
  {
    id: 'out-of-window',
    text: 'A sale that closed outside the window is not counted.',
  },
  {
    id: 'missing-list-price',
    text: 'Sale-to-list and paid-to-list leave out sales without a list price; their sample size (n) says how many remain.',
  },
  {
    id: 'missing-days-on-market',
    text: 'Days on market leaves out sales without DaysOnMarket; its n says how many remain.',
  },
  {
    id: 'implausible',
    text: 'The importer rejects records with implausible values (a price under $1,000 or over $500,000,000, more than 3,650 days on market, a sale price outside 0.2 to 5 times the list price, a close date in the future) and sale fields on a listing that did not close.',
  },
] as const

/** How a sale's sides are credited to agents. */
export const SIDE_CREDITING = [
  'Every sale has two sides: the listing side (RESO list agent and co-list agent) and the buyer side (buyer agent and co-buyer agent).',
  'The agents on one side share it equally: an agent alone on a side gets 1 side, an agent and a co-agent get 0.5 each. A co-agent we cannot name still takes their half.',
  'An agent named twice on one side (as agent and co-agent) counts once.',
  'An agent on both sides of the same sale (dual agency) gets both sides, 1 each (or 0.5 each when shared), and the sale is marked as dual agency; it counts once in the agent’s number of sales.',
  'Sales and sample sizes count sales; sides and volume use the credit (volume = sale price × credit, to the cent).',
  'Rates, medians and price ranges use every sale of the side, whatever the agent’s share of it.',
] as const

/** RESO agent roles (the words of side crediting; kept here, import-free, for the pages that show them): ListAgent, CoListAgent, BuyerAgent, CoBuyerAgent. */
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

/** Below this many closed sales in their primary ZIP an agent is not ranked there ("too few sales to rank"). */
export const MIN_SALES_TO_RANK = 5

/** Below this many values a rate or median is shown with its n but not used to rank or sort (it sorts last). */
export const MIN_SAMPLE_FOR_RATES = 5

export const SMALL_SAMPLE_TEXT = [
  `An agent is ranked in their primary ZIP only with at least ${MIN_SALES_TO_RANK} closed sales there in the window; below that the page says "too few sales to rank" and how many there are.`,
  'Medians come with a 95 % distribution-free interval (the binomial order-statistic method: from the j-th smallest to the j-th largest value, j the largest rank with a 2.5 % or smaller chance that fewer than j values fall below the true median). With fewer than 6 sales there is no such interval and none is shown.',
  'Means come with a 95 % Student t interval (mean ± t × standard deviation ÷ √n); none below 2 sales.',
  'Sale-to-list is also shrunk toward the agent’s primary ZIP (empirical Bayes): (sum of the agent’s ratios + k × the ZIP’s mean, to one decimal) ÷ (n + k). k, in sales, is the ratio of the spread within agents to the spread between agents, estimated from all agents each refresh and rounded to a whole number (at least 1, at most 100; 10 while fewer than 10 agents have 2 or more ratios). An agent with few sales is pulled close to the ZIP, one with many sales keeps their own figure. Sorting by sale-to-list uses this figure.',
  `Sorting by a rate puts agents with fewer than ${MIN_SAMPLE_FOR_RATES} values behind the others.`,
] as const

export const ZIP_COMPARISON_TEXT =
  'Each figure is compared with the same figure for the agent’s primary ZIP from Redfin’s ZIP market data (zip_market_benchmarks): mean sale-to-list and mean paid-to-list against the ZIP’s average sale-to-list ("+1.8 pts vs ZIP"), median days on market against the ZIP’s median days on market ("−6 days vs ZIP"). Source: Redfin, a national real estate brokerage (redfin.com/news/data-center).'

/** The figures an agent has; each is a column of public.agent_figures and opens "the sales behind this figure". */
export const FIGURE_METRICS = [
  'listing_sales',
  'listing_sides',
  'listing_volume',
  'listing_price_min',
  'listing_price_max',
  'sale_to_list_median',
  'sale_to_list_mean',
  'sale_to_list_shrunk',
  'days_on_market_median',
  'days_on_market_mean',
  'buyer_sales',
  'buyer_sides',
  'buyer_volume',
  'buyer_price_min',
  'buyer_price_max',
  'buyer_paid_to_list_median',
  'buyer_paid_to_list_mean',
  'total_sales',
  'total_sides',
  'total_volume',
  'dual_agency_sales',
  'zip_sides',
  'zip_market_share',
] as const
export type FigureMetric = (typeof FIGURE_METRICS)[number]

export type FigureUnit = 'sales' | 'sides' | 'usd' | 'percent' | 'days'

/** Which of an agent's sales a figure is computed from (the rows "the sales behind this figure" lists). */
export type FigureRows =
  | 'listing'
  | 'listing-with-list-price'
  | 'listing-with-days-on-market'
  | 'buyer'
  | 'buyer-with-list-price'
  | 'all'
  | 'dual-agency'
  | 'primary-zip'

export interface MetricDefinition {
  key: FigureMetric
  label: string
  side: 'listing' | 'buyer' | 'total' | 'zip'
  unit: FigureUnit
  /** Decimals the stored figure has. */
  decimals: 0 | 1 | 2
  rows: FigureRows
  /** The agent_figures column holding the figure's sample size (n), when it has its own. */
  sampleColumn: string | null
  /** The agent_figures columns of its 95 % interval, when it has one. */
  interval: { low: string; high: string; method: 'order-statistic' | 'student-t' } | null
  /** The formula in words, as the sales-behind-figure function returns it. */
  formula: string
}

const percentOfList = 'sale price ÷ list price × 100'

/** Every figure's definition, in FIGURE_METRICS order. */
export const METRICS: Readonly<Record<FigureMetric, MetricDefinition>> = {
  listing_sales: {
    key: 'listing_sales',
    label: 'Listing-side sales',
    side: 'listing',
    unit: 'sales',
    decimals: 0,
    rows: 'listing',
    sampleColumn: null,
    interval: null,
    formula: 'Number of closed sales in the window where the agent was the list agent or co-list agent.',
  },
  listing_sides: {
    key: 'listing_sides',
    label: 'Listing sides',
    side: 'listing',
    unit: 'sides',
    decimals: 2,
    rows: 'listing',
    sampleColumn: 'listing_sales',
    interval: null,
    formula: 'Sum of the credit over the listing-side sales: 1 per sale, 0.5 when shared with a co-list agent.',
  },
  listing_volume: {
    key: 'listing_volume',
    label: 'Listing-side volume',
    side: 'listing',
    unit: 'usd',
    decimals: 2,
    rows: 'listing',
    sampleColumn: 'listing_sales',
    interval: null,
    formula: 'Sum over the listing-side sales of sale price × credit, each rounded to the cent.',
  },
  listing_price_min: {
    key: 'listing_price_min',
    label: 'Lowest listing-side sale price',
    side: 'listing',
    unit: 'usd',
    decimals: 2,
    rows: 'listing',
    sampleColumn: 'listing_sales',
    interval: null,
    formula: 'The lowest sale price among the listing-side sales.',
  },
  listing_price_max: {
    key: 'listing_price_max',
    label: 'Highest listing-side sale price',
    side: 'listing',
    unit: 'usd',
    decimals: 2,
    rows: 'listing',
    sampleColumn: 'listing_sales',
    interval: null,
    formula: 'The highest sale price among the listing-side sales.',
  },
  sale_to_list_median: {
    key: 'sale_to_list_median',
    label: 'Sale-to-list (median)',
    side: 'listing',
    unit: 'percent',
    decimals: 2,
    rows: 'listing-with-list-price',
    sampleColumn: 'sale_to_list_n',
    interval: { low: 'sale_to_list_median_low', high: 'sale_to_list_median_high', method: 'order-statistic' },
    formula: `Median of ${percentOfList} over the listing-side sales with a list price (the mean of the two middle values when their number is even).`,
  },
  sale_to_list_mean: {
    key: 'sale_to_list_mean',
    label: 'Sale-to-list (mean)',
    side: 'listing',
    unit: 'percent',
    decimals: 2,
    rows: 'listing-with-list-price',
    sampleColumn: 'sale_to_list_n',
    interval: { low: 'sale_to_list_mean_low', high: 'sale_to_list_mean_high', method: 'student-t' },
    formula: `Mean of ${percentOfList} over the listing-side sales with a list price.`,
  },
  sale_to_list_shrunk: {
    key: 'sale_to_list_shrunk',
    label: 'Sale-to-list (adjusted for sample size)',
    side: 'listing',
    unit: 'percent',
    decimals: 2,
    rows: 'listing-with-list-price',
    sampleColumn: 'sale_to_list_n',
    interval: null,
    formula: `(Sum of ${percentOfList} over the listing-side sales with a list price + k × the primary ZIP's mean sale-to-list, to one decimal) ÷ (their number + k).`,
  },
  days_on_market_median: {
    key: 'days_on_market_median',
    label: 'Days on market (median)',
    side: 'listing',
    unit: 'days',
    decimals: 1,
    rows: 'listing-with-days-on-market',
    sampleColumn: 'days_on_market_n',
    interval: { low: 'days_on_market_median_low', high: 'days_on_market_median_high', method: 'order-statistic' },
    formula: 'Median of DaysOnMarket over the listing-side sales that have it.',
  },
  days_on_market_mean: {
    key: 'days_on_market_mean',
    label: 'Days on market (mean)',
    side: 'listing',
    unit: 'days',
    decimals: 1,
    rows: 'listing-with-days-on-market',
    sampleColumn: 'days_on_market_n',
    interval: { low: 'days_on_market_mean_low', high: 'days_on_market_mean_high', method: 'student-t' },
    formula: 'Mean of DaysOnMarket over the listing-side sales that have it.',
  },
  buyer_sales: {
    key: 'buyer_sales',
    label: 'Buyer-side sales',
    side: 'buyer',
    unit: 'sales',
    decimals: 0,
    rows: 'buyer',
    sampleColumn: null,
    interval: null,
    formula: 'Number of closed sales in the window where the agent was the buyer agent or co-buyer agent.',
  },
  buyer_sides: {
    key: 'buyer_sides',
    label: 'Buyer sides',
    side: 'buyer',
    unit: 'sides',
    decimals: 2,
    rows: 'buyer',
    sampleColumn: 'buyer_sales',
    interval: null,
    formula: 'Sum of the credit over the buyer-side sales: 1 per sale, 0.5 when shared with a co-buyer agent.',
  },
  buyer_volume: {
    key: 'buyer_volume',
    label: 'Buyer-side volume',
    side: 'buyer',
    unit: 'usd',
    decimals: 2,
    rows: 'buyer',
    sampleColumn: 'buyer_sales',
    interval: null,
    formula: 'Sum over the buyer-side sales of sale price × credit, each rounded to the cent.',
  },
  buyer_price_min: {
    key: 'buyer_price_min',
    label: 'Lowest buyer-side sale price',
    side: 'buyer',
    unit: 'usd',
    decimals: 2,
    rows: 'buyer',
    sampleColumn: 'buyer_sales',
    interval: null,
    formula: 'The lowest sale price among the buyer-side sales.',
  },
  buyer_price_max: {
    key: 'buyer_price_max',
    label: 'Highest buyer-side sale price',
    side: 'buyer',
    unit: 'usd',
    decimals: 2,
    rows: 'buyer',
    sampleColumn: 'buyer_sales',
    interval: null,
    formula: 'The highest sale price among the buyer-side sales.',
  },
  buyer_paid_to_list_median: {
    key: 'buyer_paid_to_list_median',
    label: 'Buyers paid vs list (median)',
    side: 'buyer',
    unit: 'percent',
    decimals: 2,
    rows: 'buyer-with-list-price',
    sampleColumn: 'buyer_paid_to_list_n',
    interval: {
      low: 'buyer_paid_to_list_median_low',
      high: 'buyer_paid_to_list_median_high',
      method: 'order-statistic',
    },
    formula: `Median of ${percentOfList} over the buyer-side sales with a list price: what the agent's buyers paid against the asking price.`,
  },
  buyer_paid_to_list_mean: {
    key: 'buyer_paid_to_list_mean',
    label: 'Buyers paid vs list (mean)',
    side: 'buyer',
    unit: 'percent',
    decimals: 2,
    rows: 'buyer-with-list-price',
    sampleColumn: 'buyer_paid_to_list_n',
    interval: { low: 'buyer_paid_to_list_mean_low', high: 'buyer_paid_to_list_mean_high', method: 'student-t' },
    formula: `Mean of ${percentOfList} over the buyer-side sales with a list price.`,
  },
  total_sales: {
    key: 'total_sales',
    label: 'Sales (both sides)',
    side: 'total',
    unit: 'sales',
    decimals: 0,
    rows: 'all',
    sampleColumn: null,
    interval: null,
    formula:
      'Number of distinct closed sales in the window where the agent had either side (a dual-agency sale counts once).',
  },
  total_sides: {
    key: 'total_sides',
    label: 'Sides (both sides)',
    side: 'total',
    unit: 'sides',
    decimals: 2,
    rows: 'all',
    sampleColumn: 'total_sales',
    interval: null,
    formula: 'Listing sides + buyer sides: the sum of the credit over every side the agent had.',
  },
  total_volume: {
    key: 'total_volume',
    label: 'Volume (both sides)',
    side: 'total',
    unit: 'usd',
    decimals: 2,
    rows: 'all',
    sampleColumn: 'total_sales',
    interval: null,
    formula:
      'Listing-side volume + buyer-side volume: the sum of sale price × credit over every side, each rounded to the cent.',
  },
  dual_agency_sales: {
    key: 'dual_agency_sales',
    label: 'Dual-agency sales',
    side: 'total',
    unit: 'sales',
    decimals: 0,
    rows: 'dual-agency',
    sampleColumn: null,
    interval: null,
    formula: 'Number of sales where the agent had both the listing side and the buyer side.',
  },
  zip_sides: {
    key: 'zip_sides',
    label: 'Sides in the primary ZIP',
    side: 'zip',
    unit: 'sides',
    decimals: 2,
    rows: 'primary-zip',
    sampleColumn: 'zip_sales',
    interval: null,
    formula:
      'Sum of the credit over every side the agent had in their primary ZIP (the ZIP with most of their sides); the ZIP ranking orders agents by it, ties by volume there.',
  },
  zip_market_share: {
    key: 'zip_market_share',
    label: 'Share of the ZIP’s sides',
    side: 'zip',
    unit: 'percent',
    decimals: 1,
    rows: 'primary-zip',
    sampleColumn: 'zip_sales',
    interval: null,
    formula:
      "Sides in the primary ZIP ÷ (2 × all closed sales in that ZIP in the window) × 100: the agent's share of the ZIP's transaction sides, every sale having two.",
  },
}

/** "too few sales to rank" and why, or null when `n` is enough. */
export function smallSampleNote(n: number, what = 'sales', minimum = MIN_SAMPLE_FOR_RATES): string | null {
  return n >= minimum
    ? null
    : `Too few sales to rank: ${n} ${n === 1 ? what.replace(/s$/, '') : what}, fewer than the ${minimum} needed`
}

/** "Data as of <date> from <sources>, methodology v<N>", the line every page with figures prints. */
export function dataAsOfLine(dataDate: string, sources: readonly string[]): string {
  const from =
    sources.length === 0
      ? ''
      : ` from ${sources.length === 1 ? sources[0] : `${sources.slice(0, -1).join(', ')} and ${sources.at(-1)}`}`
  return `Data as of ${dataDate}${from}, methodology v${METHODOLOGY_VERSION}`
}
