/**
 * Topic discovery from the product's own signals, and the scores of a topic. Pure; the rows come from
 * data.ts (content_search_trends, content_zip_sales_trend, content_report_request_areas, zip_market_benchmarks).
 *
 * Scoring (documented in docs/ai-content.md, "Topic scores"):
 * - search_volume_estimate (0-100) = round(100 x ln(1 + s) / ln(1 + s_max)), where s is the site searches of the
 *   last 30 days that resolved to the topic's ZIP (or city) plus its report requests of the last 90 days, and
 *   s_max the largest such count among all candidate subjects; 0 when nobody searched anything.
 * - strength (0-1) of the market signal: fast market = how far the ZIP's median DOM sits below the slowest ZIP's
 *   (min-max); sale-to-list = |percent - 100| / 5, capped at 1; closed-sales change = |change| / 50 %, capped at 1,
 *   times min(1, sales in both windows / 10); searches and report requests = count / largest count of their kind.
 * - season (0.5 or 1): 1 when the topic's kind is timely in the current season (spring: fast markets and
 *   hot sale-to-list; summer: sales changes and area searches; fall: soft markets and report requests;
 *   winter: soft markets and agent searches).
 * - competition_level: existing topics and posts that name the same ZIP or city: 0 low, 1-2 medium, 3+ high
 *   (factor 1, 0.5, 0).
 * - priority_score = round(100 x (0.4 x volume/100 + 0.4 x strength + 0.1 x season + 0.1 x competition factor)).
 *
 * Privacy rule (issue "signals are sanitized facts"): search and report-request counts only rank candidates; they
 * never appear in a topic, its benefit, its call to action or the evidence a model reads. Visitor free text (the
 * agent location typed into a report request, search queries) is never copied: a report-request area is used only
 * when it names a ZIP or city we hold market data for, and then only by that place's canonical name.
 */
import { formatNumber, formatUsd } from './facts.ts'

export interface SearchTrendRow {
  kind: string
  label: string
  zip_code: string | null
  city: string | null
  state: string | null
  recent_searches: number
  prior_searches: number
}

export interface BenchmarkRow {
  zip_code: string
  city: string | null
  state: string | null
  period_end: string
  median_sale_price: number | null
  median_list_price: number | null
  avg_sale_to_list_percent: number | null
  sold_above_list_fraction: number | null
  median_dom: number | null
  homes_sold: number | null
  attribution: string
}

export interface SalesTrendRow {
  zip_code: string
  city: string | null
  state: string | null
  window_end: string
  recent_sales: number
  prior_sales: number
  recent_median_price: number | null
  prior_median_price: number | null
  recent_median_dom: number | null
  recent_avg_sale_to_list: number | null
}

export interface ReportAreaRow {
  agent_location: string
  requests: number
}

export interface SignalInput {
  now: Date
  searches: SearchTrendRow[]
  benchmarks: BenchmarkRow[]
  sales: SalesTrendRow[]
  reportAreas: ReportAreaRow[]
  /** Titles and locations of existing topics and posts, for competition_level. */
  coverage: string[]
}

export type SignalKind =
  | 'search-area'
  | 'search-agent'
  | 'fast-market'
  | 'hot-sale-to-list'
  | 'soft-sale-to-list'
  | 'sales-change'
  | 'report-requests'
export type Season = 'spring' | 'summer' | 'fall' | 'winter'

/** A ranked topic candidate: the signal, its figures in words, and the row discovery would insert. */
export interface TopicCandidate {
  /** Stable id the model cites, e.g. 'fast-market:78704'. */
  signalId: string
  kind: SignalKind
  /** One sentence with the signal's figures and period, for the model prompt. */
  evidence: string
  topic: string
  location: string
  hack_type: string
  consumer_benefit: string
  suggested_cta: string
  priority_score: number
  search_volume_estimate: number
  competition_level: 'low' | 'medium' | 'high'
}

/** Meteorological season of a date in the US (northern hemisphere): Mar-May spring, Jun-Aug summer, ... */
export function seasonOf(date: Date): Season {
  const month = date.getUTCMonth()
  if (month >= 2 && month <= 4) return 'spring'
  if (month >= 5 && month <= 7) return 'summer'
  if (month >= 8 && month <= 10) return 'fall'
  return 'winter'
}

const TIMELY: Record<Season, SignalKind[]> = {
  spring: ['fast-market', 'hot-sale-to-list'],
  summer: ['sales-change', 'search-area'],
  fall: ['soft-sale-to-list', 'report-requests'],
  winter: ['soft-sale-to-list', 'search-agent'],
}

export interface Subject {
  zip?: string
  city?: string | null
  state?: string | null
}

