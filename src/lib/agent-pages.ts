/**
 * Data of the agent pages (/agent/<id>), ZIP pages (/agents/<zip>) and city pages (/agents/<state>/<city>), read
 * with the anon key.
 *
 * Which pages exist and their build-cache keys come from the database's page versions (public.agent_page_versions,
 * public.zip_page_versions): triggers on the tables these pages read give a page a new version whenever its data
 * changes, so listing the pages reads two small columns per page, never the pages' data. A page's data is read only
 * when Astro renders it (a new page, a new version or a changed template), in batches of up to 100 pages a request
 * (the page component's render asks; `batch()` joins the asks of the renders in flight). So a data refresh that
 * changed one agent reads that agent's data and that agent's ZIP and city pages' rankings, and no other agent's.
 *
 * Agent pages listed here are the prerendered ones (agents with a counted sale, either side, in the metrics window who
 * are among the first 25 a ZIP page lists); every other agent's page is rendered on demand by the same component
 * (src/pages/agent/[...id].astro), through fetchAgentPages().
 *
 * The pages show both sides of the deal: an agent's figures per side (public.agent_figures), their newest sales with
 * their role (public.agent_page_sales) and their sales per quarter (public.agent_page_quarters); a ZIP or city page
 * ranks every agent with a side there by sides (ties by volume) with rankArea() and shows the first AREA_PAGE_AGENTS,
 * with the ZIP's coverage (public.zip_sales_coverage).
 *
 * Every read throws when it fails, so a broken build never ships pages without figures.
 */
import type { Database } from '@shared/database.types.ts'
import { MIN_SALES_TO_RANK } from '@shared/methodology.ts'
import { groupCities, ZIP_PAGE_COLUMNS, zipPageRef, type CityPageRef, type ZipPageRef } from './page-cache-keys'
import {
  RECENT_SALES_LIMIT,
  isSyntheticAgent,
  profileZip,
  saleCorrectionsByAgent,
  type AgentProfile,
  type AgentRow,
  type BenchmarkRow,
  type FiguresRow,
  type RecentSale,
} from './agent-profile'
import { renderPlan } from './render-plan'
import { supabase } from './supabase'

/** Rows per listing request (PostgREST's max-rows). */
const LIST_PAGE_SIZE = 1000
/** Agents or ZIPs per data request (agent_page_sales and agent_page_quarters take at most 100 agents). */
const BATCH_SIZE = 100

/** A prerendered agent page: its agent and the version of its data. */
export interface AgentPageRef {
  agentId: string
  version: number
  /** When the page's data last changed (ISO 8601): the sitemap's lastmod. */
  changedAt: string
}

// ZIP and city page refs and their grouping live in ./page-cache-keys.ts (the local builder's patch keys city pages too)
export type { CityPageRef, ZipPageRef } from './page-cache-keys'

/** What a ZIP's figures rest on: closed sales in the window, their date range and sources. */
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
  /** What the ZIP's figures rest on; null before a refresh. */
  coverage: CoverageRow | null
  /** Ranked agents first (by sides, then volume, then name), then those with too few sales to rank, the same way. */
  agents: RankedAgent[]
}

/**
 * How many agents a ZIP or city page lists, in its order (ranked first). The database prerenders the profiles of
 * exactly the first 25 of each ZIP page (private.touch_zip_pages); everyone else is in the live search results, which
 * page through the whole area in the same order. A busy ZIP listed whole was 750 KB of HTML (305 demo agents).
 */
export const AREA_PAGE_AGENTS = 25

/** A city landing page: `/agents/<state>/<city>` (state lower-case, city slug). */
export interface CityPage {
  state: string
  city: string
  stateSlug: string
  citySlug: string
  zips: ZipPage[]
  agents: RankedAgent[]
}

const fail = (what: string, error: { message: string }) => new Error(`Could not load ${what}: ${error.message}`)

