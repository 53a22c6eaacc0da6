/**
 * refresh_agent_metrics() against a hand-computed fixture. Everything runs inside one transaction that is rolled
 * back, so the fixture leaves nothing behind and a concurrent refresh (an import test) cannot change what we read.
 * ZIPs 99901-99910 belong to this file only. Window: 24 months ending 2025-06-30 = 2023-07-01 .. 2025-06-30.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anonClient, signedInClient, testEnv } from '../support/env.ts'

const client = new pg.Client({ connectionString: testEnv.databaseUrl })
const run = Math.random().toString(36).slice(2, 8)
const ids: Record<string, string> = {}
type Metrics = Record<string, unknown>
const metrics: Record<string, Metrics> = {}
let window: { metrics_window_start: string; metrics_window_end: string; agents_updated: number }

async function agent(name: string) {
  const { rows } = await client.query<{ id: string }>(
    `insert into public.agents (name, mls_id) values ($1, $2) returning id`,
    [`Metrics ${name}`, `metrics-${run}-${name}`],
  )
  ids[name] = rows[0]!.id
}

/** A closed sale: [agent or null, zip, list price or null, close price, close date, days on market or null]. */
async function sale(
  who: string | null,
  zip: string,
  list: number | null,
  close: number | null,
  date: string,
  dom: number | null,
  status = 'Closed',
) {
  await client.query(
    `insert into public.properties (agent_id, address, zip_code, list_price, sale_price, sale_date, days_on_market, standard_status)
     values ($1, 'Fixture St', $2, $3, $4, $5, $6, $7)`,
    [who ? ids[who] : null, zip, list, close, date, dom, status],
  )
}