function place(subject: Subject): string {
  const cityState = subject.city ? `${subject.city}${subject.state ? `, ${subject.state}` : ''}` : ''
  if (subject.zip) return cityState ? `${subject.zip} (${cityState})` : subject.zip
  return cityState
}

/** trending_topics.location: "Austin, TX 78704", the city alone, or the ZIP alone. */
function storedLocation(subject: Subject): string {
  const cityState = subject.city ? `${subject.city}${subject.state ? `, ${subject.state}` : ''}` : ''
  return [cityState, subject.zip].filter(Boolean).join(' ') || 'general'
}

function mentions(text: string, subject: Subject): boolean {
  const lower = text.toLowerCase()
  if (subject.zip && new RegExp(`(?<!\\d)${subject.zip}(?!\\d)`).test(text)) return true
  return Boolean(subject.city && lower.includes(subject.city.toLowerCase()))
}

/** True when a free-text location ("78704", "Austin", "Austin, TX") names the subject; 'general' names all. */
export function locationMatches(location: string, subject: Subject): boolean {
  const wanted = location.trim().toLowerCase()
  if (wanted === '' || wanted === 'general') return true
  const zip = /(?<!\d)\d{5}(?!\d)/.exec(wanted)?.[0]
  if (zip) return subject.zip === zip
  const city = wanted.split(',')[0]!.trim()
  return Boolean(subject.city && subject.city.toLowerCase() === city)
}

const clamp01 = (value: number) => Math.max(0, Math.min(1, value))

/** A place we hold market data for: a ZIP with its city and state, as the data names them. */
export interface KnownArea {
  zip: string
  city: string | null
  state: string | null
}