/** Splits `items` into chunks of at most `size`. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = []
  for (let index = 0; index < items.length; index += size) result.push(items.slice(index, index + size))
  return result
}

// ---------------------------------------------------------------------------------------------------------------
// Listing: which pages exist, with their versions
// ---------------------------------------------------------------------------------------------------------------

let agentPagesPromise: Promise<AgentPageRef[]> | undefined
let areaPagesPromise: Promise<{ zips: ZipPageRef[]; cities: CityPageRef[] }> | undefined

/**
 * The 16 ranges of agent ids listed side by side, by first hex digit: [lower, upper) bounds, the last without an upper.
 * Agent ids are random UUIDs, so each range holds about a sixteenth of the agents.
 */
const ID_RANGES = Array.from({ length: 16 }, (_, digit) => {
  const bound = (d: number) => `${d.toString(16)}0000000-0000-0000-0000-000000000000`
  return { lower: bound(digit), upper: digit < 15 ? bound(digit + 1) : null }
})

/**
 * The prerendered agent pages, ordered by agent id (read once per build): 16 id ranges read side by side, each
 * keyset-paged, so every page of rows is a consistent read and the listing takes the time of the largest range.
 * @throws when a read fails.
 */
export function listAgentPages(): Promise<AgentPageRef[]> {
  agentPagesPromise ??= Promise.all(
    ID_RANGES.map(async ({ lower, upper }) => {
      const pages: AgentPageRef[] = []
      for (let after: string | null = null; ;) {
        let query = supabase
          .from('agent_page_versions')
          .select('agent_id, version, changed_at')
          .eq('prerender', true)
          .order('agent_id')
          .limit(LIST_PAGE_SIZE)
        query = after ? query.gt('agent_id', after) : query.gte('agent_id', lower)
        if (upper) query = query.lt('agent_id', upper)
        const { data, error } = await query
        if (error) throw fail('the agent pages', error)
        for (const row of data) pages.push({ agentId: row.agent_id, version: row.version, changedAt: row.changed_at })
        if (data.length < LIST_PAGE_SIZE) return pages
        after = data.at(-1)!.agent_id
      }
    }),
  ).then((ranges) => ranges.flat())
  return agentPagesPromise
}

/**
 * Every ZIP page (five-digit ZIPs where an agent had a side in the window) and the city pages they make.
 * @throws when a read fails.
 */
export function listAreaPages(): Promise<{ zips: ZipPageRef[]; cities: CityPageRef[] }> {
  areaPagesPromise ??= readZipPages('the ZIP pages').then((zips) => ({ zips, cities: groupCities(zips) }))
  return areaPagesPromise
}

/**
 * The ZIP page refs of five-digit ZIPs with a page (ranked_agents > 0), in ZIP order, keyset-paged; `state` narrows
 * them to one state (case-insensitive). @throws naming `what` when a read fails.
 */
async function readZipPages(what: string, state?: string): Promise<ZipPageRef[]> {
  const zips: ZipPageRef[] = []
  for (let after: string | null = null; ;) {
    let query = supabase
      .from('zip_page_versions')
      .select(ZIP_PAGE_COLUMNS)
      .gt('ranked_agents', 0)
      .order('zip_code')
      .limit(LIST_PAGE_SIZE)
    if (state) query = query.ilike('state', state)
    if (after) query = query.gt('zip_code', after)
    const { data, error } = await query
    if (error) throw fail(what, error)
    for (const row of data) if (/^\d{5}$/.test(row.zip_code)) zips.push(zipPageRef(row))
    if (data.length < LIST_PAGE_SIZE) return zips
    after = data.at(-1)!.zip_code
  }
}

/**
 * The page of one ZIP for an on-demand render, or null when the ZIP has none (not five digits, or no agent with a side
 * there in the window). Reads that ZIP's version row only; nothing is cached. @throws when the read fails.
 */
export async function findZipPageRef(zip: string): Promise<ZipPageRef | null> {
  if (!/^\d{5}$/.test(zip)) return null
  const { data, error } = await supabase
    .from('zip_page_versions')
    .select(ZIP_PAGE_COLUMNS)
    .eq('zip_code', zip)
    .gt('ranked_agents', 0)
    .maybeSingle()
  if (error) throw fail('the ZIP page', error)
  return data ? zipPageRef(data) : null
}

/**
 * The page of one city for an on-demand render (`/agents/<state>/<city>`, both slugs lower-case), or null when no ZIP
 * page groups under it. Reads the version rows of that state's ZIP pages only; nothing is cached.
 * @throws when a read fails.
 */
