/**
 * "The sales behind this figure", as a visitor checks it: 50 demo agents are seeded (buyer sides, co-agents, dual
 * agency); of them, the fewest profiles that together show every figure with a non-zero value and every 95 % interval
 * (plus one profile with an empty side, when the seed made one) are opened in the browser. Each prebuilt profile shows
 * every figure; each figure's link opens /figure-sales, whose Download CSV gives the rows; the
 * figure recomputed from that downloaded file (@shared/figure-math.ts, written apart from the SQL), rounded as stored
 * and formatted as the site formats it, is the number the profile shows, with the same n and 95 % interval. Also the
 * page's own states: the formula in words, the rows with role and source, a bad link and an unknown agent.
 * The demo rows use a per-run source and id prefix; afterAll removes them.
 */
import { parse } from 'csv-parse/sync'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { seedDemo } from '../../scripts/lib/demo/seed.ts'
import { FIGURE_GROUPS, formatFigure, intervalText, noIntervalText } from '@shared/figure-display.ts'
import { recomputeFigure, roundTo, type FigureSaleInput } from '@shared/figure-math.ts'
import { FIGURE_METRICS, METRICS, type FigureMetric } from '@shared/methodology.ts'
import { figureSalesUrl } from '@shared/urls.ts'
import { waitForAgentPage } from './agent-fixtures.ts'
import { sql } from './support.ts'

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const prefix = `FE${run}-`
const source = `figure-e2e-${run}`
let dir = ''
let agents: { id: string; name: string }[] = []
/** The agents whose profiles the browser checks figure by figure (see coveringAgents). */
let checked: { id: string; name: string }[] = []

/**
 * The fewest agents (greedy set cover over their stored figures) that show every figure with a non-zero value and
 * every interval, plus one with a side without sales when there is one. The integration test figure-sales.test.ts
 * recomputes all 50 agents' figures from the same CSV; the browser proves the page, the link and the download, which a
 * handful of profiles covering every figure does as well as fifty (fifty took 12 minutes).
 */
async function coveringAgents(all: { id: string; name: string }[]) {
  const rows = await sql<Record<string, unknown>>(
    `select * from public.agent_figures where agent_id = any($1::uuid[])`,
    [all.map((agent) => agent.id)],
  )
  const byId = new Map(rows.map((row) => [row.agent_id as string, row]))
  // what each agent's profile shows: a non-zero value per figure, an interval per figure that has one
  const shows = new Map(
    all.map((agent) => {
      const row = byId.get(agent.id)!
      return [
        agent.id,
        new Set([
          ...FIGURE_METRICS.filter((m) => row[m] !== null && Number(row[m]) !== 0).map((m) => `value:${m}`),
          ...FIGURE_METRICS.filter((m) => {
            const interval = METRICS[m].interval
            return interval !== null && row[interval.low] !== null
          }).map((m) => `interval:${m}`),
        ]),
      ]
    }),
  )
  const wanted = new Set([
    ...FIGURE_METRICS.map((m) => `value:${m}`),
    ...FIGURE_METRICS.filter((m) => METRICS[m].interval).map((m) => `interval:${m}`),
  ])
  const picked: { id: string; name: string }[] = []
  while (wanted.size > 0) {
    let best: { agent: { id: string; name: string }; gain: number } | null = null
    for (const agent of all) {
      if (picked.includes(agent)) continue
      const gain = [...shows.get(agent.id)!].filter((need) => wanted.has(need)).length
      if (!best || gain > best.gain) best = { agent, gain }
    }
    if (!best || best.gain === 0) break // the assertions after the checks name what no agent showed
    picked.push(best.agent)
    for (const need of shows.get(best.agent.id)!) wanted.delete(need)
  }
  const emptySide = all.find(
    (agent) => !picked.includes(agent) && FIGURE_GROUPS.some((group) => Number(byId.get(agent.id)![group.count]) === 0),
  )
  return emptySide ? [...picked, emptySide] : picked
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(600_000)
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'figure-e2e-'))
  await seedDemo({
    agents: 50,
    salesPerAgent: 20,
    seed: `figures-e2e-${run}`,
    idPrefix: prefix,
    source,
    databaseUrl: process.env.TEST_DATABASE_URL!,
    outDir: dir,
  })
  agents = await sql<{ id: string; name: string }>(
    `select a.id, a.name from public.agents a join public.agent_figures f on f.agent_id = a.id
      where a.mls_id like $1 order by a.mls_id`,
    [`${prefix}%`],
  )
  checked = await coveringAgents(agents)
  // the seed's metrics refresh asks for a site build; every checked agent's page must be live before the checks
  for (const agent of checked) await waitForAgentPage(baseURL!, agent.id, { timeoutMs: 480_000 })
})

