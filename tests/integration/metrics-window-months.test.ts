/**
 * The metrics window is whole calendar months, so a live feed's day stays incremental. Inside one REPEATABLE READ
 * transaction under the refresh's lock (rolled back, so no other file's change lands between the refreshes):
 * - a full refresh at data date 2025-06-14: the window is July 2023 to June 2025, and every written row carries the
 *   data date;
 * - a day as a real feed brings it: one new sale that closed the next day (2025-06-15), refreshed at that data date.
 *   The window stays, the refresh is incremental, the changed agent's figures and page move to the new data date, and
 *   an agent the day did not reach keeps its figures row, its data date and its page version;
 * - the first sale of a new month (2025-07-01): the window moves a month (a full refresh), and a sale that closed in
 *   the window's first month, July 2023, drops out;
 * - before any refresh (no agent refreshed), the search's window is the same whole months, counted from the latest
 *   close date;
 * - the data date a refresh finds by itself (private.latest_close_date(), read from an index) is the latest close date
 *   as accepted corrections say: a correction can move the newest sale earlier or an older one past it.
 * The data dates are given to the refresh (as the newest close date of the day would be) so that other files' sales,
 * some with later close dates, do not move them.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testEnv } from '../support/env.ts'
import { clientDb, insertAgents, insertSales, unusedZip } from '../support/factories.ts'

const client = new pg.Client({ connectionString: testEnv.databaseUrl })
const db = clientDb(client)
const run = Math.random().toString(36).slice(2, 8)

type Refresh = {
  metrics_window_start: string
  metrics_window_end: string
  refresh_kind: string
  agents_recomputed: number
}
type AgentState = {
  listing_sales: number
  window_start: string
  window_end: string
  data_date: string
  figures_updated_at: string
  page_version: string
}
type LatestRefresh = { window_start: string; window_end: string; data_date: string; methodology_version: string }

const states: Record<'first' | 'day' | 'month', { refresh: Refresh; latest: LatestRefresh; agents: AgentState[] }> =
  {} as never
/** What the search reads as the window before any refresh, and the latest close date it was taken from. */
let beforeAnyRefresh: { window_start: string; window_end: string; latest_close: string }

async function refresh(dataDate: string, full = false): Promise<Refresh> {
  const { rows } = await client.query<Refresh>(
    `select metrics_window_start::text, metrics_window_end::text, refresh_kind, agents_recomputed
       from public.refresh_agent_metrics(24, $1, $2)`,
    [dataDate, full],
  )
  return rows[0]!
}

async function agentStates(ids: string[]): Promise<AgentState[]> {
  const { rows } = await client.query<AgentState & { agent_id: string }>(
    `select f.agent_id, f.listing_sales, f.window_start::text, f.window_end::text, f.data_date::text,
            f.updated_at::text as figures_updated_at, v.version::text as page_version
       from public.agent_figures f join public.agent_page_versions v on v.agent_id = f.agent_id
      where f.agent_id = any($1)`,
    [ids],
  )
  return ids.map((id) => {
    const { agent_id: _id, ...state } = rows.find((row) => row.agent_id === id)!
    return state
  })
}

async function latestRefresh(): Promise<LatestRefresh> {
  const { rows } = await client.query<LatestRefresh>(
    `select window_start::text, window_end::text, data_date::text, methodology_version
       from public.figures_refreshes order by refreshed_at desc, id desc limit 1`,
  )
  return rows[0]!
}

