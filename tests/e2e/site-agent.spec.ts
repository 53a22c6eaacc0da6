/**
 * The agent profile at /agent/<id>: prerendered after the data-change rebuild (figures in the HTML without JavaScript,
 * RealEstateAgent JSON-LD, canonical and Open Graph, sitemap), a real 404 for unknown ids, the on-demand page of an
 * agent the build did not prerender, the ZIP and city landing pages, market comparison with attribution, sales, states.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { formatDate, formatDays, formatPercent, formatUsd } from '~/lib/format.ts'
import { agentRow, createAgents, makeSales, unusedZip, waitForAgentPage } from './agent-fixtures.ts'
import { sql } from './support.ts'
import { waitForIsland } from './site-support.ts'

const suffix = Date.now().toString(36)
let zip = ''
let fixture: Awaited<ReturnType<typeof createAgents>>
const sales = makeSales('Profile', 12)

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000)
  zip = await unusedZip()
  // the benchmark first: the page appears with the build that follows the agents' metrics refresh, benchmark included
  await sql(
    `insert into public.zip_market_benchmarks (zip_code, city, state, period_end, median_sale_price, avg_sale_to_list_fraction, median_dom, homes_sold)
     values ($1, 'Fixtureville', 'MA', '2026-09-30', 655000, 1.0125, 23, 41)`,
    [zip],
  )
  fixture = await createAgents(zip, [
    { name: `Priya Ranked ${suffix}`, rating: 4.7, reviewCount: 31, mlsId: `DEMO-E2E-${suffix}`, sales },
    { name: `Sam Newcomer ${suffix}`, rating: null, phone: null, email: null, sales: makeSales('Newcomer', 2) },
    // no closed sales, so no prerendered page: rendered on demand
    { name: `Nora Nosales ${suffix}`, sales: [] },
  ])
  await waitForAgentPage(baseURL!, fixture.agents[0]!.id)
  await waitForAgentPage(baseURL!, fixture.agents[1]!.id)
})

test.afterAll(async () => {
  await fixture.remove()
  await sql(`delete from public.zip_market_benchmarks where zip_code = $1`, [zip])
})

test('the header, metric cards and details show the stored figures', async ({ page }) => {
  const agent = fixture.agents[0]!
  const row = await agentRow(agent.id)
  await page.goto(`/agent/${agent.id}`)
  await waitForIsland(page, 'AgentProfileActions')

  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible()
  await expect(page).toHaveTitle(new RegExp(`^${agent.name}`))
  await expect(page.getByText('Fixture Realty', { exact: true })).toBeVisible()
  await expect(page.getByRole('img', { name: 'Rated 4.7 out of 5' })).toBeVisible()
  await expect(page.locator('svg[data-filled="true"]')).toHaveCount(4)
  await expect(page.getByText('4.7 (31 reviews)')).toBeVisible()
  await expect(page.locator('main').getByText('Agent data shown in this demo is fictional.')).toBeVisible()

  const windowText = `${formatDate(row.window_start as string)} – ${formatDate(row.window_end as string)}`
  const saleToList = page.getByRole('listitem', { name: 'Sale-to-list price' })
  await expect(saleToList).toContainText(formatPercent(row.avg_ratio as number))
  await expect(saleToList).toContainText(`n = ${row.sale_to_list_sample_size} closed sales · ${windowText}`)
  const dom = page.getByRole('listitem', { name: 'Days on market' })
  await expect(dom).toContainText(formatDays(row.avg_dom as number))
  await expect(dom).toContainText(`n = ${row.days_on_market_sample_size} closed sales`)
  const total = page.getByRole('listitem', { name: 'Total sales' })
  await expect(total).toContainText('12')
  const share = page.getByRole('listitem', { name: 'Market share' })
  await expect(share).toContainText(formatPercent(row.share as number))
  await expect(share).toContainText(`Ranked #${row.local_ranking} of ${row.total_agents_in_area} agents in ${zip}`)
  expect(row.local_ranking).toBe(1)
  expect(row.total_agents_in_area).toBe(2)

  const details = page.getByRole('complementary', { name: 'Agent details' })
  await expect(details).toContainText('MA-123456')
  await expect(details).toContainText('12 years')
  await expect(details).toContainText(zip)
  await expect(details.getByRole('link', { name: '(617) 555-0101' })).toHaveAttribute('href', 'tel:6175550101')
  await expect(details.getByRole('link', { name: 'agent@example.com' })).toHaveAttribute(
    'href',
    'mailto:agent@example.com',
  )
})

test('the market comparison shows the ZIP benchmark with its Redfin attribution', async ({ page }) => {
  const agent = fixture.agents[0]!
  const row = await agentRow(agent.id)
  await page.goto(`/agent/${agent.id}`)
  const market = page.getByRole('region', { name: new RegExp(`Compared with the market in ${zip}`) })
  await expect(market.getByRole('row', { name: /Sale price/ })).toContainText('$655,000')
  await expect(market.getByRole('row', { name: /Average sale-to-list/ })).toContainText(
    `${formatPercent(row.avg_ratio as number)}101.3%`,
  )
  await expect(market.getByRole('row', { name: /Median days on market/ })).toContainText(
    `${formatDays(row.median_dom as number)}23 days`,
  )
  await expect(market).toContainText('Source: Redfin, a national real estate brokerage (redfin.com/news/data-center)')
  await expect(market).toContainText('41 homes sold')
})

test('recent sales: ten, newest first, ratio green at or above list and red below', async ({ page }) => {
  const agent = fixture.agents[0]!
  await page.goto(`/agent/${agent.id}`)
  const table = page.getByRole('table', { name: /most recent closed sales/ })
  const rows = table.locator('tbody tr')
  await expect(rows).toHaveCount(10)
  // makeSales numbers them newest first; the two oldest are left out
  for (let index = 0; index < 10; index += 1) {
    const sale = sales[index]!
    const row = rows.nth(index)
    await expect(row.getByRole('rowheader')).toHaveText(sale.address)
    await expect(row).toContainText(formatUsd(sale.listPrice))
    await expect(row).toContainText(formatUsd(sale.salePrice))
    const ratio = row.locator('td[data-tone]')
    await expect(ratio).toHaveText(formatPercent((sale.salePrice / sale.listPrice) * 100))
    await expect(ratio).toHaveAttribute('data-tone', sale.salePrice >= sale.listPrice ? 'above' : 'below')
    await expect(ratio).toHaveClass(sale.salePrice >= sale.listPrice ? /text-green-800/ : /text-red-800/)
  }
  await expect(table).not.toContainText(sales[10]!.address)
})

test('an agent without a ranking shows the ranking note, initials and no demo line', async ({ page }) => {
  const agent = fixture.agents[1]!
  await page.goto(`/agent/${agent.id}`)
  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible()
  await expect(page.getByRole('listitem', { name: 'Market share' })).toContainText(
    /Fewer than 5 closed sales in \d{5} in the window \(\d+ there\)/,
  )
  await expect(page.getByText('No rating yet')).toBeVisible()
  await expect(page.getByRole('complementary', { name: 'Agent details' })).toContainText('Not on file')
  await expect(page.locator('main').getByText('Agent data shown in this demo is fictional.')).toHaveCount(0)
})

test('Share copies the profile link and confirms with a toast', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
  const agent = fixture.agents[0]!
  await page.goto(`/agent/${agent.id}`)
  await waitForIsland(page, 'AgentProfileActions')
  await page.evaluate(() => Object.defineProperty(navigator, 'share', { value: undefined }))
  await page.getByRole('button', { name: 'Share' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Link copied!' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/agent/${agent.id}`)
})

test('an unknown or malformed id is a real 404 with the not-found text', async ({ page, request }) => {
  for (const path of ['/agent/00000000-0000-4000-8000-000000000000', '/agent/not-a-uuid']) {
    const response = await request.get(path)
    expect(response.status()).toBe(404)
    expect(await response.text()).toContain('<meta name="robots" content="noindex"')
    const visit = await page.goto(path)
    expect(visit?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Agent not found' })).toBeVisible()
    await expect(page.getByText("The agent you're looking for doesn't exist or has been removed.")).toBeVisible()
  }
  await expect(page.getByRole('link', { name: 'Search Agents' }).last()).toHaveAttribute('href', '/search')
})

test('an agent the build did not prerender is rendered on demand: the same page, kept out of search results', async ({
  page,
  request,
}) => {
  // no closed sales in the window: no prerendered page, and noindex
  const agent = fixture.agents[2]!
  const response = await request.get(`/agent/${agent.id}`)
  expect(response.status()).toBe(200)
  expect(response.headers()['cache-control']).toBe('public, max-age=0, s-maxage=86400, stale-while-revalidate=60')
  const html = (await response.text()).replaceAll('<!-- -->', '')
  expect(html).toContain(`>${agent.name}</h1>`)
  expect(html).toContain('<meta name="robots" content="noindex"')
  const visit = await page.goto(`/agent/${agent.id}`)
  expect(visit?.status()).toBe(200)
  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible()
  await expect(page.getByRole('listitem', { name: 'Total sales' })).toContainText('0')
  await waitForIsland(page, 'AgentProfileActions')
  await expect(page.getByRole('button', { name: 'Get Report' })).toBeVisible()
})

test('without JavaScript the page carries the figures, RealEstateAgent JSON-LD, canonical URL and Open Graph', async ({
  request,
  baseURL,
}) => {
  const agent = fixture.agents[0]!
  const row = await agentRow(agent.id)
  const response = await request.get(`/agent/${agent.id}`)
  expect(response.status()).toBe(200)
  // React separates adjacent text parts with empty comments in server-rendered HTML
  const html = (await response.text()).replaceAll('<!-- -->', '')
  expect(html).toContain(`>${agent.name}</h1>`)
  expect(html).toContain(formatPercent(row.avg_ratio as number))
  expect(html).toContain(`n = ${row.sale_to_list_sample_size} closed sales`)
  expect(html).toContain(sales[0]!.address)
  const url = `${baseURL}/agent/${agent.id}`
  expect(html).toContain(`<link rel="canonical" href="${url}">`)
  expect(html).toContain(`<meta property="og:url" content="${url}">`)
  expect(html).toContain(
    `<meta property="og:title" content="${agent.name} in Fixtureville, MA - Agent Performance | AgentInsight">`,
  )

  const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]!)
  expect(jsonLd).toEqual({
    '@context': 'https://schema.org',
    '@type': 'RealEstateAgent',
    '@id': url,
    name: agent.name,
    url,
    parentOrganization: { '@type': 'Organization', name: 'Fixture Realty' },
    areaServed: [
      {
        '@type': 'Place',
        name: `ZIP ${zip}`,
        address: {
          '@type': 'PostalAddress',
          postalCode: zip,
          addressLocality: 'Fixtureville',
          addressRegion: 'MA',
          addressCountry: 'US',
        },
      },
    ],
    address: {
      '@type': 'PostalAddress',
      addressLocality: 'Fixtureville',
      addressRegion: 'MA',
      postalCode: zip,
      addressCountry: 'US',
    },
    telephone: '(617) 555-0101',
    email: 'agent@example.com',
  })
})

test('the sitemap lists the agent, ZIP and city pages; the ZIP page ranks the agents with the benchmark', async ({
  page,
  request,
  baseURL,
}) => {
  const sitemap = await (await request.get('/sitemap.xml')).text()
  expect(sitemap).toContain(`<loc>${baseURL}/agent/${fixture.agents[0]!.id}</loc>`)
  expect(sitemap).toContain(`<loc>${baseURL}/agent/${fixture.agents[1]!.id}</loc>`)
  expect(sitemap).not.toContain(fixture.agents[2]!.id)
  expect(sitemap).toContain(`<loc>${baseURL}/agents/${zip}</loc>`)
  expect(sitemap).toContain(`<loc>${baseURL}/agents/ma/fixtureville</loc>`)

  await page.goto(`/agents/${zip}`)
  await expect(page.getByRole('heading', { level: 1, name: `Top agents in ${zip}, Fixtureville, MA` })).toBeVisible()
  const ranked = page.locator('main ol > li')
  await expect(ranked).toHaveCount(2)
  await expect(ranked.nth(0).getByRole('link', { name: fixture.agents[0]!.name })).toHaveAttribute(
    'href',
    `/agent/${fixture.agents[0]!.id}`,
  )
  await expect(ranked.nth(1)).toContainText(fixture.agents[1]!.name)
  await expect(page.getByRole('region', { name: `The market in ${zip}` })).toContainText('$655,000')
  await expect(page.getByRole('region', { name: `The market in ${zip}` })).toContainText('Source: Redfin')
  await page.getByRole('link', { name: 'all of Fixtureville, MA' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Top agents in Fixtureville, MA' })).toBeVisible()
  await expect(page.getByRole('link', { name: fixture.agents[0]!.name })).toBeVisible()
})

test('at 390 px the actions sit below the name, nothing overflows and the sales table shows its scroll cue', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`/agent/${fixture.agents[0]!.id}`)
  const name = await page.getByRole('heading', { level: 1 }).boundingBox()
  const share = await page.getByRole('button', { name: 'Share' }).boundingBox()
  expect(share!.y).toBeGreaterThanOrEqual(name!.y + name!.height)
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  await expect(page.getByText('Swipe the table sideways for sale-to-list and days on market')).toBeVisible()
  await expect(page.getByRole('img', { name: new RegExp(`ZIP ${zip} average: 101.3%`) })).toBeVisible()
})

test('a loaded profile and its open report dialog have no serious accessibility violations', async ({ page }) => {
  test.slow() // two axe runs over the full prerendered profile
  const agent = fixture.agents[0]!
  await page.goto(`/agent/${agent.id}`)
  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible()
  const serious = async () =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect(await serious()).toEqual([])
  await page.getByRole('button', { name: 'Get Report' }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  expect(await serious()).toEqual([])
})