test.afterAll(async () => {
  await sql(`delete from public.properties where source = $1`, [source])
  await sql(`delete from public.agents where mls_id like $1`, [`${prefix}%`])
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

/** One figure as the profile shows it: the value (link text), the line under it and the link. */
interface ShownFigure {
  metric: FigureMetric
  value: string
  details: string
  href: string
}

/** Every figure of the profile open in `page`, the first place each is shown (the figures per side). */
async function shownFigures(page: Page): Promise<ShownFigure[]> {
  return page.locator('[data-figure-row]').evaluateAll((rows) => {
    const seen = new Set<string>()
    return rows.flatMap((row) => {
      const metric = row.getAttribute('data-figure-row')!
      if (seen.has(metric)) return []
      seen.add(metric)
      const link = row.querySelector('a[data-figure]')!
      const dds = row.querySelectorAll('dd')
      return [
        {
          metric: metric as FigureMetric,
          value: link.textContent!.trim(),
          details: dds[dds.length - 1]!.textContent!.trim(),
          href: link.getAttribute('href')!,
        },
      ]
    })
  })
}

/** Opens the figure's sales page, presses Download CSV and reads the file the browser saved. */
async function downloadCsv(page: Page, href: string): Promise<{ csv: string; fileName: string; shown: string }> {
  await page.goto(href)
  const button = page.getByRole('button', { name: 'Download CSV' })
  await expect(button).toBeVisible({ timeout: 20_000 })
  const shown = (await page.getByTestId('figure-value').innerText()).trim()
  if (await button.isDisabled()) return { csv: '', fileName: '', shown }
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
  const file = await download.path()
  return { csv: fs.readFileSync(file, 'utf8'), fileName: download.suggestedFilename(), shown }
}

/** The CSV as a spreadsheet reads it, back into the rows the recomputation takes, and its context columns. */
function rowsFromCsv(csv: string) {
  if (csv === '') return { rows: [] as FigureSaleInput[], context: {} }
  const cells = parse(csv, { columns: true }) as Array<Record<string, string>>
  const number = (cell: string) => (cell === '' ? null : Number(cell))
  const first = cells[0]
  return {
    rows: cells.map((cell): FigureSaleInput => ({
      property_id: `${cell.source}|${cell.source_record_id}`,
      side: cell.side as 'listing' | 'buyer',
      credit: Number(cell.credit),
      dual_agency: cell.dual_agency === 'yes',
      list_price: number(cell.list_price!),
      close_price: Number(cell.close_price),
      credited_volume: Number(cell.credited_volume),
      days_on_market: number(cell.days_on_market!),
    })),
    context: {
      prior: first?.zip_mean_sale_to_list ? Number(first.zip_mean_sale_to_list) : null,
      shrinkK: first?.shrink_k ? Number(first.shrink_k) : null,
      zipClosedSales: first?.zip_closed_sales ? Number(first.zip_closed_sales) : null,
    },
  }
}

test('every figure on the demo profiles that show them all equals its recomputation from the downloaded CSV', async ({
  browser,
}) => {
  test.setTimeout(10 * 60_000) // a few profiles x 23 figures, each a page load and a download, on a shared machine
  expect(agents.length).toBeGreaterThanOrEqual(50)
  expect(checked.length).toBeGreaterThan(0)
  const seen = new Map<FigureMetric, { values: number; intervals: number }>()
  const check = async (page: Page, agent: { id: string; name: string }) => {
    await page.goto(`/agent/${agent.id}`)
    const figures = await shownFigures(page)
    // a side without sales in the window says so instead of its figures (a demo agent alone in a small metro has no
    // buyer sides: nobody there to bring the buyers)
    const [counts] = await sql<Record<string, number>>(
      `select listing_sales, buyer_sales, total_sales from public.agent_figures where agent_id = $1`,
      [agent.id],
    )
    const emptySides = FIGURE_GROUPS.filter((group) => counts![group.count] === 0)
    for (const group of emptySides)
      await expect(page.locator(`[data-side="${group.id}"]`), agent.id).toContainText(
        'No sales on this side in the window.',
      )
    const hidden = new Set<FigureMetric>(emptySides.flatMap((group) => group.metrics))
    expect(figures.map((figure) => figure.metric).sort(), agent.id).toEqual(
      FIGURE_METRICS.filter((metric) => !hidden.has(metric)).sort(),
    )
    for (const figure of figures) {
      const where = `${figure.metric} of ${agent.name} (${agent.id})`
      const definition = METRICS[figure.metric]
      expect(figure.href, where).toBe(figureSalesUrl(agent.id, figure.metric))
      const { csv, shown } = await downloadCsv(page, figure.href)
      expect(shown, where).toBe(figure.value)
      const { rows, context } = rowsFromCsv(csv)
      const recomputed = recomputeFigure(figure.metric, rows, context)
      const rounded = (value: number) => roundTo(value, definition.decimals)
      expect(formatFigure(figure.metric, recomputed.value === null ? null : rounded(recomputed.value)), where).toBe(
        figure.value,
      )
      if (definition.sampleColumn) expect(figure.details, where).toContain(`n = ${recomputed.n} `)
      if (recomputed.interval)
        expect(figure.details, where).toContain(
          intervalText(figure.metric, [rounded(recomputed.interval[0]), rounded(recomputed.interval[1])]),
        )
      else if (definition.interval)
        expect(figure.details, where).toContain(noIntervalText(figure.metric, recomputed.n)!)
      const tally = seen.get(figure.metric) ?? { values: 0, intervals: 0 }
      seen.set(figure.metric, {
        values: tally.values + (recomputed.value ? 1 : 0),
        intervals: tally.intervals + (recomputed.interval ? 1 : 0),
      })
    }
  }
  // two pages at a time: the checks are independent, and each spends most of its time waiting for the network
  const queue = [...checked]
  const pages = await Promise.all([browser.newPage(), browser.newPage()])
  await Promise.all(
    pages.map(async (page) => {
      for (let agent = queue.shift(); agent; agent = queue.shift()) await check(page, agent)
    }),
  )
  await Promise.all(pages.map((page) => page.close()))
  // every figure was really checked on a non-zero value, and every interval on some agent
  for (const metric of FIGURE_METRICS) {
    expect(seen.get(metric)?.values, metric).toBeGreaterThan(0)
    if (METRICS[metric].interval) expect(seen.get(metric)?.intervals, metric).toBeGreaterThan(0)
  }
})

test('the sales page names the figure, its formula in words, each sale with role and source, and the CSV file', async ({
  page,
}) => {
  const [agent] = await sql<{ id: string; name: string; n: number }>(
    `select a.id, a.name, f.buyer_sales as n from public.agents a join public.agent_figures f on f.agent_id = a.id
      where a.mls_id like $1 and f.buyer_sales between 2 and 30 order by a.mls_id limit 1`,
    [`${prefix}%`],
  )
  await page.goto(figureSalesUrl(agent!.id, 'buyer_sides'))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Buyer sides of ${agent!.name}`)
  await expect(page.getByRole('link', { name: agent!.name })).toHaveAttribute('href', `/agent/${agent!.id}`)
  await expect(page.getByTestId('formula')).toHaveText(METRICS.buyer_sides.formula)
  await expect(page.getByRole('link', { name: 'Methodology v4: buyer sides' })).toHaveAttribute(
    'href',
    '/methodology#buyer_sides',
  )
  await expect(page.getByTestId('data-as-of')).toContainText('methodology v4')
  const rows = page.getByRole('table', { name: 'The sales behind this figure, newest first' }).locator('tbody tr')
  await expect(rows).toHaveCount(agent!.n)
  for (const row of await rows.all()) {
    await expect(row.locator('td').nth(1)).toHaveText(/^(Buyer agent|Co-buyer agent)/)
    await expect(row.locator('td').nth(6)).toHaveText(source)
    await expect(row.locator('td').nth(7)).toHaveText(new RegExp(`^${prefix}`))
  }
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^[a-z0-9-]+-buyer-sides-\d{4}-\d{2}-\d{2}\.csv$/)
})

test('a bad link says what is wrong; an unknown agent is not found; a failed load offers Try Again', async ({
  page,
}) => {
  await page.goto('/figure-sales?agent=nope&figure=total_sales')
  await expect(page.getByRole('heading', { name: 'Nothing to show' })).toBeVisible({ timeout: 20_000 })
  await expect(page.getByText('The link names no agent.')).toBeVisible()
  await page.goto(`/figure-sales?agent=${agents[0]!.id}&figure=best_agent_ever`)
  await expect(page.getByText('"best_agent_ever" is not one of an agent\'s figures.')).toBeVisible({ timeout: 20_000 })
  await page.goto(figureSalesUrl('00000000-0000-4000-8000-000000000000', 'total_sales'))
  await expect(page.getByRole('heading', { name: 'Agent not found' })).toBeVisible({ timeout: 20_000 })

  let fail = true
  await page.route('**/rest/v1/rpc/agent_figure_sales**', (route) =>
    fail ? route.fulfill({ status: 500, json: { message: 'boom' } }) : route.fallback(),
  )
  await page.goto(figureSalesUrl(agents[0]!.id, 'total_sales'))
  await expect(page.getByText('Failed to load the sales behind this figure. Please try again.')).toBeVisible({
    timeout: 20_000,
  })
  fail = false
  await page.getByRole('button', { name: 'Try Again' }).click()
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible()
})