export async function findCityPageRef(stateSlug: string, citySlug: string): Promise<CityPageRef | null> {
  if (!/^[a-z]{2}$/.test(stateSlug) || !/^[a-z0-9-]+$/.test(citySlug)) return null
  const zips = await readZipPages('the city page', stateSlug)
  return groupCities(zips).find((city) => city.stateSlug === stateSlug && city.citySlug === citySlug) ?? null
}

// the pages' build-cache keys live in ./page-cache-keys.ts (the local builder's patch uses them too)
export { agentPageCacheKey, cityPageCacheKey, groupCities, zipPageCacheKey } from './page-cache-keys'

// ---------------------------------------------------------------------------------------------------------------
// Page data, read in batches
// ---------------------------------------------------------------------------------------------------------------

/**
 * Joins the calls made while other calls are pending into one `fetchMany` of up to `max` keys (a render asks for its
 * page's data; Astro renders build.concurrency pages at a time). Nothing is cached: each call reads fresh data.
 */
export function batch<K, V>(fetchMany: (keys: K[]) => Promise<Map<K, V>>, max = BATCH_SIZE): (key: K) => Promise<V> {
  let queue: { key: K; resolve: (value: V) => void; reject: (error: unknown) => void }[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    timer = undefined
    const taken = queue
    queue = []
    for (const part of chunks(taken, max)) {
      fetchMany([...new Set(part.map((item) => item.key))]).then(
        (values) => {
          for (const item of part) {
            if (values.has(item.key)) item.resolve(values.get(item.key)!)
            else item.reject(new Error(`No data for ${String(item.key)}`))
          }
        },
        (error: unknown) => {
          for (const item of part) item.reject(error)
        },
      )
    }
  }
  return (key) =>
    new Promise<V>((resolve, reject) => {
      queue.push({ key, resolve, reject })
      if (queue.length >= max) {
        clearTimeout(timer)
        flush()
      } else timer ??= setTimeout(flush, 5)
    })
}

/**
 * A build-time page loader that reads ahead along the build's render plan (src/lib/render-plan.ts): the pages of
 * `route` this build will render, in render order, are read `size` at a time, the next group while the current one
 * renders, so a render finds its data read and a request serves up to `size` pages however many renders run at once.
 * A key the plan does not hold (no plan: an on-demand render, or a page rendered although its key was unchanged: a
 * changed template) goes to `fallback`. Only planned pages are read, so reused pages still cost no read. A group's
 * data is dropped once each of its pages has taken its own.
 *
 * `name` gives a key's name in the plan (`pathname` -> name with `nameOf`), `keysOf` turns names back into keys for
 * `fetchMany`, whose answer is looked up by name.
 */
export function readAhead<K, V>(options: {
  route: string
  nameOf: (pathname: string) => string
  name: (key: K) => string
  keysOf: (names: string[]) => Promise<K[]>
  fetchMany: (keys: K[]) => Promise<Map<K, V>>
  fallback: (key: K) => Promise<V>
  size?: number
}): (key: K) => Promise<V> {
  const size = options.size ?? BATCH_SIZE
  let names: string[] | undefined
  let index: Map<string, number> | undefined
  let seen: readonly string[] | undefined
  let groups = new Map<number, { data: Promise<Map<string, V>>; left: number }>()
  const group = (n: number) => {
    let entry = groups.get(n)
    if (!entry && names && n * size < names.length) {
      const part = names.slice(n * size, (n + 1) * size)
      const data = options
        .keysOf(part)
        .then(options.fetchMany)
        .then((values) => new Map([...values].map(([key, value]) => [options.name(key), value])))
      // a group read ahead may fail before a render awaits it: the render that does gets the error
      data.catch(() => {})
      entry = { data, left: part.length }
      groups.set(n, entry)
    }
    return entry
  }
  return async (key) => {
    const planned = renderPlan(options.route)
    // the first call, or the build widened the plan (a changed template renders every page of the route)
    if (!index || planned !== seen) {
      seen = planned
      names = planned ? planned.map(options.nameOf) : []
      index = new Map(names.map((name, at) => [name, at]))
      groups = new Map()
    }
    const name = options.name(key)
    const at = index.get(name)
    if (at === undefined) return options.fallback(key)
    index.delete(name)
    const n = Math.floor(at / size)
    const entry = group(n)!
    group(n + 1)
    const values = await entry.data.finally(() => {
      entry.left -= 1
      if (entry.left === 0) groups.delete(n)
    })
    if (!values.has(name)) throw new Error(`No data for ${name}`)
    return values.get(name)!
  }
}

