/**
 * "The sales behind this figure": for 50 demo agents (with buyer sides, co-agents and dual agency) and every figure,
 * public.agent_figure_sales() called as a visitor returns the stored figure and its sales; the downloadable CSV built
 * from them (@shared/figure-sales-csv.ts), parsed back like a spreadsheet would, recomputes the figure, its n and its
 * interval (@shared/figure-math.ts, written apart from the SQL). Also: the SQL's definitions and version are the
 * methodology module's, the function's bounds and errors, and that visitors still cannot read sales directly.
 * The demo rows use a per-run source and id prefix; afterAll removes them.
 */
import { parse } from 'csv-parse/sync'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedDemo } from '../../scripts/lib/demo/seed.ts'
import { recomputeFigure, medianIntervalRank, tQuantile975, type FigureSaleInput } from '@shared/figure-math.ts'
import { figureSalesCsv } from '@shared/figure-sales-csv.ts'
import {
  AgentFigureSalesSchema,
  FIGURE_METRICS,
  figureInterval,
  figureValue,
  type AgentFigureSales,
  type AgentFigures,
  type FigureMetric,
} from '@shared/figures-contract.ts'
import { METHODOLOGY_VERSION, METRICS } from '@shared/methodology.ts'
import { anonClient, sql, testEnv } from '../support/env.ts'

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const prefix = `FS${run}-`
const source = `figure-sales-${run}`
let dir: string
let figures: AgentFigures[] = []

async function salesBehind(agentId: string, metric: string, maxRows?: number) {
  return anonClient().rpc('agent_figure_sales', {
    agent_id: agentId,
    metric,
    ...(maxRows === undefined ? {} : { max_rows: maxRows }),
  })
}

/** The CSV as a spreadsheet reads it, back into the rows the recomputation takes. */
function rowsFromCsv(csv: string): { rows: FigureSaleInput[]; columns: Record<string, string>[] } {
  const columns = parse(csv, { columns: true }) as Array<Record<string, string>>
  const number = (cell: string) => (cell === '' ? null : Number(cell))
  return {
    columns,
    rows: columns.map((cell) => ({
      property_id: `${cell.source}|${cell.source_record_id}`,
      side: cell.side as 'listing' | 'buyer',
      credit: Number(cell.credit),
      dual_agency: cell.dual_agency === 'yes',
      list_price: number(cell.list_price!),
      close_price: Number(cell.close_price),
      credited_volume: Number(cell.credited_volume),
      days_on_market: number(cell.days_on_market!),
    })),
  }
}

const tolerance = (metric: FigureMetric) => 0.5 * 10 ** -METRICS[metric].decimals + 1e-9

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'figure-sales-'))
  await seedDemo({
    agents: 50,
    salesPerAgent: 20,
    seed: 'figures',
    idPrefix: prefix,
    source,
    databaseUrl: testEnv.databaseUrl,
    outDir: dir,
  })
  const { data, error } = await anonClient()
    .from('agents')
    .select('id, agent_figures(*)')
    .like('mls_id', `${prefix}%`)
    .order('mls_id')
  expect(error).toBeNull()
  figures = (data ?? []).flatMap((agent) => (agent.agent_figures ? [agent.agent_figures as AgentFigures] : []))
})

