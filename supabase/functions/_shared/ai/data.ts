/**
 * The data queries of the content functions (service-role client; callers have been checked as admins) and the
 * pure step that turns query rows into a FactSheet. Every figure a writer may print comes from here.
 */
import { z } from 'zod'

import type { Db } from '../supabase.ts'
import type { Fact, FactSheet } from './facts.ts'
import type { BenchmarkRow, ReportAreaRow, SalesTrendRow, SearchTrendRow, SignalInput } from './signals.ts'

/** Closed-sales window of content_zip_sales_trend, in days. */
export const SALES_WINDOW_DAYS = 90
export const SALES_SOURCE = 'AgentInsight closed sales (MLS and public records on this site)'

const num = z.coerce.number()
const numOrNull = z.union([z.null(), z.coerce.number()])
const text = z.string()
const textOrNull = z.string().nullable()

const SearchRowSchema = z.object({
  kind: text,
  label: text,
  zip_code: textOrNull,
  city: textOrNull,
  state: textOrNull,
  recent_searches: num,
  prior_searches: num,
})
/** The place columns every per-ZIP row starts with, and the row's date (YYYY-MM-DD) under its own name. */
const place = { zip_code: text, city: textOrNull, state: textOrNull }
const day = z.string().transform((value) => value.slice(0, 10))
const BenchmarkRowSchema = z.object({
  ...place,
  period_end: day,
  median_sale_price: numOrNull,
  median_list_price: numOrNull,
  avg_sale_to_list_percent: numOrNull,
  sold_above_list_fraction: numOrNull,
  median_dom: numOrNull,
  homes_sold: numOrNull,
  attribution: text,
})
const SalesRowSchema = z.object({
  ...place,
  window_end: day,
  recent_sales: num,
  prior_sales: num,
  recent_median_price: numOrNull,
  prior_median_price: numOrNull,
  recent_median_dom: numOrNull,
  recent_avg_sale_to_list: numOrNull,
})
const ReportRowSchema = z.object({ agent_location: text, requests: num })

const BENCHMARK_COLUMNS =
  'zip_code, city, state, period_end, median_sale_price, median_list_price, avg_sale_to_list_percent, sold_above_list_fraction, median_dom, homes_sold, attribution'

function check<T>(result: { data: T | null; error: { message: string } | null }, what: string): T {
  if (result.error) throw new Error(`Could not read ${what}: ${result.error.message}`)
  return result.data as T
}

/** Everything topic discovery ranks: searches, benchmarks, sales trend, report requests, existing coverage. */
export async function loadSignalInput(db: Db, now: Date, existingTitles: string[]): Promise<SignalInput> {
  const [searches, benchmarks, sales, reports] = await Promise.all([
    db.rpc('content_search_trends', { p_days: 30 }),
    db
      .from('zip_market_benchmarks')
      .select(BENCHMARK_COLUMNS)
      .order('homes_sold', { ascending: false, nullsFirst: false })
      .limit(1000),
    db.rpc('content_zip_sales_trend', { p_window_days: SALES_WINDOW_DAYS }),
    db.rpc('content_report_request_areas', { p_days: 90 }),
  ])
  return {
    now,
    searches: z.array(SearchRowSchema).parse(check(searches, 'site searches')) satisfies SearchTrendRow[],
    benchmarks: z.array(BenchmarkRowSchema).parse(check(benchmarks, 'ZIP market benchmarks')) satisfies BenchmarkRow[],
    sales: z.array(SalesRowSchema).parse(check(sales, 'closed sales')) satisfies SalesTrendRow[],
    reportAreas: z.array(ReportRowSchema).parse(check(reports, 'report requests')) satisfies ReportAreaRow[],
    coverage: existingTitles,
  }
}

/** Topics already in the queue (any status) and published post titles: the near-duplicate reference list. */
export async function loadExistingTitles(db: Db): Promise<{ topics: string[]; posts: string[] }> {
  const [topics, posts] = await Promise.all([
    db.from('trending_topics').select('topic, location').order('created_at', { ascending: false }).limit(5000),
    db.from('blog_posts').select('title').eq('status', 'published').limit(5000),
  ])
  return {
    topics: check(topics, 'trending topics').map((row: { topic: string }) => row.topic),
    posts: check(posts, 'published posts').map((row: { title: string }) => row.title),
  }
}

const ZIP_PATTERN = /(?<!\d)\d{5}(?!\d)/g

