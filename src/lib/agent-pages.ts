/**
 * Build-time data of the prerendered agent pages (/agent/<id>), ZIP pages (/agents/<zip>) and city pages
 * (/agents/<state>/<city>), read with the anon key: agents, ZIP benchmarks and ZIP rankings in pages of 1,000 rows,
 * and each agent's recent sales and sales per quarter through the same bounded, per-agent functions the profile
 * island uses (public.agent_page_sales and public.agent_page_quarters, AGENTS_PER_CALL agents a call; listing rows
 * themselves are not readable anonymously). Cached per build so every page, getStaticPaths and the sitemap share one
 * read. Throws when a read fails, so a broken build never ships pages without figures.
 */
import { slugify } from '@shared/slug.ts'
import { agentUrl, cityUrl, zipUrl } from '@shared/urls.ts'
import {
  RECENT_SALES_LIMIT,
  isSyntheticAgent,
  type AgentProfile,
  type AgentRow,
  type BenchmarkRow,
  type QuarterSales,
  type RecentSale,
} from './agent-profile'
import { readAll } from './read-all'
import { supabase } from './supabase'

/** Agents per call of agent_page_sales / agent_page_quarters (their limit: 100 agents, so at most 1,000 rows). */
const AGENTS_PER_CALL = 100
/** Calls in flight at once while the build reads every agent's sales. */
const CONCURRENT_CALLS = 4

/** Runs `read` for every chunk of `ids`, CONCURRENT_CALLS at a time, and concatenates the rows in chunk order. */
async function readPerAgent<T>(
  what: string,
  ids: readonly string[],
  read: (chunk: string[]) => PromiseLike<{ data: T[] | null; error: { message: string } | null }>,
): Promise<T[]> {
  const chunks: string[][] = []
  for (let index = 0; index < ids.length; index += AGENTS_PER_CALL)
    chunks.push(ids.slice(index, index + AGENTS_PER_CALL))
  const results: T[][] = new Array(chunks.length)
  let next = 0
  const worker = async () => {
    while (next < chunks.length) {
      const index = next++
      const { data, error } = await read(chunks[index]!)
      if (error) throw new Error(`Could not load ${what}: ${error.message}`)
      results[index] = data ?? []
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_CALLS, chunks.length) }, worker))
  return results.flat()
}

/** One ranked agent of a ZIP or city page. */
export interface RankedAgent {
  agent: AgentRow
  /** Closed sales in the ZIP (or the city's ZIPs) in the metrics window. */
  closedSales: number
  /** Their ClosePrice sum, USD. */
  salesVolume: number
}

/** A ZIP landing page: `/agents/<zip>`. */
export interface ZipPage {
  zip: string
  city: string | null
  state: string | null
  benchmark: BenchmarkRow | null
  /** By closed sales in the ZIP, then volume, then name. */
  agents: RankedAgent[]
}

/** A city landing page: `/agents/<state>/<city>` (state lower-case, city slug). */
export interface CityPage {
  state: string
  city: string
  stateSlug: string
  citySlug: string
  zips: ZipPage[]
  agents: RankedAgent[]
}

export interface SiteAgentData {
  /** Every agent with at least one closed sale in the window, by id. */
  profiles: AgentProfile[]
  zips: ZipPage[]
  cities: CityPage[]
}

let dataPromise: Promise<SiteAgentData> | undefined

/** Loads (once per build) every agent page, ZIP page and city page. @throws when a read fails. */
export function loadSiteAgentData(): Promise<SiteAgentData> {
  dataPromise ??= (async () => {
    const agents = await readAll('agents', (from, to) =>
      supabase.from('agents').select('*').gt('total_sales', 0).order('id').range(from, to),
    )
    const ids = agents.map((agent) => agent.id)
    const [sales, quarters, benchmarks, zipSales] = await Promise.all([
      readPerAgent('recent sales', ids, (chunk) =>
        supabase.rpc('agent_page_sales', { agent_ids: chunk, max_per_agent: RECENT_SALES_LIMIT }),
      ),
      readPerAgent('quarterly sales', ids, (chunk) => supabase.rpc('agent_page_quarters', { agent_ids: chunk })),
      readAll('ZIP benchmarks', (from, to) =>
        supabase.from('zip_market_benchmarks').select('*').order('zip_code').range(from, to),
      ),
      readAll('agent ZIP sales', (from, to) =>
        supabase.from('agent_zip_sales').select('*').order('zip_code').order('agent_id').range(from, to),
      ),
    ])
    return assembleSiteAgentData(agents, sales, quarters, benchmarks, zipSales)
  })()
  return dataPromise
}

type SaleRow = RecentSale & { agent_id: string }
type QuarterRow = QuarterSales & { agent_id: string }
type ZipSalesRow = { zip_code: string; agent_id: string; closed_sales: number; sales_volume: number }

const groupBy = <T, K>(rows: readonly T[], key: (row: T) => K) => {
  const groups = new Map<K, T[]>()
  for (const row of rows) {
    const k = key(row)
    const list = groups.get(k)
    if (list) list.push(row)
    else groups.set(k, [row])
  }
  return groups
}

const byRank = (a: RankedAgent, b: RankedAgent) =>
  b.closedSales - a.closedSales || b.salesVolume - a.salesVolume || a.agent.name.localeCompare(b.agent.name)

/**
 * Joins the raw rows into pages (pure, unit-tested). ZIP pages exist for five-digit ZIPs with at least one ranked
 * agent; a ZIP's city and state come from its Redfin benchmark, else from its agents' most common city. City pages
 * group the ZIP pages by (state, city) and rank agents by their summed closed sales there.
 */