async function scenario() {
  const [zipA, zipB] = [await unusedZip(db), await unusedZip(db)]
  const [daily, still] = await insertAgents(
    [
      { name: `Window Daily ${run}`, mlsId: `window-${run}-daily` },
      { name: `Window Still ${run}`, mlsId: `window-${run}-still` },
    ],
    db,
  )
  const sale = (agent: string, zip: string, n: number, saleDate: string) => ({
    agentId: agent,
    address: `${n} Window Way ${run}`,
    zip,
    listPrice: 500_000 + n * 1_000,
    salePrice: 505_000 + n * 1_000,
    saleDate,
    daysOnMarket: 12 + n,
    standardStatus: 'Closed',
  })
  await insertSales(
    [
      ...[1, 2, 3, 4, 5].map((n) => sale(daily!, zipA, n, `2025-0${n}-10`)),
      // the still agent's oldest sale closed in the first month of the July 2023 - June 2025 window
      sale(still!, zipB, 6, '2023-07-15'),
      ...[7, 8, 9, 10].map((n) => sale(still!, zipB, n, `2025-0${n - 5}-20`)),
    ],
    db,
  )
  // bystanders in a ZIP of their own: more than a fifth of the agents changed would make any refresh a full one, and
  // on a fresh stack these are most of the agents
  const bystanders = await insertAgents(
    Array.from({ length: 20 }, (_, index) => ({ name: `Window Bystander ${index} ${run}` })),
    db,
  )
  const zipC = await unusedZip(db)
  await insertSales(
    bystanders.map((agent, index) => sale(agent, zipC, 100 + index, '2025-05-05')),
    db,
  )
  const ids = [daily!, still!]

  states.first = { refresh: await refresh('2025-06-14', true), latest: await latestRefresh(), agents: [] }
  states.first.agents = await agentStates(ids)

  // a feed's day: one sale that closed the day after the newest close date
  await insertSales([sale(daily!, zipA, 11, '2025-06-15')], db)
  states.day = { refresh: await refresh('2025-06-15'), latest: await latestRefresh(), agents: [] }
  states.day.agents = await agentStates(ids)

  // the first sale of a new month
  await insertSales([sale(daily!, zipA, 12, '2025-07-01')], db)
  states.month = { refresh: await refresh('2025-07-01'), latest: await latestRefresh(), agents: [] }
  states.month.agents = await agentStates(ids)

  // the search's window before any refresh (no agent refreshed yet): counted from the data the same way
  await client.query('update public.agents set metrics_refreshed_at = null where metrics_refreshed_at is not null')
  const { rows } = await client.query<typeof beforeAnyRefresh>(
    `select w.window_start::text, w.window_end::text,
            (select max(p.sale_date)::text from public.properties p
              where p.standard_status = 'Closed' and p.sale_price > 0) as latest_close
       from public.search_metrics_window() w`,
  )
  beforeAnyRefresh = rows[0]!
}