/**
 * Finds the ZIPs an article is about: ZIPs named in the location, else in the topic text, else the ZIPs of a city
 * named in the location ("Austin, TX") or in the topic text. Only ZIPs with benchmark or sales data count.
 * Returns at most 5 ZIPs, the busiest first.
 */
export async function resolveZipCodes(db: Db, location: string | null, topicText: string): Promise<string[]> {
  const named = [
    ...new Set([...(location ?? '').matchAll(ZIP_PATTERN), ...topicText.matchAll(ZIP_PATTERN)].map((m) => m[0])),
  ]
  const [benchmarkResult, salesResult] = await Promise.all([
    db
      .from('zip_market_benchmarks')
      .select('zip_code, city, state, homes_sold')
      .order('homes_sold', { ascending: false, nullsFirst: false })
      .limit(5000),
    db.rpc('content_zip_sales_trend', { p_window_days: SALES_WINDOW_DAYS }),
  ])
  const areas = [
    ...z
      .array(z.object({ zip_code: text, city: textOrNull, state: textOrNull }))
      .parse(check(benchmarkResult, 'ZIP market benchmarks')),
    ...z
      .array(z.object({ zip_code: text, city: textOrNull, state: textOrNull }))
      .parse(check(salesResult, 'closed sales')),
  ]
  const known = new Set(areas.map((area) => area.zip_code))
  const zips = named.filter((zip) => known.has(zip))
  if (zips.length > 0) return zips.slice(0, 5)

  const cities = [...new Set(areas.filter((area) => area.city).map((area) => area.city!))].sort(
    (a, b) => b.length - a.length,
  )
  const haystacks = [location ?? '', topicText].map((value) => value.toLowerCase())
  for (const haystack of haystacks) {
    const city = cities.find((name) =>
      new RegExp(`(^|[^a-z])${name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^a-z]|$)`).test(haystack),
    )
    if (!city) continue
    const state = /,\s*([a-z]{2})\b/.exec(haystack)?.[1]?.toUpperCase()
    const inCity = areas
      .filter((area) => area.city === city && (!state || area.state === state))
      .map((area) => area.zip_code)
    return [...new Set(inCity)].slice(0, 5)
  }
  return []
}

/** Benchmarks and closed-sales trend for the ZIPs, as a FactSheet (null when there is no row at all). */
export async function loadFactSheet(db: Db, zipCodes: string[]): Promise<FactSheet | null> {
  if (zipCodes.length === 0) return null
  const [benchmarks, sales] = await Promise.all([
    db.from('zip_market_benchmarks').select(BENCHMARK_COLUMNS).in('zip_code', zipCodes),
    db.rpc('content_zip_sales_trend', { p_zip_codes: zipCodes, p_window_days: SALES_WINDOW_DAYS }),
  ])
  return buildFactSheet(
    z.array(BenchmarkRowSchema).parse(check(benchmarks, 'ZIP market benchmarks')),
    z.array(SalesRowSchema).parse(check(sales, 'closed sales')),
  )
}

function isoMinusDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() - days)
  return date.toISOString().slice(0, 10)
}

const round1 = (value: number) => Math.round(value * 10) / 10

/**
 * Facts from benchmark and sales rows (pure). Per benchmark: median sale and list price, average sale-to-list
 * percent and its distance from 100, share sold above list (percent), median DOM, homes sold. Per sales row:
 * closed sales in the last 90 days of data and the 90 before, their change in percent, median prices, median DOM
 * and average sale-to-list. Null figures are left out. Returns null when no figure remains.
 */