/**
 * Profiles read ahead for renders to come in this isolate (the local builder's re-renders: it asks
 * /rerender/agents?ids=... for up to 100 agents, one read, then renders their pages). Plain values, never promises: the
 * Workers runtime cancels a request that waits on another request's I/O. Each is taken once; a visitor's worker never
 * fills it (/rerender/ is not routed to it).
 */
const prefetched = new Map<string, AgentProfile | null>()

/** Reads up to 100 profiles into the read-ahead store. @throws when the read fails. */
export async function prefetchAgentPages(ids: readonly string[]): Promise<void> {
  for (const [id, profile] of await fetchAgentPages(ids)) prefetched.set(id, profile)
}

/** A profile read ahead for `id` (null: no such agent), taken out of the store; undefined when none was. */
export function takePrefetchedAgentPage(id: string): AgentProfile | null | undefined {
  if (!prefetched.has(id)) return undefined
  const profile = prefetched.get(id)!
  prefetched.delete(id)
  return profile
}

/** A row of agent_page_sales (role and side as the database's text). */
type SaleRow = Omit<RecentSale, 'role' | 'side'> & { agent_id: string; role: string; side: string }

/**
 * The profiles of up to 100 agents: the agent row, their figures per side, their newest closed sales (either side,
 * with their role), closed sales per quarter (both sides and per side) and the benchmark of the ZIP their figures
 * compare with (profileZip). An id without an agent maps to null.
 * @throws when a read fails or more than 100 ids are asked for.
 */
export async function fetchAgentPages(ids: readonly string[]): Promise<Map<string, AgentProfile | null>> {
  if (ids.length > BATCH_SIZE) throw new Error(`fetchAgentPages reads at most ${BATCH_SIZE} agents a call`)
  const result = new Map<string, AgentProfile | null>(ids.map((id) => [id, null]))
  if (ids.length === 0) return result
  const agentIds = [...ids]
  // one round trip: the six reads at once (an on-demand answer waits for the slowest)
  const [agents, figures, sales, quarters, benchmarks, corrections] = await Promise.all([
    supabase.from('agents').select('*').in('id', agentIds),
    supabase.from('agent_figures').select('*').in('agent_id', agentIds),
    supabase.rpc('agent_page_sales', { agent_ids: agentIds, max_per_agent: RECENT_SALES_LIMIT }),
    supabase.rpc('agent_page_quarters', { agent_ids: agentIds }),
    supabase.rpc('agent_page_benchmarks', { agent_ids: agentIds }),
    supabase.rpc('agent_sale_corrections', { agent_ids: agentIds }),
  ])
  if (agents.error) throw fail('agents', agents.error)
  if (figures.error) throw fail('agent figures', figures.error)
  if (sales.error) throw fail('recent sales', sales.error)
  if (quarters.error) throw fail('quarterly sales', quarters.error)
  if (corrections.error) throw fail('accepted corrections', corrections.error)
  const correctionsByAgent = saleCorrectionsByAgent(corrections.data)
  if (benchmarks.error) throw fail('ZIP benchmarks', benchmarks.error)
  const benchmarkByZip = new Map((benchmarks.data as BenchmarkRow[]).map((row) => [row.zip_code, row]))
  const figuresByAgent = new Map(figures.data.map((row) => [row.agent_id, row]))
  const salesByAgent = groupBy(sales.data as SaleRow[], (row) => row.agent_id)
  const quartersByAgent = groupBy(quarters.data, (row) => row.agent_id)
  for (const agent of agents.data) {
    const recent = (salesByAgent.get(agent.id) ?? []).map(({ agent_id: _agent, ...sale }) => sale as RecentSale)
    const agentFigures = figuresByAgent.get(agent.id) ?? null
    // agent_page_benchmarks answers the ZIPs of both (the figures' primary ZIP and the listing-side one)
    const zip = profileZip(agent, agentFigures)
    result.set(agent.id, {
      agent,
      figures: agentFigures,
      sales: recent,
      benchmark: zip ? (benchmarkByZip.get(zip) ?? null) : null,
      synthetic: isSyntheticAgent(agent, recent),
      quarters: (quartersByAgent.get(agent.id) ?? []).map(({ agent_id: _agent, ...quarter }) => quarter),
      corrections: correctionsByAgent.get(agent.id) ?? [],
    })
  }
  return result
}

