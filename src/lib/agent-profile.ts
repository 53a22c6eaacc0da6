/**
 * Data for the agent profile page (/agent/<id>): the agent row, their figures per side (public.agent_figures), their
 * most recent closed sales (either side), closed sales per quarter and the Redfin benchmark of the ZIP their figures
 * compare with, read with the anon client (all public). The agent pages read theirs in ./agent-pages.ts (prerendered
 * and on demand); fetchAgentProfile serves the compare island in the browser through PostgREST with
 * @supabase/postgrest-js, the query builder inside supabase-js, on its own: the islands need no auth, storage or
 * realtime, and the whole of supabase-js is about 55 KiB gzip (the JS budgets in budgets.json).
 */
import { PostgrestClient } from '@supabase/postgrest-js'

import type { Database } from '@shared/database.types.ts'
import type { TransactionRole, TransactionSide } from '@shared/methodology.ts'
import { isUuid } from '@shared/urls.ts'
import { anonHeaders, browserConfig } from './browser-config'

export type AgentRow = Database['public']['Tables']['agents']['Row']
export type BenchmarkRow = Database['public']['Tables']['zip_market_benchmarks']['Row']
/** One agent's figures per side (public.agent_figures; contract: @shared/figures-contract.ts). */
export type FiguresRow = Database['public']['Tables']['agent_figures']['Row']

/** One recent sale as the table shows it. Prices USD, days_on_market in days, close_date `YYYY-MM-DD`. */
export interface RecentSale {
  id: string
  address: string
  city: string | null
  state: string | null
  zip_code: string | null
  close_date: string | null
  list_price: number | null
  close_price: number | null
  days_on_market: number | null
  /** The feed the sale came from ('demo' for the generated demo data). */
  source: string | null
  /** The agent's role on the sale (RESO ListAgent, CoListAgent, BuyerAgent, CoBuyerAgent). */
  role: TransactionRole
  /** The side that role is on. */
  side: TransactionSide
}

export interface AgentProfile {
  agent: AgentRow
  /** Listing side, buyer side, totals, intervals and vs-ZIP figures; null when the agent has no counted sale. */
  figures: FiguresRow | null
  /** Up to RECENT_SALES_LIMIT closed sales with either side (one row per side), newest close date first. */
  sales: RecentSale[]
  /** The primary ZIP's market figures; null when the agent has no primary ZIP or the ZIP has no benchmark row. */
  benchmark: BenchmarkRow | null
  /** True when the agent comes from the generated demo data (see isSyntheticAgent). */
  synthetic: boolean
  /** Closed sales (both sides) per calendar quarter inside the metrics window, oldest first (quarters without sales are absent). */
  quarters: QuarterSales[]
  /** Accepted corrections of the agent's record (public.agent_sale_corrections), newest first; absent before loading. */
  corrections?: SaleCorrection[]
}

/**
 * An accepted correction of an agent's record as visitors see it: the sale, the kind, the side the agent had
 * (wrong side, missing sale), the close price, close date and list price (USD) it gives (wrong price or date; null
 * where it leaves our data's value) next to our data's, when it was accepted.
 */
export interface SaleCorrection {
  correction_id: string
  /** The sale (properties.id); null for a missing sale whose listing is not in our data. */
  property_id: string | null
  kind: 'not_my_sale' | 'wrong_side' | 'wrong_price_date' | 'missing_sale'
  address: string | null
  /** The sale's MLS number (ListingKey). */
  listing_number: string | null
  side: 'listing' | 'buyer' | null
  close_price: number | null
  close_date: string | null
  recorded_close_price: number | null
  recorded_close_date: string | null
  accepted_at: string | null
  list_price: number | null
  recorded_list_price: number | null
}

/** The rows of public.agent_sale_corrections, typed (the generated type cannot say which values may be null). */
export function saleCorrectionsByAgent(rows: readonly unknown[]): Map<string, SaleCorrection[]> {
  const byAgent = new Map<string, SaleCorrection[]>()
  for (const row of rows as (SaleCorrection & { agent_id: string })[]) {
    const { agent_id: agentId, ...correction } = row
    const list = byAgent.get(agentId)
    if (list) list.push(correction)
    else byAgent.set(agentId, [correction])
  }
  return byAgent
}

/** Closed sales of one calendar quarter; quarter_start is its first day, `YYYY-MM-DD`. */
export interface QuarterSales {
  quarter_start: string
  /** Distinct sales with either side (a dual-agency sale once). */
  closed_sales: number
  /** Sales with the listing side, and with the buyer side. */
  listing_sales: number
  buyer_sales: number
}

