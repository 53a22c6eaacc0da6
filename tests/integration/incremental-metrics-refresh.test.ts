/**
 * The incremental metrics refresh writes what the full refresh writes. Inside one REPEATABLE READ transaction (so no
 * other file's change lands between the refreshes, and all is rolled back): a full refresh, then sales added with a
 * co-agent and a buyer agent, a price changed, a sale moved to another ZIP, a sale deleted, a buyer agent replaced, a
 * ZIP benchmark written, an agent added and one deleted, two sales deleted so that an agent's primary ZIP becomes one
 * no sale of the day is in, where another agent outranks it (and an agent of a changed ZIP keeps the ZIP of its other
 * sale, which nothing reached, among its service areas); then the incremental refresh, which must recompute only some
 * agents; then a full refresh over the same data, which must find nothing to change in agent_figures, agent_zip_sales,
 * zip_sales_coverage and the agents' figure columns. The incremental refresh must also recompute the touched ZIP pages
 * once (not once per table it writes). The window is fixed (24 months ending 2025-06-30) so the data of
 * other files does not move it.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testEnv } from '../support/env.ts'
import { clientDb, insertAgents, insertSales, unusedZip } from '../support/factories.ts'

const client = new pg.Client({ connectionString: testEnv.databaseUrl })
const db = clientDb(client)
const run = Math.random().toString(36).slice(2, 8)
const windowEnd = '2025-06-30'

type Refresh = { agents_updated: number; refresh_kind: string; agents_recomputed: number }
/** Every row the refresh writes, without the write stamps, as JSON text: one set per table. */
const snapshot = `
  select 'agent_figures' as source, (to_jsonb(f) - 'updated_at')::text as row from public.agent_figures f
  union all
  select 'agent_zip_sales', to_jsonb(s)::text from public.agent_zip_sales s
  union all
  select 'zip_sales_coverage', (to_jsonb(c) - 'updated_at')::text from public.zip_sales_coverage c
  union all
  select 'agents', jsonb_build_array(a.id, a.total_sales, a.average_sale_to_list_ratio, a.median_sale_to_list_ratio,
           a.sale_to_list_sample_size, a.average_days_on_market, a.median_days_on_market, a.days_on_market_sample_size,
           a.price_range_min, a.price_range_max, a.primary_zip_code, a.total_agents_in_area, a.local_ranking,
           a.market_share, a.service_areas, a.ranking_note, a.metrics_window_start, a.metrics_window_end)::text
  from public.agents a`

let incremental: Refresh
let full: Refresh
let agentCount = 0
let differences: Array<{ source: string; row: string; side: string }> = []
let alpha: Record<string, unknown> = {}
let lambda: Record<string, unknown> = {}
let lambdaZip = ''
let zipPageTouches: Record<string, number> = {}

async function refresh(full: boolean): Promise<Refresh> {
  const { rows } = await client.query<Refresh>(
    `select agents_updated, refresh_kind, agents_recomputed from public.refresh_agent_metrics(24, $1, $2)`,
    [windowEnd, full],
  )
  return rows[0]!
}