beforeAll(async () => {
  await client.connect()
  // no other file's refresh runs meanwhile: this session holds the refresh's lock (its own refreshes take it again)
  await client.query(`select pg_advisory_lock(hashtext('public.refresh_agent_metrics'))`)
  try {
    // another file may still commit a row this transaction then writes too: begin again, up to five times
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

/** private.latest_close_date() and max(sale_date) over private.effective_sales, in this transaction. */
async function latestCloseDates(): Promise<{ fast: string | null; full: string | null }> {
  const { rows } = await client.query<{ fast: string | null; full: string | null }>(
    `select private.latest_close_date()::text as fast,
            (select max(e.sale_date)::text from private.effective_sales e
              where e.standard_status = 'Closed' and e.sale_price > 0) as full`,
  )
  return rows[0]!
}

describe('the metrics window in whole calendar months', () => {
  it('runs over the 24 calendar months ending with the data date’s month, and keeps the data date apart', () => {
    const { refresh, latest, agents } = states.first
    expect(refresh).toMatchObject({ metrics_window_start: '2023-07-01', metrics_window_end: '2025-06-30' })
    expect(latest).toEqual({
      window_start: '2023-07-01',
      window_end: '2025-06-30',
      data_date: '2025-06-14',
      methodology_version: '4',
    })
    expect(
      agents.map(({ listing_sales, window_start, window_end, data_date }) => [
        listing_sales,
        window_start,
        window_end,
        data_date,
      ]),
    ).toEqual([
      [5, '2023-07-01', '2025-06-30', '2025-06-14'],
      [5, '2023-07-01', '2025-06-30', '2025-06-14'],
    ])
  })

  it('refreshes a feed’s day incrementally: only the agent the day reached moves to the new data date', () => {
    const { refresh, latest, agents } = states.day
    expect(refresh).toMatchObject({
      refresh_kind: 'incremental',
      metrics_window_start: '2023-07-01',
      metrics_window_end: '2025-06-30',
    })
    expect(latest).toMatchObject({ window_end: '2025-06-30', data_date: '2025-06-15' })
    const [daily, still] = agents
    const [dailyBefore, stillBefore] = states.first.agents
    expect(daily).toMatchObject({ listing_sales: 6, data_date: '2025-06-15' })
    expect(BigInt(daily!.page_version)).toBeGreaterThan(BigInt(dailyBefore!.page_version))
    // the agent the day did not reach: the same row, data date and page
    expect(still).toEqual(stillBefore)
  })

  it('moves the window a month with the first sale of a new month', () => {
    const { refresh, latest, agents } = states.month
    expect(refresh).toMatchObject({
      refresh_kind: 'full',
      metrics_window_start: '2023-08-01',
      metrics_window_end: '2025-07-31',
    })
    expect(latest).toMatchObject({ window_start: '2023-08-01', window_end: '2025-07-31', data_date: '2025-07-01' })
    const [daily, still] = agents
    expect(daily).toMatchObject({ listing_sales: 7, window_end: '2025-07-31', data_date: '2025-07-01' })
    // the July 2023 sale left the window
    expect(still).toMatchObject({ listing_sales: 4, window_start: '2023-08-01', data_date: '2025-07-01' })
    expect(BigInt(still!.page_version)).toBeGreaterThan(BigInt(states.day.agents[1]!.page_version))
  })

  it('gives the search the same whole months before any refresh, from the latest close date', () => {
    const { window_start, window_end, latest_close } = beforeAnyRefresh
    // the month of the latest close date (other files' sales may close later than this file's)
    const [year, month] = latest_close.split('-').map(Number) as [number, number]
    const iso = (date: Date) => date.toISOString().slice(0, 10)
    expect(window_end).toBe(iso(new Date(Date.UTC(year, month, 0))))
    expect(window_start).toBe(iso(new Date(Date.UTC(year, month - 24, 1))))
  })

  it('finds the data date from the index as the corrections say', async () => {
    // one snapshot: a sale another file commits meanwhile cannot move the latest date between the reads
    await client.query('begin isolation level repeatable read')
    try {
      const before = await latestCloseDates()
      expect(before.fast).toBe(before.full)
      const day = (days: number) => {
        // (a stack without closed sales yet counts from today)
        const date = new Date(`${before.full ?? new Date().toISOString().slice(0, 10)}T00:00:00Z`)
        date.setUTCDate(date.getUTCDate() + days)
        return date.toISOString().slice(0, 10)
      }
      const [agent] = await insertAgents([{ name: `Window Latest ${run}` }], db)
      const zip = await unusedZip(db)
      const sale = (n: number, saleDate: string, standardStatus = 'Closed') => ({
        agentId: agent!,
        address: `${n} Latest Lane ${run}`,
        zip,
        listPrice: 400_000,
        salePrice: 404_000,
        saleDate,
        daysOnMarket: 20,
        standardStatus,
      })
      const [newest, older] = await insertSales([sale(1, day(30)), sale(2, day(10)), sale(3, day(90), 'Active')], db)
      expect(await latestCloseDates()).toEqual({ fast: day(30), full: day(30) })
      // accepted corrections as private.agent_sale_overrides holds them (their correction rows are not needed for
      // the date, so the foreign keys are left unchecked in this rolled-back transaction)
      await client.query(`set local session_replication_role = replica`)
      // the newest sale closed earlier than the feed said, and the older one later than every other
      await client.query(
        `insert into private.agent_sale_overrides (correction_id, property_id, close_date)
         values (gen_random_uuid(), $1, $2), (gen_random_uuid(), $3, $4)`,
        [newest, day(5), older, day(20)],
      )
      expect(await latestCloseDates()).toEqual({ fast: day(20), full: day(20) })
    } finally {
      await client.query('rollback')
    }
  })
})