export function assembleSiteAgentData(
  agents: readonly AgentRow[],
  sales: readonly SaleRow[],
  quarters: readonly QuarterRow[],
  benchmarks: readonly BenchmarkRow[],
  zipSales: readonly ZipSalesRow[],
): SiteAgentData {
  const salesByAgent = groupBy(sales, (row) => row.agent_id)
  const quartersByAgent = groupBy(quarters, (row) => row.agent_id)
  const benchmarkByZip = new Map(benchmarks.map((row) => [row.zip_code, row]))
  const agentById = new Map(agents.map((agent) => [agent.id, agent]))

  const profiles: AgentProfile[] = agents.map((agent) => {
    const recent = (salesByAgent.get(agent.id) ?? []).map(({ agent_id: _agent, ...sale }) => sale)
    return {
      agent,
      sales: recent,
      benchmark: agent.primary_zip_code ? (benchmarkByZip.get(agent.primary_zip_code) ?? null) : null,
      synthetic: isSyntheticAgent(agent, recent),
      quarters: (quartersByAgent.get(agent.id) ?? []).map(({ agent_id: _agent, ...quarter }) => quarter),
    }
  })

  const zips: ZipPage[] = []
  // closed_sales counts listing sides; a row with none is an agent with buyer sides only there
  for (const [zip, rows] of groupBy(
    zipSales.filter((row) => row.closed_sales > 0),
    (row) => row.zip_code,
  )) {
    if (!/^\d{5}$/.test(zip)) continue
    const ranked = rows
      .flatMap((row) => {
        const agent = agentById.get(row.agent_id)
        return agent ? [{ agent, closedSales: row.closed_sales, salesVolume: Number(row.sales_volume) }] : []
      })
      .sort(byRank)
    if (ranked.length === 0) continue
    const benchmark = benchmarkByZip.get(zip) ?? null
    const place =
      benchmark?.city && benchmark.state
        ? { city: benchmark.city, state: benchmark.state }
        : commonPlace(ranked.map((row) => row.agent))
    zips.push({ zip, city: place?.city ?? null, state: place?.state ?? null, benchmark, agents: ranked })
  }
  zips.sort((a, b) => a.zip.localeCompare(b.zip))

  const cities: CityPage[] = []
  for (const group of groupBy(
    zips.filter((page) => page.city && page.state),
    // one page per URL: spellings that slug alike ("San Tan Valley", "San Tan valley") share it
    (page) => `${page.state!.toLowerCase()}/${slugify(page.city!)}`,
  ).values()) {
    const { city, state } = group[0]! as { city: string; state: string }
    const totals = new Map<string, RankedAgent>()
    for (const row of group.flatMap((page) => page.agents)) {
      const total = totals.get(row.agent.id)
      if (total) {
        total.closedSales += row.closedSales
        total.salesVolume += row.salesVolume
      } else totals.set(row.agent.id, { ...row })
    }
    const stateSlug = state.toLowerCase()
    const citySlug = slugify(city)
    if (!citySlug) continue
    cities.push({ state, city, stateSlug, citySlug, zips: group, agents: [...totals.values()].sort(byRank) })
  }
  cities.sort((a, b) => a.stateSlug.localeCompare(b.stateSlug) || a.citySlug.localeCompare(b.citySlug))
  return { profiles, zips, cities }
}

/** The most common (city, state) among agents that have both, or null. */
function commonPlace(agents: readonly AgentRow[]): { city: string; state: string } | null {
  const counts = new Map<string, number>()
  for (const agent of agents)
    if (agent.city && agent.state)
      counts.set(`${agent.state}|${agent.city}`, (counts.get(`${agent.state}|${agent.city}`) ?? 0) + 1)
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]
  if (!best) return null
  const [state, city] = best[0].split('|') as [string, string]
  return { city, state }
}

/** An agent row without its bookkeeping stamps, which no page shows (a metrics refresh restamps every agent). */
function renderedAgent(agent: AgentRow): Omit<AgentRow, 'created_at' | 'updated_at' | 'metrics_refreshed_at'> {
  const { created_at: _created, updated_at: _updated, metrics_refreshed_at: _refreshed, ...rendered } = agent
  return rendered
}

const renderedRanking = (agents: readonly RankedAgent[]) =>
  agents.map((row) => ({ ...row, agent: renderedAgent(row.agent) }))

/** What /agent/<id> renders (its content hash is the page's cacheKey: src/lib/content-hash.ts). */
export function agentPageContent(profile: AgentProfile): { path: string; content: unknown; lastmod: string | null } {
  return {
    path: agentUrl(profile.agent.id),
    content: { ...profile, agent: renderedAgent(profile.agent) },
    lastmod: profile.agent.metrics_refreshed_at ?? profile.agent.updated_at,
  }
}

/** What /agents/<zip> renders. */
export function zipPageContent(page: ZipPage): { path: string; content: unknown } {
  return { path: zipUrl(page.zip), content: { ...page, agents: renderedRanking(page.agents) } }
}

/** What /agents/<state>/<city> renders. */
export function cityPageContent(page: CityPage): { path: string; content: unknown } {
  return {
    path: cityUrl(page.state, page.citySlug),
    content: {
      ...page,
      agents: renderedRanking(page.agents),
      zips: page.zips.map((zip) => zipPageContent(zip).content),
    },
  }
}