beforeAll(async () => {
  await client.connect()
  await client.query('begin')
  for (const name of ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H']) await agent(name)
  // A: five sales in 99901 (one without a list price, one on the first day of the window) and one in 99902
  await sale('A', '99901', 100000, 105000, '2025-06-30', 10)
  await sale('A', '99901', 200000, 190000, '2025-01-15', 20)
  await sale('A', '99901', 300000, 300000, '2024-05-01', 30)
  await sale('A', '99901', null, 400000, '2024-02-01', null)
  await sale('A', '99901', 250000, 255000, '2023-07-01', 40)
  await sale('A', '99902', 500000, 500000, '2024-03-01', 5)
  // not counted: a day before the window, a pending listing, a closed row without a price
  await sale('A', '99901', 100000, 900000, '2023-06-30', 1)
  await sale('A', '99901', 100000, 100000, '2025-01-01', 1, 'Pending')
  await sale('A', '99901', 100000, null, '2025-01-01', 1)
  // B: as many sales in 99901 as A, less volume, so ranked second
  for (let i = 0; i < 5; i += 1) await sale('B', '99901', 100000, 100000, '2024-09-01', 15)
  // C: a small sample; one sale in 99901 with no agent
  await sale('C', '99901', 400000, 380000, '2024-10-01', 60)
  await sale('C', '99901', 400000, 420000, '2024-11-01', 8)
  await sale(null, '99901', 300000, 310000, '2024-12-01', 12)
  // D: two ZIPs tied on count and volume: the lower ZIP is primary
  await sale('D', '99904', 300000, 300000, '2024-01-10', 9)
  await sale('D', '99903', 300000, 300000, '2024-01-11', 9)
  // E and F: tied on count and volume in 99905, so both rank 1
  for (let i = 0; i < 5; i += 1) {
    await sale('E', '99905', 200000, 200000, '2024-08-01', 7)
    await sale('F', '99905', 200000, 200000, '2024-08-01', 7)
  }
  // H: six sales in the window, but only two in the primary ZIP 99906 (one each in 99907-99910)
  for (const zip of ['99906', '99906', '99907', '99908', '99909', '99910'])
    await sale('H', zip, 300000, 300000, '2024-04-01', 9)
  await sale('B', '99906', 100000, 100000, '2024-04-01', 9)
  // G: only a sale before the window
  await sale('G', '99902', 200000, 200000, '2023-06-30', 7)
  await client.query(`update public.agents set average_sale_to_list_ratio = 99.5, total_sales = 40 where id = $1`, [
    ids.G,
  ])

  window = (
    await client.query(
      `select metrics_window_start::text, metrics_window_end::text, agents_updated from public.refresh_agent_metrics(24, '2025-06-30')`,
    )
  ).rows[0]
  const { rows } = await client.query(
    `select id, total_sales, average_sale_to_list_ratio::float8 as avg_ratio, median_sale_to_list_ratio::float8 as median_ratio,
            sale_to_list_sample_size, average_days_on_market::float8 as avg_dom, median_days_on_market::float8 as median_dom,
            days_on_market_sample_size, price_range_min::float8 as price_min, price_range_max::float8 as price_max,
            primary_zip_code, service_areas, local_ranking, total_agents_in_area, market_share::float8 as market_share,
            ranking_note, metrics_window_start::text, metrics_window_end::text
     from public.agents where id = any($1)`,
    [Object.values(ids)],
  )
  for (const [name, id] of Object.entries(ids)) metrics[name] = rows.find((row) => row.id === id)!
})

afterAll(async () => {
  await client.query('rollback')
  await client.end()
})

describe('refresh_agent_metrics', () => {
  it('reports the window: 24 months ending at the given date, both ends inclusive', () => {
    expect(window).toMatchObject({ metrics_window_start: '2023-07-01', metrics_window_end: '2025-06-30' })
    expect(metrics.A).toMatchObject({ metrics_window_start: '2023-07-01', metrics_window_end: '2025-06-30' })
  })

  it('computes sale-to-list and days on market with their own sample sizes', () => {
    // ratios 105, 95, 100, 102, 100 (the sale without a list price is left out); DOM 10, 20, 30, 40, 5
    expect(metrics.A).toMatchObject({
      total_sales: 6,
      avg_ratio: 100.4,
      median_ratio: 100,
      sale_to_list_sample_size: 5,
      avg_dom: 21,
      median_dom: 20,
      days_on_market_sample_size: 5,
      price_min: 105000,
      price_max: 500000,
    })
  })

  it('excludes the day before the window, pending listings and closed rows without a price', () => {
    expect(metrics.A!.total_sales).toBe(6)
    expect(metrics.A!.price_max).toBe(500000)
  })

  it('ranks within the primary ZIP by sales, breaking ties by volume, with market share of all sales there', () => {
    // 99901 in the window: A 5, B 5, C 2, no agent 1 = 13 sales, 3 agents
    expect(metrics.A).toMatchObject({
      primary_zip_code: '99901',
      service_areas: ['99901', '99902'],
      local_ranking: 1,
      total_agents_in_area: 3,
      market_share: 38.46,
      ranking_note: null,
    })
    expect(metrics.B).toMatchObject({
      primary_zip_code: '99901',
      local_ranking: 2,
      total_agents_in_area: 3,
      market_share: 38.46,
      avg_ratio: 100,
      median_dom: 15,
    })
  })

  it('gives equal ranks when sales and volume are tied', () => {
    expect(metrics.E).toMatchObject({ local_ranking: 1, total_agents_in_area: 2, market_share: 50 })
    expect(metrics.F).toMatchObject({ local_ranking: 1, total_agents_in_area: 2, market_share: 50 })
  })

  it('leaves agents with fewer than 5 sales unranked and says why', () => {
    expect(metrics.C).toMatchObject({
      total_sales: 2,
      local_ranking: null,
      total_agents_in_area: 3,
      market_share: 15.38,
      ranking_note: 'Fewer than 5 closed sales in 99901 in the window (2 there)',
      avg_ratio: 100,
      median_ratio: 100,
    })
  })

  it('ranks an agent in a ZIP only with at least 5 closed sales there, whatever their sales elsewhere', () => {
    // H has 6 sales in the window but 2 in 99906 (ahead of B's 1 there): no "#1 of 2" on 2 local sales
    expect(metrics.H).toMatchObject({
      total_sales: 6,
      primary_zip_code: '99906',
      total_agents_in_area: 2,
      local_ranking: null,
      ranking_note: 'Fewer than 5 closed sales in 99906 in the window (2 there)',
    })
  })

  it('picks the lowest ZIP when two ZIPs tie on sales and volume', () => {
    expect(metrics.D).toMatchObject({
      primary_zip_code: '99903',
      service_areas: ['99903', '99904'],
      total_agents_in_area: 1,
      market_share: 100,
      local_ranking: null,
    })
  })

  it('clears typed-in figures of an agent without sales in the window', () => {
    expect(metrics.G).toMatchObject({
      total_sales: 0,
      avg_ratio: null,
      sale_to_list_sample_size: 0,
      price_min: null,
      primary_zip_code: null,
      service_areas: [],
      local_ranking: null,
      market_share: null,
      ranking_note: 'No closed sales in the window',
    })
  })

  it('cannot be called by visitors or signed-in users', async () => {
    const anon = await anonClient().rpc('refresh_agent_metrics', { window_months: 24 })
    expect(anon.error?.code).toBe('42501')
    const { client: user } = await signedInClient()
    const signedIn = await user.rpc('refresh_agent_metrics', { window_months: 24 })
    expect(signedIn.error?.code).toBe('42501')
  })
})
