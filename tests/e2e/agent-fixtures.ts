/**
 * Fixture agents with closed sales for the search, profile and report browser tests: inserted as superuser into a
 * ZIP code no other test uses, then `refresh_agent_metrics()` computes their figures as the importer would.
 * `remove()` deletes everything the fixture created.
 */
import type { AgentFigures } from '@shared/figures-contract.ts'
import { sql } from './support.ts'

export interface FixtureSale {
  address: string
  /** Days before today. */
  daysAgo: number
  listPrice: number
  salePrice: number
  daysOnMarket: number
  /** MemberMlsId of the other agents on the sale (RESO CoListAgentMlsId, BuyerAgentMlsId, CoBuyerAgentMlsId). */
  coListMlsId?: string
  buyerMlsId?: string
  coBuyerMlsId?: string
  /** RESO PropertyType (e.g. 'Residential', 'Condominium'). */
  propertyType?: string
}

export interface FixtureAgentInput {
  name: string
  brokerage?: string
  phone?: string | null
  email?: string | null
  rating?: number | null
  reviewCount?: number
  licenseNumber?: string | null
  yearsExperience?: number | null
  mlsId?: string | null
  sales: FixtureSale[]
  /** ZIP of the sales; defaults to the fixture's ZIP. */
  zip?: string
}

export interface FixtureAgent extends FixtureAgentInput {
  id: string
}

/** A random five-digit ZIP in 90000-98999 that no agent or benchmark uses yet. */
export async function unusedZip(): Promise<string> {
  for (;;) {
    const zip = String(90000 + Math.floor(Math.random() * 9000))
    const used = await sql(
      `select 1 from public.properties where zip_code = $1 union all select 1 from public.zip_market_benchmarks where zip_code = $1`,
      [zip],
    )
    if (used.length === 0) return zip
  }
}

/** `count` sales with varied prices: every third one sold over list. */
export function makeSales(prefix: string, count: number, startDaysAgo = 5): FixtureSale[] {
  return Array.from({ length: count }, (_, index) => {
    const listPrice = 400_000 + index * 25_000
    const over = index % 3 === 0
    return {
      address: `${100 + index} ${prefix} St`,
      daysAgo: startDaysAgo + index * 7,
      listPrice,
      salePrice: over ? listPrice + 10_000 : listPrice - 5_000,
      daysOnMarket: 10 + index,
    }
  })
}

/** Creates the agents and their closed sales in `zip`, then refreshes every agent's metrics. */
export async function createAgents(zip: string, agents: FixtureAgentInput[], city = 'Fixtureville', state = 'MA') {
  const created: FixtureAgent[] = []
  for (const agent of agents) {
    const [row] = await sql<{ id: string }>(
      `insert into public.agents (name, brokerage, phone, email, rating, review_count, license_number, years_experience, mls_id, city, state, zip_code)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
      [
        agent.name,
        agent.brokerage ?? 'Fixture Realty',
        agent.phone === undefined ? '(617) 555-0101' : agent.phone,
        agent.email === undefined ? 'agent@example.com' : agent.email,
        agent.rating === undefined ? 4.6 : agent.rating,
        agent.reviewCount ?? 27,
        agent.licenseNumber === undefined ? 'MA-123456' : agent.licenseNumber,
        agent.yearsExperience === undefined ? 12 : agent.yearsExperience,
        agent.mlsId ?? null,
        city,
        state,
        agent.zip ?? zip,
      ],
    )
    for (const sale of agent.sales) {
      await sql(
        `insert into public.properties (agent_id, address, city, state, zip_code, list_price, sale_price, sale_date, days_on_market, standard_status, status,
                                        co_list_agent_mls_id, buyer_agent_mls_id, co_buyer_agent_mls_id, property_type)
         values ($1, $2, $3, $4, $5, $6, $7, current_date - $8::integer, $9, 'Closed', 'sold', $10, $11, $12, $13)`,
        [
          row!.id,
          sale.address,
          city,
          state,
          agent.zip ?? zip,
          sale.listPrice,
          sale.salePrice,
          sale.daysAgo,
          sale.daysOnMarket,
          sale.coListMlsId ?? null,
          sale.buyerMlsId ?? null,
          sale.coBuyerMlsId ?? null,
          sale.propertyType ?? null,
        ],
      )
    }
    created.push({ ...agent, id: row!.id })
  }
  await sql(`select public.refresh_agent_metrics()`)
  return {
    agents: created,
    async remove() {
      const ids = created.map((agent) => agent.id)
      await sql(`delete from public.report_requests where agent_id = any($1)`, [ids])
      await sql(`delete from public.properties where agent_id = any($1)`, [ids])
      await sql(`delete from public.agents where id = any($1)`, [ids])
    },
  }
}

/** The agent row as stored after the refresh (numerics as numbers, dates as YYYY-MM-DD). */
export async function agentRow(id: string) {
  const [row] = await sql<Record<string, unknown>>(
    `select *, average_sale_to_list_ratio::float8 as avg_ratio, median_sale_to_list_ratio::float8 as median_ratio,
            average_days_on_market::float8 as avg_dom, median_days_on_market::float8 as median_dom,
            market_share::float8 as share, metrics_window_start::text as window_start, metrics_window_end::text as window_end
       from public.agents where id = $1`,
    [id],
  )
  return row!
}

/** The agent's figures row (public.agent_figures) as PostgREST would give it: numerics as numbers, dates as YYYY-MM-DD. */
export async function figuresRow(id: string): Promise<AgentFigures> {
  const [row] = await sql<Record<string, unknown>>(
    `select to_jsonb(f) as figures from public.agent_figures f where agent_id = $1`,
    [id],
  )
  if (!row) throw new Error(`agent ${id} has no figures`)
  return row.figures as AgentFigures
}

/**
 * Waits until the site serves the prerendered page of agent `id` (HTTP 200 from the built file; the on-demand
 * rendering that answers before the rebuild carries a Cache-Tag header): creating fixture agents fires the
 * data-change webhook, and the local builder rebuilds and swaps the site in (tests/support/e2e-site.ts).
 * @throws when the page is not live within `timeoutMs`.
 */
export async function waitForAgentPage(baseURL: string, id: string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const response = await fetch(`${baseURL}/agent/${id}`)
    await response.arrayBuffer()
    if (response.status === 200 && !response.headers.has('cache-tag')) return
    if (Date.now() > deadline)
      throw new Error(`/agent/${id} was not built within ${timeoutMs} ms (last status ${response.status})`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}