/**
 * One agent page's data during the build, null for an unknown id: read ahead with the next pages the build renders,
 * else batched with the other renders in flight.
 */
export const loadAgentPage = readAhead({
  route: '/agent/[id]',
  nameOf: (pathname) => pathname.split('/')[2] ?? pathname,
  name: (id: string) => id,
  keysOf: async (ids) => ids,
  fetchMany: fetchAgentPages,
  fallback: batch(fetchAgentPages),
})

/** A row of agent_zip_sales: one agent's sales in one ZIP in the window (closed_sales: those with the listing side). */
export type ZipSalesRow = Pick<
  Database['public']['Tables']['agent_zip_sales']['Row'],
  'zip_code' | 'agent_id' | 'closed_sales' | 'buyer_sales' | 'total_sales' | 'sides' | 'volume'
>

/**
 * The ZIP pages of up to 100 ZIP page refs: the benchmark, the coverage and every agent with a side in the ZIP in the
 * window, with their figures, ranked (rankArea). @throws when a read fails.
 */
export async function fetchZipPages(pages: readonly ZipPageRef[]): Promise<Map<ZipPageRef, ZipPage>> {
  const zips = pages.map((page) => page.zip)
  // the ZIPs' own rows alongside the rankings
  const areaReads = Promise.all([
    supabase.from('zip_market_benchmarks').select('*').in('zip_code', zips),
    supabase.from('zip_sales_coverage').select('*').in('zip_code', zips),
  ])
  const rows: ZipSalesRow[] = []
  for (let after: string | null = null; ;) {
    // keyset-paged on (zip_code, agent_id): a busy ZIP has hundreds of agents
    let query = supabase
      .from('agent_zip_sales')
      .select('zip_code, agent_id, closed_sales, buyer_sales, total_sales, sides, volume')
      .in('zip_code', zips)
      .gt('total_sales', 0)
      .order('zip_code')
      .order('agent_id')
      .limit(LIST_PAGE_SIZE)
    if (after) {
      const [zip, agent] = after.split('|') as [string, string]
      query = query.or(`zip_code.gt.${zip},and(zip_code.eq.${zip},agent_id.gt.${agent})`)
    }
    const { data, error } = await query
    if (error) throw fail('ZIP rankings', error)
    rows.push(...data)
    if (data.length < LIST_PAGE_SIZE) break
    after = `${data.at(-1)!.zip_code}|${data.at(-1)!.agent_id}`
  }
  const agentIds = [...new Set(rows.map((row) => row.agent_id))]
  const agents: AgentRow[] = []
  const figures: FiguresRow[] = []
  await Promise.all(
    chunks(agentIds, BATCH_SIZE).map(async (part) => {
      const [agentRows, figureRows] = await Promise.all([
        supabase.from('agents').select('*').in('id', part),
        supabase.from('agent_figures').select('*').in('agent_id', part),
      ])
      if (agentRows.error) throw fail('ranked agents', agentRows.error)
      if (figureRows.error) throw fail("ranked agents' figures", figureRows.error)
      agents.push(...agentRows.data)
      figures.push(...figureRows.data)
    }),
  )
  const [benchmarks, coverage] = await areaReads
  if (benchmarks.error) throw fail('ZIP benchmarks', benchmarks.error)
  if (coverage.error) throw fail('ZIP coverage', coverage.error)
  return new Map(
    pages.map(
      (page) =>
        [page, assembleZipPage(page, rows, agents, figures, benchmarks.data, coverage.data)] as [ZipPageRef, ZipPage],
    ),
  )
}