export function buildFactSheet(benchmarks: BenchmarkRow[], sales: SalesTrendRow[]): FactSheet | null {
  const facts: Fact[] = []
  const periodDates = new Set<string>()
  const attributions = new Set<string>()
  const zipCodes = new Set<string>()
  const places = new Map<string, string>()
  const add = (fact: Fact, value: number | null) => {
    if (value === null || !Number.isFinite(value)) return
    facts.push({ ...fact, value })
  }

  for (const row of benchmarks) {
    const zip = row.zip_code
    zipCodes.add(zip)
    places.set(zip, row.city ? `${row.city}${row.state ? `, ${row.state}` : ''}` : '')
    periodDates.add(row.period_end)
    attributions.add(row.attribution)
    const base = { period: `month ending ${row.period_end}`, source: row.attribution, zipCode: zip }
    add(
      {
        ...base,
        key: `benchmark:${zip}:median_sale_price`,
        label: `Median sale price in ${zip}`,
        unit: 'usd',
        value: 0,
      },
      row.median_sale_price,
    )
    add(
      {
        ...base,
        key: `benchmark:${zip}:median_list_price`,
        label: `Median list price in ${zip}`,
        unit: 'usd',
        value: 0,
      },
      row.median_list_price,
    )
    add(
      {
        ...base,
        key: `benchmark:${zip}:sale_to_list`,
        label: `Average sale-to-list ratio in ${zip}`,
        unit: 'percent',
        value: 0,
      },
      row.avg_sale_to_list_percent,
    )
    add(
      {
        ...base,
        key: `benchmark:${zip}:sale_to_list_gap`,
        label: `Points ${row.avg_sale_to_list_percent !== null && row.avg_sale_to_list_percent >= 100 ? 'above' : 'below'} list price in ${zip}`,
        unit: 'percent',
        value: 0,
      },
      row.avg_sale_to_list_percent === null ? null : round1(Math.abs(row.avg_sale_to_list_percent - 100)),
    )
    add(
      {
        ...base,
        key: `benchmark:${zip}:sold_above_list`,
        label: `Share of homes sold above list in ${zip}`,
        unit: 'percent',
        value: 0,
      },
      row.sold_above_list_fraction === null ? null : round1(row.sold_above_list_fraction * 100),
    )
    add(
      { ...base, key: `benchmark:${zip}:median_dom`, label: `Median days on market in ${zip}`, unit: 'days', value: 0 },
      row.median_dom,
    )
    add(
      { ...base, key: `benchmark:${zip}:homes_sold`, label: `Homes sold in ${zip}`, unit: 'count', value: 0 },
      row.homes_sold,
    )
  }

  for (const row of sales) {
    const zip = row.zip_code
    if (row.recent_sales + row.prior_sales === 0) continue
    zipCodes.add(zip)
    if (!places.get(zip)) places.set(zip, row.city ? `${row.city}${row.state ? `, ${row.state}` : ''}` : '')
    const start = isoMinusDays(row.window_end, SALES_WINDOW_DAYS - 1)
    const priorEnd = isoMinusDays(row.window_end, SALES_WINDOW_DAYS)
    const priorStart = isoMinusDays(row.window_end, 2 * SALES_WINDOW_DAYS - 1)
    for (const date of [row.window_end, start, priorEnd, priorStart]) periodDates.add(date)
    const recent = { period: `${start} to ${row.window_end}`, source: SALES_SOURCE, zipCode: zip }
    const prior = { period: `${priorStart} to ${priorEnd}`, source: SALES_SOURCE, zipCode: zip }
    add(
      {
        ...recent,
        key: `sales:${zip}:window_days`,
        label: 'Days in each closed-sales window',
        unit: 'count',
        value: 0,
      },
      SALES_WINDOW_DAYS,
    )
    add(
      {
        ...recent,
        key: `sales:${zip}:recent_sales`,
        label: `Closed sales in ${zip}, last ${SALES_WINDOW_DAYS} days`,
        unit: 'count',
        value: 0,
      },
      row.recent_sales,
    )
    add(
      {
        ...prior,
        key: `sales:${zip}:prior_sales`,
        label: `Closed sales in ${zip}, the ${SALES_WINDOW_DAYS} days before`,
        unit: 'count',
        value: 0,
      },
      row.prior_sales,
    )
    if (row.prior_sales > 0) {
      add(
        {
          ...recent,
          key: `sales:${zip}:sales_change`,
          label: `Change in closed sales in ${zip}`,
          unit: 'percent',
          value: 0,
        },
        round1(((row.recent_sales - row.prior_sales) / row.prior_sales) * 100),
      )
    }
    add(
      {
        ...recent,
        key: `sales:${zip}:recent_median_price`,
        label: `Median closed price in ${zip}, last ${SALES_WINDOW_DAYS} days`,
        unit: 'usd',
        value: 0,
      },
      row.recent_median_price,
    )
    add(
      {
        ...prior,
        key: `sales:${zip}:prior_median_price`,
        label: `Median closed price in ${zip}, the ${SALES_WINDOW_DAYS} days before`,
        unit: 'usd',
        value: 0,
      },
      row.prior_median_price,
    )
    add(
      {
        ...recent,
        key: `sales:${zip}:recent_median_dom`,
        label: `Median days on market of closed sales in ${zip}`,
        unit: 'days',
        value: 0,
      },
      row.recent_median_dom,
    )
    add(
      {
        ...recent,
        key: `sales:${zip}:recent_sale_to_list`,
        label: `Average sale-to-list of closed sales in ${zip}`,
        unit: 'percent',
        value: 0,
      },
      row.recent_avg_sale_to_list,
    )
  }

  if (facts.length === 0) return null
  const zips = [...zipCodes]
  const cities = [...new Set(zips.map((zip) => places.get(zip)).filter(Boolean))]
  const location =
    zips.length === 1
      ? `${zips[0]}${places.get(zips[0]!) ? ` (${places.get(zips[0]!)})` : ''}`
      : `${cities.length === 1 ? `${cities[0]} ` : ''}ZIPs ${zips.join(', ')}`
  return {
    mode: 'local',
    location,
    zipCodes: zips,
    facts,
    periodDates: [...periodDates],
    attributions: [...attributions],
  }
}

