/**
 * Build-time data of the prerendered agent pages (/agent/<id>), ZIP pages (/agents/<zip>) and city pages
 * (/agents/<state>/<city>), read with the anon key: every agent with figures (public.agent_figures: an agent with at
 * least one counted side, listing or buyer), ZIP benchmarks, ZIP coverage and ZIP sides in pages of 1,000 rows,
 * and each agent's recent sales and sales per quarter through the same bounded, per-agent functions the profile
 * island uses (public.agent_page_sales and public.agent_page_quarters, AGENTS_PER_CALL agents a call; listing rows
 * themselves are not readable anonymously). Cached per build so every page, getStaticPaths and the sitemap share one
 * read. Throws when a read fails, so a broken build never ships pages without figures.
 */
import type { Database } from '@shared/database.types.ts'
import { MIN_SALES_TO_RANK } from '@shared/methodology.ts'
import { slugify } from '@shared/slug.ts'
import { agentUrl, cityUrl, zipUrl } from '@shared/urls.ts'
import {
  RECENT_SALES_LIMIT,
  isSyntheticAgent,
  profileZip,
  type AgentProfile,
  type AgentRow,
  type BenchmarkRow,
  type FiguresRow,
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

export type CoverageRow = Database['public']['Tables']['zip_sales_coverage']['Row']

/** One agent of a ZIP or city page, with their sales in that area (both sides). */
export interface RankedAgent {
  agent: AgentRow
  /** The agent's figures (their primary ZIP, window, sale-to-list); null only before the first refresh. */
  figures: FiguresRow | null
  /** 1 is best: by sides in the area, ties by volume there; null below MIN_SALES_TO_RANK sales there. */
  rank: number | null
  /** Distinct closed sales in the area in the window (either side; a dual-agency sale counts once). */
  sales: number
  /** Sales with the listing side (list or co-list agent) there. */
  listingSales: number
  /** Sales with the buyer side (buyer or co-buyer agent) there. */
  buyerSales: number
  /** Sides credited there (1 per side, 0.5 when shared with a co-agent). */
  sides: number
  /** Sum of ClosePrice x credit there, USD. */
  volume: number
}

/** A ZIP landing page: `/agents/<zip>`. */
export interface ZipPage {
  zip: string
  city: string | null
  state: string | null
  benchmark: BenchmarkRow | null
  /** What the ZIP's figures rest on: closed sales in the window, date range, sources; null before a refresh. */
  coverage: CoverageRow | null
  /** Ranked agents first (by sides, then volume, then name), then those with too few sales to rank, the same way. */
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
  /** Every agent with at least one counted side in the window, by id. */
  profiles: AgentProfile[]
  zips: ZipPage[]
  cities: CityPage[]
}

let dataPromise: Promise<SiteAgentData> | undefined

/** Loads (once per build) every agent page, ZIP page and city page. @throws when a read fails. */
export function loadSiteAgentData(): Promise<SiteAgentData> {
  dataPromise ??= (async () => {
    const figures = await readAll('agent figures', (from, to) =>
      supabase.from('agent_figures').select('*').order('agent_id').range(from, to),
    )
    const ids = figures.map((row) => row.agent_id)
    const [agents, sales, quarters, benchmarks, zipSales, coverage] = await Promise.all([
      readPerAgent('agents', ids, (chunk) => supabase.from('agents').select('*').in('id', chunk).order('id')),
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
      readAll('ZIP coverage', (from, to) =>
        supabase.from('zip_sales_coverage').select('*').order('zip_code').range(from, to),
      ),
    ])
    return assembleSiteAgentData(agents, sales, quarters, benchmarks, zipSales, figures, coverage)
  })()
  return dataPromise
}

/** A row of agent_page_sales (role and side as the database's text). */
type SaleRow = Omit<RecentSale, 'role' | 'side'> & { agent_id: string; role: string; side: string }
type QuarterRow = QuarterSales & { agent_id: string }
type ZipSalesRow = Pick<
  Database['public']['Tables']['agent_zip_sales']['Row'],
  'zip_code' | 'agent_id' | 'closed_sales' | 'buyer_sales' | 'total_sales' | 'sides' | 'volume'
>

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
  b.sides - a.sides || b.volume - a.volume || a.agent.name.localeCompare(b.agent.name)

/**
 * Orders an area's agents the way the ZIP search ranks them: by sides there, ties by volume there (equal on both =
 * equal rank). Agents with fewer than MIN_SALES_TO_RANK sales there are not ranked (rank null) and follow the ranked
 * ones in the same order.
 */
export function rankArea(rows: RankedAgent[]): RankedAgent[] {
  const ranked = rows.filter((row) => row.sales >= MIN_SALES_TO_RANK).sort(byRank)
  const unranked = rows.filter((row) => row.sales < MIN_SALES_TO_RANK).sort(byRank)
  ranked.forEach((row, index) => {
    const previous = ranked[index - 1]
    row.rank = previous && previous.sides === row.sides && previous.volume === row.volume ? previous.rank : index + 1
  })
  for (const row of unranked) row.rank = null
  return [...ranked, ...unranked]
}

/**
 * Joins the raw rows into pages (pure, unit-tested). Profiles exist for agents with figures. ZIP pages exist for
 * five-digit ZIPs with at least one agent with a side there; a ZIP's city and state come from its Redfin benchmark,
 * else from its agents' most common city. City pages group the ZIP pages by (state, city) and rank agents by their
 * summed sides there.
 */
export function assembleSiteAgentData(
  agents: readonly AgentRow[],
  sales: readonly SaleRow[],
  quarters: readonly QuarterRow[],
  benchmarks: readonly BenchmarkRow[],
  zipSales: readonly ZipSalesRow[],
  figures: readonly FiguresRow[] = [],
  coverage: readonly CoverageRow[] = [],
): SiteAgentData {
  const salesByAgent = groupBy(sales, (row) => row.agent_id)
  const quartersByAgent = groupBy(quarters, (row) => row.agent_id)
  const benchmarkByZip = new Map(benchmarks.map((row) => [row.zip_code, row]))
  const coverageByZip = new Map(coverage.map((row) => [row.zip_code, row]))
  const figuresByAgent = new Map(figures.map((row) => [row.agent_id, row]))
  const agentById = new Map(agents.map((agent) => [agent.id, agent]))

  const profiles: AgentProfile[] = agents.map((agent) => {
    const recent = (salesByAgent.get(agent.id) ?? []).map(({ agent_id: _agent, ...sale }) => sale as RecentSale)
    const agentFigures = figuresByAgent.get(agent.id) ?? null
    const zip = profileZip(agent, agentFigures)
    return {
      agent,
      figures: agentFigures,
      sales: recent,
      benchmark: zip ? (benchmarkByZip.get(zip) ?? null) : null,
      synthetic: isSyntheticAgent(agent, recent),
      quarters: (quartersByAgent.get(agent.id) ?? []).map(({ agent_id: _agent, ...quarter }) => quarter),
    }
  })

  const zips: ZipPage[] = []
  for (const [zip, rows] of groupBy(
    zipSales.filter((row) => row.total_sales > 0),
    (row) => row.zip_code,
  )) {
    if (!/^\d{5}$/.test(zip)) continue
    const ranked = rankArea(
      rows.flatMap((row) => {
        const agent = agentById.get(row.agent_id)
        return agent
          ? [
              {
                agent,
                figures: figuresByAgent.get(agent.id) ?? null,
                rank: null,
                sales: row.total_sales,
                listingSales: row.closed_sales,
                buyerSales: row.buyer_sales,
                sides: Number(row.sides),
                volume: Number(row.volume),
              },
            ]
          : []
      }),
    )
    if (ranked.length === 0) continue
    const benchmark = benchmarkByZip.get(zip) ?? null
    const place =
      benchmark?.city && benchmark.state
        ? { city: benchmark.city, state: benchmark.state }
        : commonPlace(ranked.map((row) => row.agent))
    zips.push({
      zip,
      city: place?.city ?? null,
      state: place?.state ?? null,
      benchmark,
      coverage: coverageByZip.get(zip) ?? null,
      agents: ranked,
    })
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
        // a sale lies in one ZIP, so the ZIPs' counts add up without counting a sale twice
        total.sales += row.sales
        total.listingSales += row.listingSales
        total.buyerSales += row.buyerSales
        total.sides += row.sides
        total.volume += row.volume
      } else totals.set(row.agent.id, { ...row })
    }
    const stateSlug = state.toLowerCase()
    const citySlug = slugify(city)
    if (!citySlug) continue
    cities.push({ state, city, stateSlug, citySlug, zips: group, agents: rankArea([...totals.values()]) })
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

/** A row without its updated_at stamp (a refresh that changes nothing else must not rebuild a page). */
function unstamped<T extends { updated_at: string }>(row: T | null): Omit<T, 'updated_at'> | null {
  if (!row) return null
  const { updated_at: _updated, ...rendered } = row
  return rendered
}

const renderedRanking = (agents: readonly RankedAgent[]) =>
  agents.map((row) => ({ ...row, agent: renderedAgent(row.agent), figures: unstamped(row.figures) }))

/** What /agent/<id> renders (its content hash is the page's cacheKey: src/lib/content-hash.ts). */
export function agentPageContent(profile: AgentProfile): { path: string; content: unknown; lastmod: string | null } {
  return {
    path: agentUrl(profile.agent.id),
    content: { ...profile, agent: renderedAgent(profile.agent), figures: unstamped(profile.figures) },
    lastmod: profile.agent.metrics_refreshed_at ?? profile.agent.updated_at,
  }
}

/** What /agents/<zip> renders. */
export function zipPageContent(page: ZipPage): { path: string; content: unknown } {
  return {
    path: zipUrl(page.zip),
    content: { ...page, coverage: unstamped(page.coverage), agents: renderedRanking(page.agents) },
  }
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