/**
 * One ZIP page's data during the build: read ahead with the next ZIP pages the build renders, else batched with the
 * other renders in flight (a city page asks for its ZIPs' data here too).
 */
export const loadZipPage = readAhead({
  route: '/agents/[zip]',
  nameOf: (pathname) => pathname.split('/')[2] ?? pathname,
  name: (page: ZipPageRef) => page.zip,
  keysOf: async (zips) => {
    const byZip = new Map((await listAreaPages()).zips.map((page) => [page.zip, page]))
    return zips.flatMap((zip) => byZip.get(zip) ?? [])
  },
  fetchMany: fetchZipPages,
  fallback: batch(fetchZipPages),
  // a ZIP page reads every agent ranked there: 25 ZIPs of 40 agents are about 1,000 rankings and ten agent reads
  size: 25,
})

/** One city page's data during the build: its ZIP pages, and their agents ranked as assembleCityPage does. */
export async function loadCityPage(page: CityPageRef): Promise<CityPage> {
  return assembleCityPage(page, await Promise.all(page.zips.map((zip) => loadZipPage(zip))))
}

/**
 * One city page's data outside a build (an on-demand render): its ZIP pages read directly, up to 100 a request, with no
 * batching shared between requests. @throws when a read fails.
 */
export async function fetchCityPage(page: CityPageRef): Promise<CityPage> {
  const zips = new Map<ZipPageRef, ZipPage>()
  for (const part of chunks(page.zips, BATCH_SIZE))
    for (const [ref, zip] of await fetchZipPages(part)) zips.set(ref, zip)
  return assembleCityPage(
    page,
    page.zips.map((ref) => zips.get(ref)!),
  )
}

/**
 * A city page from its ZIP pages (pure, unit-tested): each agent's sales, sides and volume summed over the city's ZIPs
 * (a sale lies in one ZIP, so the sums count no sale twice), ranked with rankArea.
 */
export function assembleCityPage(page: CityPageRef, zips: ZipPage[]): CityPage {
  const totals = new Map<string, RankedAgent>()
  for (const row of zips.flatMap((zip) => zip.agents)) {
    const total = totals.get(row.agent.id)
    if (total) {
      total.sales += row.sales
      total.listingSales += row.listingSales
      total.buyerSales += row.buyerSales
      total.sides += row.sides
      total.volume += row.volume
    } else totals.set(row.agent.id, { ...row })
  }
  return { ...page, zips, agents: rankArea([...totals.values()]) }
}

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

/** The area's order: sides there, then volume there, then name. */
const byRank = (a: RankedAgent, b: RankedAgent) =>
  b.sides - a.sides || b.volume - a.volume || a.agent.name.localeCompare(b.agent.name)

/**
 * Orders an area's agents the way the ZIP search ranks them: by sides there, ties by volume there (equal on both =
 * equal rank). Agents with fewer than MIN_SALES_TO_RANK sales there are not ranked (rank null) and follow the ranked
 * ones in the same order. Sets each row's rank; returns the rows in page order.
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
 * One ZIP page from the rows read for a batch (pure, unit-tested): the ZIP's agents with a side there in the window
 * (rows without an agent read are left out), with their figures, ranked by rankArea; the benchmark and coverage of the
 * ZIP; the place as listed with the page's version.
 */
export function assembleZipPage(
  page: ZipPageRef,
  rows: readonly ZipSalesRow[],
  agents: readonly AgentRow[],
  figures: readonly FiguresRow[],
  benchmarks: readonly BenchmarkRow[],
  coverage: readonly CoverageRow[],
): ZipPage {
  const agentById = new Map(agents.map((agent) => [agent.id, agent]))
  const figuresByAgent = new Map(figures.map((row) => [row.agent_id, row]))
  const ranked = rankArea(
    rows
      .filter((row) => row.zip_code === page.zip && row.total_sales > 0)
      .flatMap((row) => {
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
  return {
    zip: page.zip,
    city: page.city,
    state: page.state,
    benchmark: benchmarks.find((row) => row.zip_code === page.zip) ?? null,
    coverage: coverage.find((row) => row.zip_code === page.zip) ?? null,
    agents: ranked,
  }
}
