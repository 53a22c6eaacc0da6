/**
 * A "wrong price or date" correction, filed by the agent who claimed the profile and accepted by an administrator
 * through agent-review: the corrected ClosePrice, CloseDate and ListPrice reach every figure of every agent with a side
 * of the sale, the sales behind each figure (whose CSV recomputes the stored figure, @shared/figure-math.ts) and the
 * agent page's recent sales, also after a later full metrics refresh, while the raw public.properties row stays as the
 * feed sent it; the pages of both agents get new versions. Agents and sales are written through the test-data factory
 * in a ZIP of this file's own, dated in the last weeks so they fall in the metrics window whoever refreshed last.
 */
import { parse } from 'csv-parse/sync'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recomputeFigure, type FigureSaleInput } from '@shared/figure-math.ts'
import { figureSalesCsv } from '@shared/figure-sales-csv.ts'
import {
  AgentFigureSalesSchema,
  figureValue,
  type AgentFigureSales,
  type AgentFigures,
  type FigureMetric,
} from '@shared/figures-contract.ts'
import { METRICS } from '@shared/methodology.ts'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { serviceClient, signedInClient, sql, testEnv } from '../support/env.ts'
import { testData } from '../support/factories.ts'

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
const source = `price-corrections-${run}`
const data = testData('agent-claims-price')
let owner: Awaited<ReturnType<typeof signedInClient>>
let adminToken = ''
let me = ''
let buyerAgent = ''
const saleIds: string[] = []

afterAll(async () => {
  await data.cleanup()
})

const isoDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)

