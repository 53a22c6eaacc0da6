/**
 * The agent profile at /agent/<id>: prerendered after the data-change rebuild (figures in the HTML without JavaScript,
 * RealEstateAgent JSON-LD, canonical and Open Graph, sitemap), a real 404 for unknown ids, the on-demand page of an
 * agent the build did not prerender, the ZIP and city landing pages, market comparison with attribution, sales, states.
 * Figures: both sides (a co-list agent's half side, buyer sides, dual agency), each with its n, window, 95 % interval
 * and difference from the ZIP, each a link to the sales behind it; the rank or "too few sales to rank" and why.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { figureDisplay, figuresWindowText, formatFigure } from '@shared/figure-display.ts'
import { FIGURE_METRICS, METRICS } from '@shared/methodology.ts'
import { figureSalesUrl } from '@shared/urls.ts'
import { formatDate, formatPercent, formatUsd } from '~/lib/format.ts'
import { createAgents, figuresRow, makeSales, unusedZip, waitForAgentPage } from './agent-fixtures.ts'
import { sql } from './support.ts'
import { waitForIsland } from './site-support.ts'

const suffix = Date.now().toString(36)
let zip = ''
let fixture: Awaited<ReturnType<typeof createAgents>>
const priyaMls = `DEMO-E2E-${suffix}`
const samMls = `E2E-SAM-${suffix}`
// Priya lists 12 homes: Sam co-lists the first (half a side each), represents the buyer of the fourth, and Priya
// represents both sides of the sixth (dual agency); Sam lists 2 more, Priya brings the buyer of his second
const sales = makeSales('Profile', 12).map((sale, index) =>
  index === 0
    ? { ...sale, coListMlsId: samMls }
    : index === 3
      ? { ...sale, buyerMlsId: samMls }
      : index === 5
        ? { ...sale, buyerMlsId: priyaMls }
        : sale,
)
const samSales = makeSales('Newcomer', 2).map((sale, index) => (index === 1 ? { ...sale, buyerMlsId: priyaMls } : sale))
// a busier ZIP: 26 agents ranked there (5 sales each) and one with a single sale, two more than a ZIP page lists
let crowdZip = ''
let crowd: Awaited<ReturnType<typeof createAgents>> | undefined

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000)
  zip = await unusedZip()
  // the benchmark first: the page appears with the build that follows the agents' metrics refresh, benchmark included
  await sql(
    `insert into public.zip_market_benchmarks (zip_code, city, state, period_end, median_sale_price, avg_sale_to_list_fraction, median_dom, homes_sold)
     values ($1, 'Fixtureville', 'MA', '2026-09-30', 655000, 1.0125, 23, 41)`,
    [zip],
  )
  crowdZip = await unusedZip()
  crowd = await createAgents(
    crowdZip,
    Array.from({ length: 27 }, (_, index) => ({
      name: `Crowd Agent ${index + 1} ${suffix}`,
      sales: makeSales(`Crowd ${index + 1}`, index < 26 ? 5 : 1),
    })),
    'Crowdville',
  )
  fixture = await createAgents(zip, [
    { name: `Priya Ranked ${suffix}`, rating: 4.7, reviewCount: 31, mlsId: priyaMls, sales },
    { name: `Sam Newcomer ${suffix}`, rating: null, phone: null, email: null, mlsId: samMls, sales: samSales },
    // no closed sales, so no prerendered page: rendered on demand
    { name: `Nora Nosales ${suffix}`, sales: [] },
  ])
  await waitForAgentPage(baseURL!, fixture.agents[0]!.id)
  await waitForAgentPage(baseURL!, fixture.agents[1]!.id)
})

test.afterAll(async () => {
  await crowd?.remove()
  await fixture.remove()
  await sql(`delete from public.zip_market_benchmarks where zip_code = $1`, [zip])
})

test('the header, details and every figure per side show the stored figures, each a link to its sales', async ({
  page,
}) => {
  const agent = fixture.agents[0]!
  const figures = await figuresRow(agent.id)
  // both sides are credited: a shared listing side counts half, a dual-agency sale once in the sales
  expect([figures.listing_sales, figures.listing_sides, figures.buyer_sales, figures.total_sales]).toEqual([
    12, 11.5, 2, 13,
  ])
  expect(figures.dual_agency_sales).toBe(1)
  await page.goto(`/agent/${agent.id}`)
  await waitForIsland(page, 'AgentProfileActions')

  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible()
  await expect(page).toHaveTitle(new RegExp(`^${agent.name}`))
  await expect(page.getByText('Fixture Realty', { exact: true })).toBeVisible()
  await expect(page.getByRole('img', { name: 'Rated 4.7 out of 5' })).toBeVisible()
  await expect(page.locator('svg[data-filled="true"]')).toHaveCount(4)
  await expect(page.getByText('4.7 (31 reviews)')).toBeVisible()
  await expect(page.locator('main').getByText('Agent data shown in this demo is fictional.')).toBeVisible()

  const windowText = figuresWindowText(figures)
  for (const [side, count] of [
    ['Listing side', '12 sales as list agent or co-list agent'],
    ['Buyer side', '2 sales as buyer agent or co-buyer agent'],
    ['Both sides', '13 sales every sale with either side'],
  ] as const) {
    await expect(page.getByRole('region', { name: side })).toContainText(`${count} · ${windowText}`)
  }
  // every figure of agent_figures, with its value, n, interval and ZIP difference, opening the sales behind it
  for (const metric of FIGURE_METRICS) {
    const shown = figureDisplay(figures, metric)
    const row = page.locator(`[data-figure-row="${metric}"]`).first()
    const link = row.getByRole('link', {
      name: `${METRICS[metric].label}: ${shown.value}. The sales behind this figure`,
    })
    await expect(link, metric).toHaveText(formatFigure(metric, figures[metric]))
    await expect(link, metric).toHaveAttribute('href', figureSalesUrl(agent.id, metric))
    if (METRICS[metric].sampleColumn) await expect(row, metric).toContainText(shown.nText)
    if (shown.interval) await expect(row, metric).toContainText(shown.interval)
    if (shown.vsZip) await expect(row, metric).toContainText(shown.vsZip)
  }
  // Redfin's ZIP average is 101.25 %: the difference is the agent's mean minus it, in points
  expect(figureDisplay(figures, 'sale_to_list_mean').vsZip).toMatch(/^[+−]\d+\.\d pts vs ZIP average$/)
  await expect(page.getByText(`#1 of 2 agents in ${zip} by sides`)).toBeVisible()
  await expect(page.getByTestId('ranking-badge')).toHaveText(`Top 50% in ${zip}`)
  await expect(page.getByTestId('ranking-badge')).toHaveAttribute('href', figureSalesUrl(agent.id, 'zip_sides'))
  await expect(page.getByTestId('data-as-of').first()).toHaveText(
    `Data as of ${formatDate(figures.data_date)}, methodology v4. How we compute these figures`,
  )
  await expect(page.getByRole('link', { name: 'How we compute these figures' }).first()).toHaveAttribute(
    'href',
    '/methodology',
  )

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

test('the market comparison shows the ZIP benchmark, the difference and its Redfin attribution', async ({ page }) => {
  const agent = fixture.agents[0]!
  const figures = await figuresRow(agent.id)
  await page.goto(`/agent/${agent.id}`)
  const market = page.getByRole('region', { name: new RegExp(`Compared with the market in ${zip}`) })
  await expect(market.getByRole('row', { name: /Sale price/ })).toContainText('$655,000')
  await expect(market.getByRole('row', { name: /^Sale-to-list \(mean/ })).toContainText(
    `${formatPercent(figures.sale_to_list_mean)}101.3% (average)${figureDisplay(figures, 'sale_to_list_mean').vsZip}`,
  )
  await expect(market.getByRole('row', { name: /Days on market \(median\)/ })).toContainText(
    `${formatFigure('days_on_market_median', figures.days_on_market_median)}23 days${figureDisplay(figures, 'days_on_market_median').vsZip}`,
  )
  await expect(market).toContainText('Source: Redfin, a national real estate brokerage (redfin.com/news/data-center)')
  await expect(market).toContainText('41 homes sold')
})

test('recent sales: ten of either side, newest first, with the role; ratio green at or above list and red below', async ({
  page,
}) => {
  const agent = fixture.agents[0]!
  await page.goto(`/agent/${agent.id}`)
  const table = page.getByRole('table', { name: /most recent closed sales on either side/ })
  const rows = table.locator('tbody tr')
  await expect(rows).toHaveCount(10)
  // newest first: Priya's own listings, the buyer side of Sam's second sale, both sides of the dual-agency sale
  const dates = await rows.locator('td:nth-of-type(1)').allInnerTexts()
  const times = dates.map((date) => Date.parse(date))
  expect(times).toEqual([...times].sort((a, b) => b - a))
  const row = (address: string, role: string) =>
    rows.filter({ has: page.getByRole('rowheader', { name: `${address} ${role}` }) })
  await expect(row(samSales[1]!.address, 'Buyer agent')).toHaveCount(1)
  await expect(row(sales[5]!.address, 'List agent')).toHaveCount(1)
  await expect(row(sales[5]!.address, 'Buyer agent')).toHaveCount(1)
  for (const sale of [sales[0]!, sales[1]!, sales[2]!]) {
    const listed = row(sale.address, 'List agent')
    await expect(listed).toContainText(formatUsd(sale.listPrice))
    await expect(listed).toContainText(formatUsd(sale.salePrice))
    const ratio = listed.locator('td[data-tone]')
    await expect(ratio).toHaveText(formatPercent((sale.salePrice / sale.listPrice) * 100))
    await expect(ratio).toHaveAttribute('data-tone', sale.salePrice >= sale.listPrice ? 'above' : 'below')
    await expect(ratio).toHaveClass(sale.salePrice >= sale.listPrice ? /text-green-800/ : /text-red-800/)
  }
  await expect(table).not.toContainText(sales[10]!.address)
  // the chart counts the same sales as the figures: the quarters add up to the sales on either side
  const figures = await figuresRow(agent.id)
  const counts = await page
    .getByRole('img', { name: /^Q\d \d{4}: / })
    .getAttribute('aria-label')
    .then((label) => [...label!.matchAll(/: (\d+) \(/g)].map((match) => Number(match[1])))
  expect(counts.reduce((sum, count) => sum + count, 0)).toBe(figures.total_sales)
})

test('an agent with few sales says "too few sales to rank" and why, flags small samples, and has no demo line', async ({
  page,
}) => {
  const agent = fixture.agents[1]!
  const figures = await figuresRow(agent.id)
  // Sam co-listed one of Priya's homes and represented a buyer of another: 3 listing sales (2.5 sides), 1 buyer sale
  expect([figures.listing_sales, figures.listing_sides, figures.buyer_sales, figures.total_sales]).toEqual([
    3, 2.5, 1, 4,
  ])
  await page.goto(`/agent/${agent.id}`)
  await expect(page.getByRole('heading', { level: 1, name: agent.name })).toBeVisible()
  await expect(page.getByTestId('zip-rank')).toHaveText(
    `Too few sales to rank: 4 closed sales in ${zip} in the window, fewer than the 5 needed`,
  )
  await expect(page.getByTestId('ranking-badge')).toHaveCount(0)
  await expect(page.locator('[data-figure-row="sale_to_list_median"]')).toContainText('No 95 % interval below 6 sales')
  await expect(page.locator('[data-figure-row="sale_to_list_median"]').getByTestId('small-sample')).toHaveText(
    'Too few sales to rank: 3 sales, fewer than the 5 needed',
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

test("Get Report tapped before Astro's island runtime has arrived opens the dialog once it has", async ({
  page,
  request,
}) => {
  const agent = fixture.agents[0]!
  // the profile's only island waits for the visitor, so the middleware took Astro's inline runtime out of the page
  // and it loads after the first paint (src/lib/island-hydration.ts); here it is held back, as on a slow phone
  const html = await (await request.get(`/agent/${agent.id}`)).text()
  expect(html).not.toContain('customElements.define("astro-island"')
  // (a page with an island that loads at once keeps it inline: /search's hero search is client:load)
  expect(await (await request.get('/search')).text()).toContain('customElements.define("astro-island"')
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/_astro\/IslandHydration\.astro_astro_type_script_index_0_lang\.[\w-]+\.js$/, async (route) => {
    await released
    await route.continue()
  })
  await page.goto(`/agent/${agent.id}`)
  await expect(page.locator('script[type="text/x-after-paint"][src*="IslandHydration"]')).toHaveCount(1)
  await page.getByRole('button', { name: 'Get Report' }).click()
  await page.waitForTimeout(300)
  await expect(page.getByRole('dialog')).toHaveCount(0) // held, not lost
  expect(await page.evaluate(() => customElements.get('astro-island') === undefined)).toBe(true)
  release()
  await expect(page.getByRole('dialog')).toBeVisible({ timeout: 20_000 })
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
  await expect(
    page.getByText('No closed sales in the window on either side, so there are no figures yet.'),
  ).toBeVisible()
  await waitForIsland(page, 'AgentProfileActions')
  await expect(page.getByRole('button', { name: 'Get Report' })).toBeVisible()
})

test('without JavaScript the page carries the figures, RealEstateAgent JSON-LD, canonical URL and Open Graph', async ({
  request,
  baseURL,
}) => {
  const agent = fixture.agents[0]!
  const figures = await figuresRow(agent.id)
  const response = await request.get(`/agent/${agent.id}`)
  expect(response.status()).toBe(200)
  // React separates adjacent text parts with empty comments in server-rendered HTML
  const html = (await response.text()).replaceAll('<!-- -->', '')
  expect(html).toContain(`>${agent.name}</h1>`)
  expect(html).toContain(`>${formatFigure('sale_to_list_median', figures.sale_to_list_median)}</a>`)
  expect(html).toContain(
    `n = ${figures.sale_to_list_n} sales · ${figureDisplay(figures, 'sale_to_list_median').interval}`,
  )
  expect(html).toContain(`href="${figureSalesUrl(agent.id, 'sale_to_list_median').replace('&', '&amp;')}"`)
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
  const listed = page.locator('main ol > li')
  await expect(listed).toHaveCount(2)
  // ranked by sides: Priya (5 or more sales here) first; Sam (4 sales here) unranked, saying why
  await expect(listed.nth(0).getByRole('link', { name: fixture.agents[0]!.name, exact: true })).toHaveAttribute(
    'href',
    `/agent/${fixture.agents[0]!.id}`,
  )
  await expect(listed.nth(0).getByLabel('Rank 1')).toHaveText('#1')
  await expect(listed.nth(0)).toContainText('13')
  await expect(listed.nth(0)).toContainText('12 listing · 2 buyer')
  await expect(page.getByRole('heading', { name: 'Too few sales to rank here' })).toBeVisible()
  await expect(listed.nth(1)).toContainText(fixture.agents[1]!.name)
  await expect(listed.nth(1).getByLabel('Not ranked')).toHaveText('—')
  await expect(listed.nth(1)).toContainText(
    `Too few sales to rank: 4 closed sales in ${zip} in the window, fewer than the 5 needed`,
  )
  await expect(listed.nth(1)).toContainText('3.5')
  await expect(page.getByTestId('coverage')).toContainText(`14 closed sales in ${zip} from`)
  await expect(page.getByTestId('data-as-of').first()).toContainText('methodology v4')
  await expect(page.getByRole('region', { name: `The market in ${zip}` })).toContainText('$655,000')
  await expect(page.getByRole('region', { name: `The market in ${zip}` })).toContainText('Source: Redfin')
  await page.getByRole('link', { name: 'all of Fixtureville, MA' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Top agents in Fixtureville, MA' })).toBeVisible()
  await expect(page.getByRole('link', { name: fixture.agents[0]!.name, exact: true })).toBeVisible()
  await expect(page.getByTestId('coverage')).toContainText('14 closed sales in Fixtureville, MA')
})

test('ZIP and city pages list their first 25 agents; a ZIP page links the search results that list them all', async ({
  page,
}) => {
  await page.goto('/agents/ma/crowdville')
  await expect(page.getByRole('main')).toContainText('ties by volume; agents need 5 sales in the city to be ranked.')
  await expect(page.getByRole('heading', { name: 'The top 25 of 26 ranked agents' })).toBeVisible()
  await expect(page.locator('main ol > li')).toHaveCount(25)

  await page.goto(`/agents/${crowdZip}`)
  await expect(page.getByRole('heading', { level: 1, name: `Top agents in ${crowdZip}, Crowdville, MA` })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'The top 25 of 26 ranked agents' })).toBeVisible()
  await expect(page.locator('main ol > li')).toHaveCount(25)
  await expect(page.locator('main ol > li[data-rank="none"]')).toHaveCount(0)
  // the 26th ranked agent and the unranked one are left to the search results
  await expect(page.getByRole('heading', { name: 'Too few sales to rank here' })).toHaveCount(0)
  await expect(page.getByText(`2 more agents had a side in ${crowdZip}.`)).toBeVisible()
  const all = page.getByRole('link', { name: `See all 27 agents in ${crowdZip}` })
  await expect(all).toHaveAttribute('href', `/search-results?q=${crowdZip}&type=zipcode`)
  await all.click()
  await expect(page.getByRole('heading', { level: 1, name: `Top agents in ${crowdZip}` })).toBeVisible()
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