async function scenario() {
  const [zip1, zip2, zip3] = [await unusedZip(db), await unusedZip(db), await unusedZip(db)]
  const [zip6, zip7, zip8] = [await unusedZip(db), await unusedZip(db), await unusedZip(db)]
  const names = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta', 'Kappa', 'Iota', 'Lambda', 'Mu'] as const
  const agents = await insertAgents(
    names.map((name) => ({ name: `Incremental ${name} ${run}`, mlsId: `incr-${run}-${name}` })),
    db,
  )
  const id = Object.fromEntries(names.map((name, index) => [name, agents[index]!])) as Record<
    (typeof names)[number],
    string
  >
  const sale = (agent: string, zip: string, n: number, extra: Record<string, unknown> = {}) => ({
    agentId: agent,
    address: `${n} Incremental Way ${run}`,
    zip,
    listPrice: 400_000 + n * 1_000,
    salePrice: 410_000 + n * 1_500,
    saleDate: `2025-0${(n % 5) + 1}-1${n % 9}`,
    daysOnMarket: 10 + n,
    standardStatus: 'Closed',
    ...extra,
  })
  // the data the first state rests on: every agent with sales in the three ZIPs, Eta as a buyer agent
  const sales = await insertSales(
    [
      ...[1, 2, 3, 4, 5, 6].map((n) => sale(id.Alpha, zip1, n)),
      ...[7, 8, 9].map((n) => sale(id.Beta, zip1, n, { buyerAgentMlsId: `incr-${run}-Eta` })),
      ...[10, 11, 12, 13, 14].map((n) => sale(id.Gamma, zip2, n)),
      ...[15, 16, 17].map((n) => sale(id.Delta, zip2, n)),
      ...[18, 19].map((n) => sale(id.Epsilon, zip3, n)),
      ...[20, 21, 22, 23, 24].map((n) => sale(id.Zeta, zip3, n)),
      sale(id.Kappa, zip3, 25),
      // Iota: recomputed with zip1 (its primary ZIP) but not changed, with a sale in a ZIP nothing reaches, which its
      // service areas must keep
      ...[26, 27, 28].map((n) => sale(id.Iota, zip1, n)),
      sale(id.Iota, zip6, 29),
      // Lambda: three sales in zip7 (its primary ZIP) and two in zip8, where Mu has three
      ...[40, 41, 42].map((n) => sale(id.Lambda, zip7, n)),
      ...[43, 44].map((n) => sale(id.Lambda, zip8, n)),
      ...[45, 46, 47].map((n) => sale(id.Mu, zip8, n)),
    ],
    db,
  )
  // bystanders: forty agents in two other ZIPs no change reaches (more than a fifth of the agents changed would make
  // the refresh a full one, and on a fresh stack these are most of the agents)
  const [zip4, zip5] = [await unusedZip(db), await unusedZip(db)]
  const bystanders = await insertAgents(
    Array.from({ length: 40 }, (_, index) => ({ name: `Incremental Bystander ${index} ${run}` })),
    db,
  )
  await insertSales(
    bystanders.map((agent, index) => sale(agent, index % 2 ? zip4 : zip5, 100 + index)),
    db,
  )
  await refresh(true)
  agentCount = Number((await client.query(`select count(*) from public.agents`)).rows[0].count)

  // the changes of a daily import, each reaching other agents: a new sale (Alpha, co-listed by Beta, bought by Eta);
  // a price (Gamma's); a sale moved to another ZIP (Delta's); a sale deleted (Zeta's); a buyer agent replaced (Eta by
  // Kappa on Beta's sale); a benchmark for the ZIP of half the bystanders; an agent added and one deleted
  await insertSales(
    [sale(id.Alpha, zip1, 30, { coListAgentMlsId: `incr-${run}-Beta`, buyerAgentMlsId: `incr-${run}-Eta` })],
    db,
  )
  await client.query(`update public.properties set sale_price = sale_price + 25000 where id = $1`, [sales[10]])
  await client.query(`update public.properties set zip_code = $2 where id = $1`, [sales[15], zip3])
  await client.query(`delete from public.properties where id = $1`, [sales[20]])
  // two of Lambda's zip7 sales deleted: its primary ZIP becomes zip8, which nothing else reached, where it is second
  await client.query(`delete from public.properties where id = any($1)`, [[sales[29], sales[30]]])
  await client.query(`update public.properties set buyer_agent_mls_id = $2 where id = $1`, [
    sales[6],
    `incr-${run}-Kappa`,
  ])
  await client.query(
    `insert into public.zip_market_benchmarks (zip_code, city, state, period_end, avg_sale_to_list_fraction, median_dom)
     values ($1, 'Incremental', 'VT', '2025-06-30', 1.0123, 21)`,
    [zip5],
  )
  await insertAgents([{ name: `Incremental Theta ${run}`, mlsId: `incr-${run}-Theta` }], db)
  await client.query(`delete from public.agents where id = $1`, [id.Epsilon])

  // count the page-tracking calls of the incremental refresh alone (this transaction's function statistics)
  await client.query(`set local track_functions = 'pl'`)
  incremental = await refresh(false)
  zipPageTouches = Object.fromEntries(
    (
      await client.query<{ funcname: string; calls: string }>(
        `select funcname, calls from pg_stat_xact_user_functions
          where schemaname = 'private' and funcname in ('touch_zip_pages', 'touch_zip_pages_now')`,
      )
    ).rows.map((row) => [row.funcname, Number(row.calls)]),
  )
  alpha = (
    await client.query(`select listing_sales, buyer_sales from public.agent_figures where agent_id = $1`, [id.Alpha])
  ).rows[0]
  lambda = (
    await client.query(
      `select f.primary_zip_code, f.zip_agents, a.primary_zip_code as listing_zip_code, a.total_agents_in_area
         from public.agent_figures f join public.agents a on a.id = f.agent_id
        where f.agent_id = $1`,
      [id.Lambda],
    )
  ).rows[0]
  lambdaZip = zip8
  await client.query(`create temp table incremental_rows on commit drop as ${snapshot}`)
  full = await refresh(true)
  differences = (
    await client.query(
      `(select source, row, 'only after the incremental refresh' as side from incremental_rows
        except select source, row, 'only after the incremental refresh' from (${snapshot}) f)
       union all
       (select source, row, 'only after the full refresh' from (${snapshot}) f
        except select source, row, 'only after the full refresh' from incremental_rows)
       order by 1, 3, 2 limit 20`,
    )
  ).rows
}