async function review(body: Record<string, unknown>) {
  const response = await fetchFrom(freshLoopback(), `${testEnv.url}/functions/v1/agent-review`, {
    method: 'POST',
    headers: { apikey: testEnv.anonKey, Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** The stored figures of an agent and the sales behind one figure, read in one statement (as anon, like a visitor). */
async function figureAndSales(agentId: string, metric: FigureMetric) {
  const [answer] = await sql<{ sales: unknown; figures: AgentFigures }>(
    `select public.agent_figure_sales($1, $2) as sales, to_jsonb(f) as figures
       from (select set_config('role', 'anon', true) offset 0) as as_anon, public.agent_figures f
      where f.agent_id = $1`,
    [agentId, metric],
  )
  return { figures: answer!.figures, sales: AgentFigureSalesSchema.parse(answer!.sales) }
}

/** The CSV of the sales behind a figure, as a spreadsheet reads it back. */
function csvRows(sales: AgentFigureSales) {
  const columns = parse(figureSalesCsv(sales), { columns: true }) as Record<string, string>[]
  const number = (cell: string) => (cell === '' ? null : Number(cell))
  const rows: FigureSaleInput[] = columns.map((cell) => ({
    property_id: `${cell.source}|${cell.source_record_id}`,
    side: cell.side as 'listing' | 'buyer',
    credit: Number(cell.credit),
    dual_agency: cell.dual_agency === 'yes',
    list_price: number(cell.list_price!),
    close_price: Number(cell.close_price),
    credited_volume: Number(cell.credited_volume),
    days_on_market: number(cell.days_on_market!),
  }))
  return { columns, rows }
}

/** Each figure recomputed from its CSV equals the stored figure (at its decimals); returns the CSV of the last. */
async function expectCsvRecomputes(agentId: string, metrics: FigureMetric[]) {
  let last: Record<string, string>[] = []
  for (const metric of metrics) {
    const { figures, sales } = await figureAndSales(agentId, metric)
    const { columns, rows } = csvRows(sales)
    const recomputed = recomputeFigure(metric, rows, {
      prior: columns[0]?.zip_mean_sale_to_list ? Number(columns[0].zip_mean_sale_to_list) : null,
      shrinkK: columns[0]?.shrink_k ? Number(columns[0].shrink_k) : null,
    })
    const stored = figureValue(figures, metric)
    expect(sales.value, metric).toBe(stored)
    expect(Math.abs(recomputed.value! - stored!), metric).toBeLessThanOrEqual(
      0.5 * 10 ** -METRICS[metric].decimals + 1e-9,
    )
    last = columns
  }
  return last
}

const pageVersion = async (agentId: string) =>
  BigInt(
    (
      await sql<{ version: string }>(`select version::text from public.agent_page_versions where agent_id = $1`, [
        agentId,
      ])
    )[0]?.version ?? '0',
  )

const rawRow = async (id: string) =>
  sql(`select to_jsonb(p) - 'updated_at' as row from public.properties p where p.id = $1`, [id])

beforeAll(async () => {
  const zip = await data.zip()
  me = await data.agent({ name: 'Price Owner', mlsId: `price-${run}-owner`, email: `price-${run}@example.com` })
  const buyerMlsId = `price-${run}-buyer`
  buyerAgent = await data.agent({ name: 'Price Buyer', mlsId: buyerMlsId })
  const prices = [
    [400_000, 400_000],
    [500_000, 490_000],
    [600_000, 612_000],
    [700_000, 700_000],
  ] as const
  for (const [index, [listPrice, salePrice]] of prices.entries()) {
    saleIds.push(
      await data.sale({
        agentId: me,
        address: `${index + 1} Price Ave`,
        city: 'Fresno',
        state: 'CA',
        zip,
        listPrice,
        salePrice,
        daysAgo: 10 + index * 2,
        daysOnMarket: 20 + index,
        source,
        sourceRecordId: `${run}-${index + 1}`,
        buyerAgentMlsId: index === 1 ? buyerMlsId : null,
      }),
    )
  }
  const { error } = await serviceClient().rpc('refresh_agent_metrics', {})
  if (error) throw error
  owner = await signedInClient()
  const admin = await signedInClient({ admin: true })
  adminToken = (await admin.client.auth.getSession()).data.session!.access_token
  await sql(
    `insert into public.agent_claims (agent_id, user_id, status, method, approved_at) values ($1, $2, 'approved', 'admin', now())`,
    [me, owner.userId],
  )
})

describe('a "wrong price or date" correction', () => {
  it('changes the figures, the sales behind them and the recent sales once accepted, never the raw row', async () => {
    const sale = saleIds[1]!
    const before = await figureAndSales(me, 'sale_to_list_mean')
    expect(before.figures.sale_to_list_mean).toBe(100) // (100 + 98 + 102 + 100) / 4
    const rawBefore = await rawRow(sale)
    const correctedDate = isoDaysAgo(8)

    const filed = await owner.client
      .from('agent_corrections')
      .insert({
        agent_id: me,
        kind: 'wrong_price_date',
        listing_number: `${run}-2`,
        close_price: 515_000,
        close_date: correctedDate,
        list_price: 505_000,
        explanation: 'The MLS has the pre-negotiation figures.',
      })
      .select('id, property_id, recorded_close_price, recorded_list_price, close_price, list_price')
      .single()
    expect(filed.error).toBeNull()
    expect(filed.data).toEqual({
      id: expect.any(String),
      property_id: sale,
      recorded_close_price: 490000,
      recorded_list_price: 500000,
      close_price: 515000,
      list_price: 505000,
    })
    // pending: nothing changes
    expect((await figureAndSales(me, 'sale_to_list_mean')).figures.sale_to_list_mean).toBe(100)

    const versions = [await pageVersion(me), await pageVersion(buyerAgent)]
    const accepted = await review({ subject: 'correction', id: filed.data!.id, decision: 'accept' })
    expect(accepted.status).toBe(200)
    // a later full refresh keeps the correction applied
    expect((await serviceClient().rpc('refresh_agent_metrics', {})).error).toBeNull()

    // sale-to-list of the corrected sale: 515,000 / 505,000 x 100 = 101.98 %
    const after = await figureAndSales(me, 'sale_to_list_mean')
    expect(after.figures.sale_to_list_mean).toBe(101) // (100 + 101.980198 + 102 + 100) / 4 = 100.995
    expect(after.figures.listing_volume).toBe(400_000 + 515_000 + 612_000 + 700_000)
    const csv = await expectCsvRecomputes(me, [
      'sale_to_list_mean',
      'sale_to_list_median',
      'sale_to_list_shrunk',
      'listing_volume',
      'listing_price_min',
    ])
    expect(csv.find((row) => row.source_record_id === `${run}-2`)).toMatchObject({
      close_date: correctedDate,
      list_price: '505000',
      close_price: '515000',
      sale_to_list: '101.9802',
    })
    // the buyer agent's figures use the corrected sale too
    await expectCsvRecomputes(buyerAgent, ['buyer_volume', 'buyer_paid_to_list_mean'])
    expect((await figureAndSales(buyerAgent, 'buyer_volume')).figures.buyer_volume).toBe(515_000)

    // the profile's recent sales show the corrected values, and both pages get new versions
    const { data: recent } = await serviceClient().rpc('agent_page_sales', { agent_ids: [me], max_per_agent: 10 })
    expect(recent!.find((row) => row.id === sale)).toMatchObject({
      close_price: 515000,
      list_price: 505000,
      close_date: correctedDate,
    })
    expect(await pageVersion(me)).toBeGreaterThan(versions[0]!)
    expect(await pageVersion(buyerAgent)).toBeGreaterThan(versions[1]!)
    // visitors see what was corrected, beside what our data had
    const { data: marks } = await serviceClient().rpc('agent_sale_corrections', { agent_ids: [me] })
    expect(marks).toEqual([
      expect.objectContaining({
        kind: 'wrong_price_date',
        property_id: sale,
        close_price: 515000,
        recorded_close_price: 490000,
        list_price: 505000,
        recorded_list_price: 500000,
      }),
    ])

    // the raw listing is as the feed sent it
    expect(await rawRow(sale)).toEqual(rawBefore)
  })

  it('refuses a correction that changes nothing, naming the field', async () => {
    const { error } = await owner.client.from('agent_corrections').insert({
      agent_id: me,
      kind: 'wrong_price_date',
      listing_number: `${run}-4`,
      close_price: 700_000,
      list_price: 700_000,
    })
    expect(error?.message).toBe('closePrice: That is the close price, close date and list price we have already.')
  })

  it('waits for a running metrics refresh before writing, so the two cannot deadlock', async () => {
    const filed = await owner.client
      .from('agent_corrections')
      .insert({ agent_id: me, kind: 'wrong_price_date', listing_number: `${run}-3`, close_price: 610_000 })
      .select('id')
      .single()
    expect(filed.error).toBeNull()
    // a refresh of another session is running: it holds the refresh lock and will give this agent's page a version
    const refresh = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    await refresh.connect()
    try {
      await refresh.query('begin')
      await refresh.query(`select pg_advisory_xact_lock(hashtext('public.refresh_agent_metrics'))`)
      const decision = review({ subject: 'correction', id: filed.data!.id, decision: 'accept' })
      const waiting = async () =>
        (
          await sql<{ n: number }>(
            `select count(*)::integer as n from pg_catalog.pg_locks where locktype = 'advisory' and not granted`,
          )
        )[0]!.n
      for (let tries = 0; (await waiting()) === 0; tries += 1) {
        if (tries === 100) throw new Error('the decision never waited for the refresh lock')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      // the refresh writes the page the decision touches; had the decision written it first, one of the two would
      // now be cancelled as a deadlock
      await refresh.query(`select private.bump_agent_pages(array[$1]::uuid[])`, [me])
      await refresh.query('commit')
      const accepted = await decision
      expect(accepted.status).toBe(200)
      expect(accepted.body.decided).toMatchObject({ status: 'accepted' })
    } finally {
      await refresh.query('rollback').catch(() => undefined)
      await refresh.end()
    }
  })
})