/** The ZIPs (and their cities) of the benchmarks, closed sales and resolved area searches. */
export function knownAreasOf(input: Pick<SignalInput, 'benchmarks' | 'sales' | 'searches'>): KnownArea[] {
  const areas = new Map<string, KnownArea>()
  const add = (zip: string | null, city: string | null, state: string | null) => {
    if (!zip) return
    const known = areas.get(zip)
    if (!known) areas.set(zip, { zip, city, state })
    else if (!known.city && city) areas.set(zip, { zip, city, state })
  }
  for (const row of input.benchmarks) add(row.zip_code, row.city, row.state)
  for (const row of input.sales) add(row.zip_code, row.city, row.state)
  for (const row of input.searches) if (row.kind === 'area') add(row.zip_code, row.city, row.state)
  return [...areas.values()]
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Matches visitor free text (a report request's agent location) to a known place: a known ZIP it contains, else a
 * known city it names as whole words (with a ", XX" state, the state must match too). Returns the canonical
 * subject taken from our data, never from the text; null when nothing known is named.
 */
export function matchKnownArea(text: string, areas: KnownArea[]): Subject | null {
  for (const match of text.matchAll(/(?<!\d)\d{5}(?!\d)/g)) {
    const area = areas.find((candidate) => candidate.zip === match[0])
    if (area) return { zip: area.zip, city: area.city, state: area.state }
  }
  const lower = text.toLowerCase()
  const state = /,\s*([a-z]{2})\b/.exec(lower)?.[1]?.toUpperCase()
  const cities = [...new Set(areas.map((area) => area.city).filter((city): city is string => Boolean(city)))].sort(
    (a, b) => b.length - a.length,
  )
  for (const city of cities) {
    if (!new RegExp(`(^|[^a-z])${escapeRegExp(city.toLowerCase())}([^a-z]|$)`).test(lower)) continue
    const inCity = areas.filter((area) => area.city === city && (!state || area.state === state))
    if (inCity.length === 0) continue
    return { city, state: inCity[0]!.state }
  }
  return null
}

/** Ranks the signals into topic candidates, best first (see module doc for the scores). */
export function rankTopicCandidates(input: SignalInput, location = 'general'): TopicCandidate[] {
  const season = seasonOf(input.now)
  const areaSearches = input.searches.filter((row) => row.kind === 'area')
  const agentSearches = input.searches.filter((row) => row.kind === 'agent')

  const searchesFor = (subject: Subject): number => {
    let total = 0
    for (const row of areaSearches) {
      if (
        (subject.zip && row.zip_code === subject.zip) ||
        (!subject.zip && subject.city && row.city?.toLowerCase() === subject.city.toLowerCase())
      ) {
        total += row.recent_searches
      }
    }
    for (const row of input.reportAreas) if (mentions(row.agent_location, subject)) total += row.requests
    return total
  }

  type Draft = Omit<TopicCandidate, 'priority_score' | 'search_volume_estimate' | 'competition_level'> & {
    subject: Subject
    strength: number
  }
  const drafts: Draft[] = []

  const maxAreaSearches = Math.max(0, ...areaSearches.map((row) => row.recent_searches))
  for (const row of areaSearches.filter((row) => row.zip_code)) {
    const subject = { zip: row.zip_code!, city: row.city, state: row.state }
    const benchmark = input.benchmarks.find((b) => b.zip_code === row.zip_code)
    // A searched ZIP without market figures gives the writer nothing true to say: no topic.
    if (!benchmark) continue
    drafts.push({
      signalId: `search-area:${row.zip_code}`,
      kind: 'search-area',
      subject,
      strength: maxAreaSearches > 0 ? row.recent_searches / maxAreaSearches : 0,
      evidence:
        `${place(subject)} is among the areas visitors searched for on the site in the last 30 days` +
        (benchmark.median_dom != null
          ? `; Redfin median days on market ${formatNumber(benchmark.median_dom)} (period ending ${benchmark.period_end})`
          : ''),
      topic:
        benchmark.median_dom != null
          ? `Why buyers are looking at ${place(subject)}: a ${formatNumber(benchmark.median_dom)}-day median sale and what it means for offers`
          : `What buyers looking at ${place(subject)} should know first`,
      location: storedLocation(subject),
      hack_type: 'market-insight',
      consumer_benefit: `Buyers see how competitive ${place(subject)} is before they tour, so they can set a realistic budget and timeline.`,
      suggested_cta: `See the top agents in ${row.zip_code}`,
    })
  }

  const totalAgentSearches = agentSearches.reduce((sum, row) => sum + row.recent_searches, 0)
  if (totalAgentSearches > 0) {
    drafts.push({
      signalId: 'search-agent:all',
      kind: 'search-agent',
      subject: {},
      strength: 0.6,
      evidence: 'Visitors searched for agents by name on the site in the last 30 days',
      topic: 'How to compare real estate agents by sale-to-list ratio and days on market',
      location: 'general',
      hack_type: 'agent-selection',
      consumer_benefit:
        'Sellers learn which two figures separate a strong listing agent from an average one before they sign.',
      suggested_cta: 'Search an agent by name and compare their record',
    })
  }

  const withDom = input.benchmarks.filter((b) => b.median_dom != null && (b.homes_sold ?? 0) >= 3)
  const doms = withDom.map((b) => b.median_dom!)
  const minDom = Math.min(...doms)
  const maxDom = Math.max(...doms)
  for (const benchmark of input.benchmarks) {
    const subject = { zip: benchmark.zip_code, city: benchmark.city, state: benchmark.state }
    const period = `period ending ${benchmark.period_end}`
    if (benchmark.median_dom != null && (benchmark.homes_sold ?? 0) >= 3 && doms.length > 0) {
      const strength = maxDom === minDom ? 0.5 : (maxDom - benchmark.median_dom) / (maxDom - minDom)
      drafts.push({
        signalId: `fast-market:${benchmark.zip_code}`,
        kind: 'fast-market',
        subject,
        strength,
        evidence: `Redfin median days on market in ${place(subject)}: ${formatNumber(benchmark.median_dom)} (${period}; ${benchmark.homes_sold} homes sold)`,
        topic: `Homes in ${place(subject)} sell in a median ${formatNumber(benchmark.median_dom)} days: how sellers should price from day one`,
        location: storedLocation(subject),
        hack_type: 'pricing',
        consumer_benefit: `Sellers in ${place(subject)} learn how fast homes go under contract and how to price so theirs does not sit.`,
        suggested_cta: `Compare the fastest-selling agents in ${benchmark.zip_code}`,
      })
    }
    const percent = benchmark.avg_sale_to_list_percent
    if (percent != null && percent !== 100) {
      const hot = percent > 100
      drafts.push({
        signalId: `${hot ? 'hot' : 'soft'}-sale-to-list:${benchmark.zip_code}`,
        kind: hot ? 'hot-sale-to-list' : 'soft-sale-to-list',
        subject,
        strength: clamp01(Math.abs(percent - 100) / 5),
        evidence:
          `Redfin average sale-to-list in ${place(subject)}: ${formatNumber(percent)}% (${period})` +
          (benchmark.median_sale_price != null ? `; median sale price ${formatUsd(benchmark.median_sale_price)}` : ''),
        topic: hot
          ? `Homes in ${place(subject)} sell at ${formatNumber(percent)}% of list: how buyers can still win an offer`
          : `Sellers in ${place(subject)} get ${formatNumber(percent)}% of list: where buyers have room to negotiate`,
        location: storedLocation(subject),
        hack_type: 'negotiation',
        consumer_benefit: hot
          ? `Buyers learn how far above asking local offers go and how to write one that wins without overpaying.`
          : `Buyers learn how much room sellers in ${place(subject)} usually give and how to ask for it.`,
        suggested_cta: `Find agents with the best sale-to-list record in ${benchmark.zip_code}`,
      })
    }
  }

  for (const row of input.sales) {
    if (row.prior_sales <= 0 || row.recent_sales + row.prior_sales < 4) continue
    const change = ((row.recent_sales - row.prior_sales) / row.prior_sales) * 100
    if (Math.abs(change) < 10) continue
    const subject = { zip: row.zip_code, city: row.city, state: row.state }
    const up = change > 0
    drafts.push({
      signalId: `sales-change:${row.zip_code}`,
      kind: 'sales-change',
      subject,
      strength: clamp01(Math.abs(change) / 50) * clamp01((row.recent_sales + row.prior_sales) / 10),
      evidence: `Closed sales in ${place(subject)}: ${row.recent_sales} in the 90 days to ${row.window_end} vs ${row.prior_sales} in the 90 days before (${up ? '+' : '-'}${formatNumber(Math.abs(change))}%)`,
      topic: `Closed sales in ${place(subject)} ${up ? 'up' : 'down'} ${formatNumber(Math.abs(change))}% in 90 days: what it means for ${season} ${up ? 'sellers' : 'buyers'}`,
      location: storedLocation(subject),
      hack_type: 'timing',
      consumer_benefit: up
        ? `Sellers see whether demand in ${place(subject)} is picking up and when to list.`
        : `Buyers see whether ${place(subject)} is cooling and how to time an offer.`,
      suggested_cta: `See who is closing the most sales in ${row.zip_code}`,
    })
  }

  // Report requests: the visitor's location text only picks a known place; the count only ranks (module doc).
  const knownAreas = knownAreasOf(input)
  const requestsByArea = new Map<string, { subject: Subject; requests: number }>()
  for (const row of input.reportAreas) {
    const subject = matchKnownArea(row.agent_location, knownAreas)
    if (!subject) continue
    const key = subject.zip ?? `${subject.city?.toLowerCase()}|${subject.state ?? ''}`
    const entry = requestsByArea.get(key) ?? { subject, requests: 0 }
    entry.requests += row.requests
    requestsByArea.set(key, entry)
  }
  const maxRequests = Math.max(0, ...[...requestsByArea.values()].map((entry) => entry.requests))
  for (const [key, { subject, requests }] of requestsByArea) {
    drafts.push({
      signalId: `report-requests:${key}`,
      kind: 'report-requests',
      subject,
      strength: maxRequests > 0 ? requests / maxRequests : 0,
      evidence: `Visitors asked for agent reports about agents in ${place(subject)} in the last 90 days`,
      topic: `How to vet an agent's sale-to-list record in ${place(subject)}`,
      location: storedLocation(subject),
      hack_type: 'agent-selection',
      consumer_benefit: `Sellers in ${place(subject)} learn what to ask for in an agent report and which figures matter.`,
      suggested_cta: `Request a free agent report for ${place(subject)}`,
    })
  }

  const volumes = drafts.map((draft) =>
    draft.kind === 'search-agent' ? totalAgentSearches : searchesFor(draft.subject),
  )
  const maxVolume = Math.max(0, ...volumes)
  const candidates = drafts
    .map((draft, index) => {
      const volume = maxVolume > 0 ? Math.round((100 * Math.log1p(volumes[index]!)) / Math.log1p(maxVolume)) : 0
      const coverage =
        draft.subject.zip || draft.subject.city
          ? input.coverage.filter((text) => mentions(text, draft.subject)).length
          : 0
      const competition = coverage === 0 ? 'low' : coverage <= 2 ? 'medium' : 'high'
      const competitionFactor = { low: 1, medium: 0.5, high: 0 }[competition]
      const seasonal = TIMELY[season].includes(draft.kind) ? 1 : 0.5
      const priority = Math.round(
        100 * (0.4 * (volume / 100) + 0.4 * clamp01(draft.strength) + 0.1 * seasonal + 0.1 * competitionFactor),
      )
      const { subject, strength: _strength, ...rest } = draft
      return {
        candidate: {
          ...rest,
          priority_score: priority,
          search_volume_estimate: volume,
          competition_level: competition,
        } as TopicCandidate,
        subject,
      }
    })
    .filter(({ subject, candidate }) =>
      candidate.kind === 'search-agent'
        ? location.trim().toLowerCase() === 'general' || location.trim() === ''
        : locationMatches(location, subject),
    )
  return candidates
    .map(({ candidate }) => candidate)
    .sort((a, b) => b.priority_score - a.priority_score || a.signalId.localeCompare(b.signalId))
}