beforeAll(async () => {
  await client.connect()
  // no other file's refresh runs meanwhile: this session holds the refresh's lock (its own refreshes take it again)
  // from before the transaction's snapshot to its end
  await client.query(`select pg_advisory_lock(hashtext('public.refresh_agent_metrics'))`)
  try {
    // another file may still commit a row this transaction then writes too (an agent edited): begin again, up to five
    // times
    for (let attempt = 1; ; attempt += 1) {
      await client.query('begin isolation level repeatable read')
      try {
        await scenario()
        await client.query('rollback')
        return
      } catch (error) {
        await client.query('rollback')
        if ((error as { code?: string }).code !== '40001' || attempt === 5) throw error
      }
    }
  } finally {
    await client.query(`select pg_advisory_unlock(hashtext('public.refresh_agent_metrics'))`)
  }
}, 240_000)

afterAll(async () => {
  await client.end()
})

describe('the incremental metrics refresh', () => {
  it('recomputes only the agents a change reaches', () => {
    expect(incremental.refresh_kind).toBe('incremental')
    expect(incremental.agents_recomputed).toBeGreaterThan(0)
    // the changed agents and those of the changed ZIPs, not the twenty bystanders of the ZIP nothing reached
    expect(incremental.agents_recomputed).toBeLessThanOrEqual(agentCount - 20)
    expect(incremental.agents_updated).toBeGreaterThan(0)
    // Alpha's new sale is counted
    expect(alpha).toEqual({ listing_sales: 7, buyer_sales: 0 })
    // Lambda's new primary ZIP, where no sale changed, is ranked whole: Mu counts there
    expect(lambda).toEqual({
      primary_zip_code: lambdaZip,
      zip_agents: 2,
      listing_zip_code: lambdaZip,
      total_agents_in_area: 2,
    })
  })

  it('gives the ZIP pages their new versions once, after all its writes', () => {
    // the tables the refresh writes ask for their ZIP pages' rankings (here the coverage and the per-ZIP summary);
    // the rankings and first 25 are recomputed once, at the end
    expect(zipPageTouches.touch_zip_pages).toBeGreaterThanOrEqual(2)
    expect(zipPageTouches.touch_zip_pages_now).toBe(1)
  })

  it('writes what the full refresh writes over the same data', () => {
    expect(full.refresh_kind).toBe('full')
    expect(differences).toEqual([])
    expect(full.agents_updated).toBe(0)
  })
})