afterAll(async () => {
  await sql(`delete from public.properties where source = $1`, [source])
  await sql(`delete from public.agents where mls_id like $1`, [`${prefix}%`])
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('the sales behind every figure', () => {
  it('recomputes every figure of 50 agents from its CSV, with the same n and interval', async () => {
    expect(figures).toHaveLength(50)
    const seen = new Map<FigureMetric, { values: number; intervals: number }>()
    for (const agent of figures) {
      // every figure of the agent in one round trip, as the anon role (what a visitor's call runs as)
      const answers = await sql<{ metric: FigureMetric; sales: unknown }>(
        // (the one-row subquery sets the role for this statement's transaction before the select list runs)
        `select m.metric, public.agent_figure_sales($1, m.metric) as sales
         from (select set_config('role', 'anon', true) offset 0) as as_anon, unnest($2::text[]) as m(metric)`,
        [agent.agent_id, [...FIGURE_METRICS]],
      )
      for (const { metric, sales: answer } of answers) {
        const sales: AgentFigureSales = AgentFigureSalesSchema.parse(answer)
        const where = `${metric} of agent ${agent.agent_id}`
        expect(sales.truncated, where).toBe(false)
        // the function's figure is the stored one
        expect(sales.value, where).toBe(figureValue(agent, metric))
        const { rows, columns } = rowsFromCsv(figureSalesCsv(sales))
        expect(rows, where).toHaveLength(sales.total_rows)
        const context = {
          prior: columns[0]?.zip_mean_sale_to_list ? Number(columns[0].zip_mean_sale_to_list) : null,
          shrinkK: columns[0]?.shrink_k ? Number(columns[0].shrink_k) : null,
          zipClosedSales: columns[0]?.zip_closed_sales ? Number(columns[0].zip_closed_sales) : null,
        }
        const recomputed = recomputeFigure(metric, rows, context)
        if (sales.value === null) expect(recomputed.value, where).toBeNull()
        else expect(Math.abs(recomputed.value! - sales.value), where).toBeLessThanOrEqual(tolerance(metric))
        expect(recomputed.n, where).toBe(sales.n)
        const stored = figureInterval(agent, metric)
        if (stored === null) expect(recomputed.interval, where).toBeNull()
        else {
          expect(Math.abs(recomputed.interval![0] - stored[0]), where).toBeLessThanOrEqual(tolerance(metric))
          expect(Math.abs(recomputed.interval![1] - stored[1]), where).toBeLessThanOrEqual(tolerance(metric))
        }
        const tally = seen.get(metric) ?? { values: 0, intervals: 0 }
        seen.set(metric, {
          values: tally.values + (sales.value !== null && sales.value !== 0 ? 1 : 0),
          intervals: tally.intervals + (stored ? 1 : 0),
        })
      }
    }
    // every figure was really checked on a non-zero value, and every interval on some agent
    for (const metric of FIGURE_METRICS) {
      expect(seen.get(metric)!.values, metric).toBeGreaterThan(0)
      if (METRICS[metric].interval) expect(seen.get(metric)!.intervals, metric).toBeGreaterThan(0)
    }
  })

  it('answers a visitor through the API (anon key) the same as the database does', async () => {
    const agent = figures.find((candidate) => candidate.buyer_sales > 0 && candidate.sale_to_list_n >= 6)!
    for (const metric of ['buyer_sides', 'sale_to_list_median'] as const) {
      const { data, error } = await salesBehind(agent.agent_id, metric)
      expect(error).toBeNull()
      const [direct] = await sql<{ sales: unknown }>(`select public.agent_figure_sales($1, $2) as sales`, [
        agent.agent_id,
        metric,
      ])
      expect(AgentFigureSalesSchema.parse(data)).toEqual(AgentFigureSalesSchema.parse(direct!.sales))
    }
  })

  it('lists each sale with its role, credit, prices, days on market and the record it came from', async () => {
    const agent = figures.find((candidate) => candidate.buyer_sales > 0 && candidate.listing_sales > 0)!
    const { data } = await salesBehind(agent.agent_id, 'total_sides')
    const sales = AgentFigureSalesSchema.parse(data)
    expect(new Set(sales.rows.map((row) => row.side))).toEqual(new Set(['listing', 'buyer']))
    for (const row of sales.rows) {
      expect(row.source).toBe(source)
      expect(row.source_record_id).toMatch(new RegExp(`^${prefix}`))
      expect(row.credited_volume).toBeCloseTo(row.close_price * row.credit, 2)
    }
    expect(sales.rows.map((row) => row.close_date)).toEqual(
      sales.rows
        .map((row) => row.close_date)
        .sort()
        .reverse(),
    )
    expect(sales.formula).toBe(METRICS.total_sides.formula)
    expect(sales.methodology_version).toBe(METHODOLOGY_VERSION)
  })

  it('returns at most max_rows sales, newest first, and says when there are more', async () => {
    const agent = figures.find((candidate) => candidate.total_sales > 3)!
    const { data } = await salesBehind(agent.agent_id, 'total_sales', 2)
    const sales = AgentFigureSalesSchema.parse(data)
    expect(sales.rows).toHaveLength(2)
    expect(sales.truncated).toBe(true)
    expect(sales.total_rows).toBeGreaterThan(2)
  })
})

describe('bounds and errors', () => {
  it('refuses an unknown figure naming the figures there are', async () => {
    const { error } = await salesBehind(figures[0]!.agent_id, 'best_agent_ever')
    expect(error?.code).toBe('22023')
    expect(error?.message).toBe(`metric must be one of: ${FIGURE_METRICS.join(', ')}`)
  })

  it('refuses more than 2,000 rows or fewer than 1', async () => {
    for (const maxRows of [0, 2001]) {
      const { error } = await salesBehind(figures[0]!.agent_id, 'total_sales', maxRows)
      expect(error).toMatchObject({ code: '22023', message: `max_rows must be between 1 and 2000, got ${maxRows}` })
    }
  })

  it('answers "no agent" for an id nobody has', async () => {
    const id = '00000000-0000-4000-8000-000000000000'
    const { error } = await salesBehind(id, 'total_sales')
    expect(error).toMatchObject({ code: 'P0002', message: `No agent has the id ${id}` })
  })

  it('still gives visitors no direct read of sales or sides', async () => {
    for (const table of ['transaction_sides', 'properties'] as const) {
      const { data, error } = await anonClient().from(table).select('id').limit(1)
      expect(error?.code ?? (data?.length === 0 ? 'empty' : 'rows'), table).not.toBe('rows')
    }
  })
})

describe('one methodology', () => {
  it('the database defines every figure as the methodology module does', async () => {
    const rows = await sql<Record<string, unknown>>(
      `select metric, label, side, unit, decimals, rowset, sample_column, low_column, high_column, interval_method, formula
       from private.figure_metrics() order by ordinal`,
    )
    expect(rows).toEqual(
      FIGURE_METRICS.map((metric) => {
        const m = METRICS[metric]
        return {
          metric,
          label: m.label,
          side: m.side,
          unit: m.unit,
          decimals: m.decimals,
          rowset: m.rows,
          sample_column: m.sampleColumn,
          low_column: m.interval?.low ?? null,
          high_column: m.interval?.high ?? null,
          interval_method: m.interval?.method ?? null,
          formula: m.formula,
        }
      }),
    )
    expect(await sql(`select private.methodology_version() as version`)).toEqual([{ version: METHODOLOGY_VERSION }])
  })

  it('computes the interval ranks and t factors as the TypeScript twin does', async () => {
    const rows = await sql<{ n: number; rank: number | null; t: string | null }>(
      `select n, private.median_interval_rank(n) as rank, private.t_quantile_975(n)::text as t
       from generate_series(0, 400) as n order by n`,
    )
    for (const row of rows) {
      expect(row.rank, `rank of ${row.n}`).toBe(medianIntervalRank(row.n))
      expect(row.t === null ? null : Number(row.t), `t of ${row.n}`).toBe(tQuantile975(row.n))
    }
  })
})