/** How many recent sales the profile lists. */
export const RECENT_SALES_LIMIT = 10

/** The demo notice, the same wording as the site footer. */
export const DEMO_DATA_NOTICE = 'Agent data shown in this demo is fictional.'

/** MemberMlsId prefix and properties.source of the generated demo data (scripts/seed-demo.ts). */
const DEMO_MLS_ID_PREFIX = 'DEMO-'
const DEMO_SOURCE = 'demo'

/**
 * Whether a profile shows generated (fictional) data: the agent's MLS id has the demo seeder's prefix, or any of the
 * shown sales came from the demo feed.
 */
export function isSyntheticAgent(
  agent: Pick<AgentRow, 'mls_id'>,
  sales: readonly Pick<RecentSale, 'source'>[],
): boolean {
  return Boolean(agent.mls_id?.startsWith(DEMO_MLS_ID_PREFIX)) || sales.some((sale) => sale.source === DEMO_SOURCE)
}

/**
 * The agent id from a profile URL path: "/agent/<uuid>" or "/agent/<uuid>/" → the uuid (lower-cased); null when the
 * path holds no valid uuid (the page then shows "not found" without asking the database).
 */
export function agentIdFromPath(pathname: string): string | null {
  const match = /^\/agent\/([^/]+)\/?$/.exec(pathname)
  if (!match) return null
  let id: string
  try {
    id = decodeURIComponent(match[1]!).toLowerCase()
  } catch {
    return null // a malformed %-escape
  }
  return isUuid(id) ? id : null
}

/** The agent's primary ZIP: the one with most of their sides (agent_figures), else their listing-side primary ZIP. */
export function profileZip(
  agent: Pick<AgentRow, 'primary_zip_code'>,
  figures: Pick<FiguresRow, 'primary_zip_code'> | null,
): string | null {
  return figures?.primary_zip_code ?? agent.primary_zip_code
}

let anonRest: PostgrestClient<Database> | undefined

/** The anonymous PostgREST client (/rest/v1 of the project), made on first use. */
function restClient(): PostgrestClient<Database> {
  anonRest ??= new PostgrestClient<Database>(`${browserConfig().apiUrl}/rest/v1`, { headers: anonHeaders() })
  return anonRest
}

/**
 * Loads a profile. Sales are the agent's closed sales (StandardStatus Closed with a ClosePrice: the sales the
 * metrics count), newest CloseDate first.
 * @returns null when no agent has this id. @throws the PostgREST error of any failed query.
 */
export async function fetchAgentProfile(id: string): Promise<AgentProfile | null> {
  const rest = restClient()
  // one round trip: agent_page_benchmarks answers the benchmarks of both ZIPs the page may compare with
  const [found, figures, sales, quarters, benchmarks, corrections] = await Promise.all([
    rest.from('agents').select('*').eq('id', id).maybeSingle(),
    rest.from('agent_figures').select('*').eq('agent_id', id).maybeSingle(),
    // listing rows are not readable anonymously: the agent page's own bounded, per-agent functions
    rest.rpc('agent_page_sales', { agent_ids: [id], max_per_agent: RECENT_SALES_LIMIT }),
    rest.rpc('agent_page_quarters', { agent_ids: [id] }),
    rest.rpc('agent_page_benchmarks', { agent_ids: [id] }),
    rest.rpc('agent_sale_corrections', { agent_ids: [id] }),
  ])
  if (found.error) throw found.error
  const agent = found.data
  if (!agent) return null
  if (figures.error) throw figures.error
  if (sales.error) throw sales.error
  if (quarters.error) throw quarters.error
  if (benchmarks.error) throw benchmarks.error
  if (corrections.error) throw corrections.error
  // the ZIP the figures compare with: the one with most of the agent's sides
  const zip = profileZip(agent, figures.data)
  const benchmark = (benchmarks.data as BenchmarkRow[]).find((row) => row.zip_code === zip) ?? null
  return {
    agent,
    figures: figures.data,
    sales: sales.data.map(({ agent_id: _agent, ...sale }) => sale as RecentSale),
    benchmark,
    synthetic: isSyntheticAgent(agent, sales.data),
    quarters: quarters.data.map(({ agent_id: _agent, ...quarter }) => quarter),
    corrections: saleCorrectionsByAgent(corrections.data).get(id) ?? [],
  }
}