/** `base`, or `base-2`, `base-3`, ... : the first slug no post uses (blog_posts.slug is unique). */
export async function uniqueSlug(db: Db, base: string): Promise<string> {
  const { data, error } = await db.from('blog_posts').select('slug').like('slug', `${base}%`).limit(1000)
  if (error) throw new Error(`Could not read post slugs: ${error.message}`)
  const taken = new Set((data as { slug: string }[]).map((row) => row.slug))
  if (!taken.has(base)) return base
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
}

const OverviewRowSchema = z.object({
  window_end: z.string().transform((value) => value.slice(0, 10)),
  recent_sales: num,
  prior_sales: num,
  zip_codes: num,
  recent_median_price: numOrNull,
  recent_median_dom: numOrNull,
  recent_avg_sale_to_list: numOrNull,
})
export type SalesOverviewRow = z.infer<typeof OverviewRowSchema>

/** The place words of an evergreen article: it names no ZIP or city. */
export const EVERGREEN_LOCATION = 'all closed sales recorded on AgentInsight'

/** Evergreen facts (no place): the site-wide closed-sales aggregate of content_sales_overview; never null. */
export async function loadEvergreenSheet(db: Db): Promise<FactSheet> {
  const result = await db.rpc('content_sales_overview', { p_window_days: SALES_WINDOW_DAYS })
  return buildEvergreenSheet(z.array(OverviewRowSchema).parse(check(result, 'closed sales overview'))[0] ?? null)
}

/**
 * Evergreen fact sheet (pure) from the site-wide closed-sales aggregate: closed sales in the last 90 days of data,
 * ZIPs they cover, median price, median DOM, average sale-to-list; no facts at all without a row (a guide without
 * figures is fine). `mode` is 'evergreen' and zipCodes is empty.
 */
export function buildEvergreenSheet(row: SalesOverviewRow | null): FactSheet {
  const sheet: FactSheet = {
    mode: 'evergreen',
    location: EVERGREEN_LOCATION,
    zipCodes: [],
    facts: [],
    periodDates: [],
    attributions: [],
  }
  if (!row || row.recent_sales <= 0) return sheet
  const start = isoMinusDays(row.window_end, SALES_WINDOW_DAYS - 1)
  sheet.periodDates.push(row.window_end, start)
  const base = { period: `${start} to ${row.window_end}`, source: SALES_SOURCE }
  const add = (fact: Fact, value: number | null) => {
    if (value !== null && Number.isFinite(value)) sheet.facts.push({ ...fact, value })
  }
  add(
    { ...base, key: 'overview:window_days', label: 'Days in the closed-sales window', unit: 'count', value: 0 },
    SALES_WINDOW_DAYS,
  )
  add(
    {
      ...base,
      key: 'overview:recent_sales',
      label: `Closed sales on AgentInsight, last ${SALES_WINDOW_DAYS} days of data`,
      unit: 'count',
      value: 0,
    },
    row.recent_sales,
  )
  add(
    {
      ...base,
      key: 'overview:zip_codes',
      label: 'ZIP codes with closed sales in that window',
      unit: 'count',
      value: 0,
    },
    row.zip_codes,
  )
  add(
    {
      ...base,
      key: 'overview:recent_median_price',
      label: 'Median closed price, all closed sales',
      unit: 'usd',
      value: 0,
    },
    row.recent_median_price,
  )
  add(
    {
      ...base,
      key: 'overview:recent_median_dom',
      label: 'Median days on market, all closed sales',
      unit: 'days',
      value: 0,
    },
    row.recent_median_dom,
  )
  add(
    {
      ...base,
      key: 'overview:recent_sale_to_list',
      label: 'Average sale-to-list, all closed sales',
      unit: 'percent',
      value: 0,
    },
    row.recent_avg_sale_to_list,
  )
  return sheet
}
