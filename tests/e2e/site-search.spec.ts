/**
 * /search-results: titles per type, counts, cards (both sides, each figure a link to its sales), the Top N% badge,
 * paging, the skeleton, error and empty views, and the sort and filters of ZIP and address searches kept in the URL.
 * The data tests run against the real search-agents function with fixture agents (listing and buyer sides, property
 * types); the loading, error and paging views also run with a routed answer so they do not depend on how many agents
 * the database holds.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import type { AgentSearchResult, AgentSidesSummary, SearchAgentsResponse } from '@shared/search-contract.ts'
import { figureSalesUrl } from '@shared/urls.ts'
import { QUERY_TOO_LONG_MESSAGE } from '@shared/search-query-rules.ts'
import { createAgents, makeSales, unusedZip, waitForAgentPage } from './agent-fixtures.ts'
import { waitForIsland } from './site-support.ts'

const cors = { 'Access-Control-Allow-Origin': '*' }

function fakeSides(overrides: Partial<AgentSidesSummary> = {}): AgentSidesSummary {
  return {
    listing_sales: 14,
    listing_sides: 13.5,
    buyer_sales: 6,
    buyer_sides: 6,
    total_sales: 20,
    total_sides: 19.5,
    total_volume: 9_875_000,
    sale_to_list_median: 99.6,
    sale_to_list_n: 13,
    sale_to_list_shrunk: 99.5,
    zip_rank: 1,
    zip_agents: 20,
    ranking_note: null,
    last_close_date: '2026-10-01',
    window_start: '2024-10-02',
    window_end: '2026-10-01',
    ...overrides,
  }
}

function fakeAgent(
  index: number,
  overrides: Partial<AgentSearchResult> = {},
  sides: Partial<AgentSidesSummary> = {},
): AgentSearchResult {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    name: `Routed Agent ${index}`,
    email: `routed${index}@example.com`,
    phone: '(617) 555-0142',
    photo_url: null,
    brokerage: 'Routed Realty',
    license_number: null,
    years_experience: 8,
    rating: 4.2,
    review_count: 12,
    total_sales: 20 + index,
    average_sale_to_list_ratio: 99.4,
    average_days_on_market: 18.5,
    price_range_min: 385_000,
    price_range_max: 1_050_000,
    market_share: 4.5,
    local_ranking: 1,
    total_agents_in_area: 20,
    ranking_note: null,
    service_areas: ['02139', '02140', '02141', '02142'],
    city: 'Cambridge',
    state: 'MA',
    zip_code: '02139',
    primary_zip_code: '02139',
    sales_in_area: null,
    match_score: null,
    sides: fakeSides(sides),
    ...overrides,
  }
}

test.describe('with a routed search answer', () => {
  test('shows six skeleton cards while loading, then the cards', async ({ page }) => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/functions/v1/search-agents', async (route) => {
      await gate
      const body: SearchAgentsResponse = {
        agents: [fakeAgent(1)],
        totalResults: 1,
        location: null,
        limit: 12,
        offset: 0,
      }
      await route.fulfill({ json: body, headers: cors })
    })
    await page.goto('/search-results?q=Routed&type=agent')
    await expect(page.getByTestId('agent-card-skeleton')).toHaveCount(6)
    // the heading is the page's largest text: it is titled from the query before the answer (and the island) come
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Agents matching "Routed"')
    release()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Agents matching "Routed"')
    await expect(page.getByTestId('agent-card-skeleton')).toHaveCount(0)
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
  })

  test('on a phone nothing below the results moves up into view when the answer is shorter than the skeleton', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.route('**/functions/v1/search-agents', (route) =>
      route.fulfill({
        json: { agents: [], totalResults: 0, location: null, limit: 12, offset: 0 },
        headers: cors,
      }),
    )
    await page.goto('/search-results?q=Routed&type=agent')
    await expect(page.getByTestId('agent-card-skeleton')).toHaveCount(0)
    // the layout shifts of the load (Layout Instability API), as Lighthouse sums them into CLS
    const shifts = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
              if (!entry.hadRecentInput) total += entry.value
          }).observe({ type: 'layout-shift', buffered: true })
          setTimeout(() => resolve(total), 500)
        }),
    )
    expect(shifts).toBeLessThan(0.01)
  })

  test('the card: badge bands, price range, service areas, profile, call and email', async ({ page }) => {
    // the badge is the rank by sides in the agent's primary ZIP (both sides), not the listing-side rank
    const agents = [
      fakeAgent(1, { local_ranking: 9 }, { zip_rank: 2, zip_agents: 20 }),
      fakeAgent(2, { service_areas: ['02139'] }, { zip_rank: 5, zip_agents: 20 }),
      fakeAgent(3, { phone: null, email: null }, { zip_rank: 9, zip_agents: 20 }),
      fakeAgent(
        4,
        {},
        {
          zip_rank: null,
          zip_agents: 20,
          ranking_note: 'Too few sales to rank: 3 closed sales in 02139 in the window, fewer than the 5 needed',
        },
      ),
      fakeAgent(5, {}, { zip_rank: 15, zip_agents: 20 }),
    ]
    await page.route('**/functions/v1/search-agents', (route) =>
      route.fulfill({
        json: {
          agents,
          totalResults: 5,
          location: { city: 'Cambridge', state: 'MA', zipCode: '02139' },
          limit: 12,
          offset: 0,
        },
        headers: cors,
      }),
    )
    await page.goto('/search-results?q=02139&type=zipcode')
    await waitForIsland(page, 'SearchResults')
    await expect(page.getByRole('heading', { level: 1, name: 'Top agents in 02139' })).toBeVisible()
    await expect(page.getByText('5 agents found in Cambridge, MA')).toBeVisible()

    const card = (n: number) => page.getByRole('article', { name: `Routed Agent ${n}` })
    await expect(card(1).getByTestId('ranking-badge')).toHaveText('Top 10%')
    await expect(card(1).getByTestId('ranking-badge')).toHaveAttribute('data-tone', 'green')
    await expect(card(2).getByTestId('ranking-badge')).toHaveText('Top 25%')
    await expect(card(2).getByTestId('ranking-badge')).toHaveAttribute('data-tone', 'blue')
    await expect(card(3).getByTestId('ranking-badge')).toHaveText('Top 45%')
    await expect(card(3).getByTestId('ranking-badge')).toHaveAttribute('data-tone', 'yellow')
    await expect(card(3).getByTestId('ranking-badge')).toHaveClass(/bg-yellow-100/)
    await expect(card(4).getByTestId('ranking-badge')).toHaveCount(0)
    await expect(card(4).getByTestId('ranking-note')).toHaveText(
      'Too few sales to rank: 3 closed sales in 02139 in the window, fewer than the 5 needed',
    )
    await expect(card(1).getByTestId('ranking-badge')).toHaveAttribute(
      'href',
      figureSalesUrl(agents[0]!.id, 'zip_sides'),
    )
    // below the top half: the rank, not a "Top 75%" that reads as praise
    await expect(card(5).getByTestId('ranking-badge')).toHaveText('Ranked #15 of 20')
    await expect(card(5).getByTestId('ranking-badge')).toHaveAttribute('data-tone', 'gray')

    await expect(card(1)).toContainText('$385K-$1,050K')
    // both sides on the card, each figure a link to the sales behind it
    for (const [label, metric, text] of [
      ['Listing sales', 'listing_sales', '14'],
      ['Buyer sales', 'buyer_sales', '6'],
      ['Sale-to-list (median)', 'sale_to_list_median', '99.6%'],
      ['Volume (both sides)', 'total_volume', '$9,875,000'],
      ['Days on market (mean)', 'days_on_market_mean', '18.5 days'],
      ['Listing-side price range', 'listing_price_max', '$385K-$1,050K'],
    ] as const) {
      const link = card(1).getByRole('link', { name: `${label}: ${text}. The sales behind this figure` })
      await expect(link).toHaveText(text)
      await expect(link).toHaveAttribute('href', figureSalesUrl(agents[0]!.id, metric))
    }
    await expect(card(1)).toContainText('n = 13')
    await expect(card(1).getByRole('list', { name: 'Service areas' })).toHaveText(/02139\s*02140\s*\+2 more/)
    await expect(card(2).getByRole('list', { name: 'Service areas' })).not.toContainText('more')
    await expect(card(1).getByRole('link', { name: 'View Profile of Routed Agent 1' })).toHaveAttribute(
      'href',
      `/agent/${agents[0]!.id}`,
    )
    await expect(card(1).getByRole('link', { name: 'Call Routed Agent 1' })).toHaveAttribute('href', 'tel:6175550142')
    await expect(card(1).getByRole('link', { name: 'Email Routed Agent 1' })).toHaveAttribute(
      'href',
      'mailto:routed1@example.com',
    )
    await expect(card(3).getByRole('link', { name: /^Call / })).toHaveCount(0)
    await expect(card(3).getByRole('link', { name: /^Email / })).toHaveCount(0)

    const { violations } = await new AxeBuilder({ page }).analyze()
    expect(
      violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => violation.id),
    ).toEqual([])
  })

  test('Load more asks for the next page and appends it', async ({ page }) => {
    const offsets: number[] = []
    await page.route('**/functions/v1/search-agents', async (route) => {
      const request = route.request().postDataJSON() as { offset: number; limit: number }
      offsets.push(request.offset)
      const agents = Array.from({ length: request.offset === 0 ? request.limit : 3 }, (_, i) =>
        fakeAgent(request.offset + i + 1),
      )
      await route.fulfill({
        json: { agents, totalResults: request.limit + 3, location: null, limit: request.limit, offset: request.offset },
        headers: cors,
      })
    })
    await page.goto('/search-results?q=Routed')
    await waitForIsland(page, 'SearchResults')
    const cards = page.getByRole('list', { name: 'Agents' }).getByRole('article')
    await expect(cards).toHaveCount(12)
    await expect(page.getByText('15 agents found')).toBeVisible()
    await page.getByRole('button', { name: /Load more \(12 of 15 shown\)/ }).click()
    await expect(cards).toHaveCount(15)
    await expect(page.getByRole('button', { name: /Load more/ })).toHaveCount(0)
    expect(offsets).toEqual([0, 12])
  })

  test('a failed search shows the error view with the message and Back to Search', async ({ page }) => {
    await page.route('**/functions/v1/search-agents', (route) =>
      route.fulfill({ status: 500, json: { error: 'Search function failed' }, headers: cors }),
    )
    await page.goto('/search-results?q=Anyone&type=agent')
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible()
    await expect(page.getByText('Failed to search agents: Search function failed')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to Search' })).toHaveAttribute('href', '/search')
  })

  test('an error without a message says "Search function failed"; a 200 without data says so', async ({ page }) => {
    await page.route('**/functions/v1/search-agents', (route) =>
      route.fulfill({ status: 502, body: 'Bad gateway', headers: cors }),
    )
    await page.goto('/search-results?q=Anyone&type=agent')
    await expect(page.getByText('Failed to search agents: Search function failed')).toBeVisible()

    await page.unroute('**/functions/v1/search-agents')
    await page.route('**/functions/v1/search-agents', (route) =>
      route.fulfill({ status: 200, body: '', headers: cors }),
    )
    await page.goto('/search-results?q=Anyone&type=agent')
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible()
    await expect(page.getByText('Failed to search agents: No data returned from search function')).toBeVisible()
  })
})

test('no query shows the empty view without searching', async ({ page }) => {
  let searched = false
  await page.route('**/functions/v1/search-agents', (route) => {
    searched = true
    return route.abort()
  })
  await page.goto('/search-results')
  await waitForIsland(page, 'SearchResults')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Agent search results')
  await expect(page.getByRole('heading', { name: 'No agents found' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'New Search' })).toHaveAttribute('href', '/search')
  await page.goto('/search-results?q=%20%20&type=zipcode')
  await waitForIsland(page, 'SearchResults')
  await expect(page.getByRole('heading', { name: 'No agents found' })).toBeVisible()
  expect(searched).toBe(false)
})

test.describe('against the search-agents function', () => {
  const suffix = Date.now()
    .toString(36)
    .replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)]!)
  let zip = ''
  let fixture: Awaited<ReturnType<typeof createAgents>>

  const quinnMls = `E2E-QUINN-${suffix}`
  test.beforeAll(async ({ baseURL }) => {
    test.setTimeout(300_000)
    zip = await unusedZip()
    // Quincy lists 8 homes ($400K-$575K), the first four condominiums; Quinn lists 6 houses and brings the buyers of
    // Quincy's 2nd to 5th: by sides Quinn leads (10 to 8), by listing sales Quincy (8 to 6), in condominiums
    // Quincy (4 to 3), between $300K and $500K Quinn (9 to 5)
    fixture = await createAgents(
      zip,
      [
        {
          name: `Quincy Zephyrhill ${suffix}`,
          sales: makeSales(`Zeph${suffix}`, 8).map((sale, index) => ({
            ...sale,
            propertyType: index < 4 ? 'Condominium' : 'Residential',
            ...(index >= 1 && index <= 4 ? { buyerMlsId: quinnMls } : {}),
          })),
        },
        {
          name: `Quinn Zephyrhill ${suffix}`,
          mlsId: quinnMls,
          sales: makeSales(`Zeph2${suffix}`, 6, 9).map((sale) => ({ ...sale, propertyType: 'Residential' })),
        },
        {
          name: `Lonely Oneoff ${suffix}`,
          sales: makeSales(`One${suffix}`, 1).map((sale) => ({ ...sale, propertyType: 'Residential' })),
        },
      ],
      'Fixtureville',
      'MA',
    )
    // the results page's data date is prebuilt from the latest metrics refresh: wait for the build after this one
    await waitForAgentPage(baseURL!, fixture.agents[1]!.id)
  })
  test.afterAll(async () => fixture?.remove())

  // The first answer of the real function can take several seconds on a busy machine (Deno start, metrics query).
  const FIRST_ANSWER = { timeout: 20_000 }

  test('an agent-name search (the default type) finds the agents by name', async ({ page }) => {
    await page.goto(`/search-results?q=${encodeURIComponent(`Zephyrhill ${suffix}`)}`)
    await expect(page.getByRole('heading', { level: 1, name: `Agents matching "Zephyrhill ${suffix}"` })).toBeVisible(
      FIRST_ANSWER,
    )
    await expect(page.getByRole('article', { name: `Quincy Zephyrhill ${suffix}` })).toBeVisible()
    await expect(page.getByRole('article', { name: `Quinn Zephyrhill ${suffix}` })).toBeVisible()
    await expect(page.getByRole('article', { name: `Lonely Oneoff ${suffix}` })).toHaveCount(0)
    const quincy = fixture.agents[0]!
    await page.getByRole('link', { name: `View Profile of ${quincy.name}` }).click()
    await expect(page).toHaveURL(new RegExp(`/agent/${quincy.id}$`))
    await expect(page.getByRole('heading', { level: 1, name: quincy.name })).toBeVisible()
  })

  test("a ZIP search lists the area's agents by sides with the place, the ranking badge and the data date", async ({
    page,
  }) => {
    await page.goto(`/search-results?q=${zip}&type=zipcode`)
    await expect(page.getByRole('heading', { level: 1, name: `Top agents in ${zip}` })).toBeVisible(FIRST_ANSWER)
    const cards = page.getByRole('list', { name: 'Agents' }).getByRole('article')
    await expect(cards).toHaveCount(3)
    await expect(page.getByText(/^3 agents found/)).toBeVisible()
    // Quinn's 6 listing and 4 buyer sides come before Quincy's 8 listing sides
    await expect(cards.getByRole('heading')).toHaveText([
      `Quinn Zephyrhill ${suffix}`,
      `Quincy Zephyrhill ${suffix}`,
      `Lonely Oneoff ${suffix}`,
    ])
    const quinn = page.getByRole('article', { name: `Quinn Zephyrhill ${suffix}` })
    await expect(quinn.getByTestId('area-figures')).toHaveText(/^#1 here: 10 sales · 10 sides · \$/)
    await expect(quinn.getByRole('link', { name: /^Buyer sales: 4\./ })).toHaveAttribute(
      'href',
      figureSalesUrl(fixture.agents[1]!.id, 'buyer_sales'),
    )
    // 1st of 3 agents with sides in the ZIP: round(1/3 × 100) = Top 33% (yellow); the one-sale agent is not ranked
    await expect(quinn.getByTestId('ranking-badge')).toHaveText('Top 33%')
    await expect(quinn.getByTestId('ranking-badge')).toHaveAttribute('data-tone', 'yellow')
    const lonely = page.getByRole('article', { name: `Lonely Oneoff ${suffix}` })
    await expect(lonely.getByTestId('ranking-badge')).toHaveCount(0)
    await expect(lonely.getByTestId('ranking-note')).toHaveText(
      `Too few sales to rank: 1 closed sale in ${zip} in the window, fewer than the 5 needed`,
    )
    await expect(page.getByTestId('data-as-of')).toContainText(/^Data as of \w{3} \d{1,2}, \d{4}.*, methodology v4\./)
    await expect(page.getByRole('link', { name: 'How we compute these figures' })).toHaveAttribute(
      'href',
      '/methodology',
    )
  })

  test('sort and filters (side, price band, property type) reorder the area, live in the URL and come back with Back', async ({
    page,
    baseURL,
  }) => {
    const names = () => page.getByRole('list', { name: 'Agents' }).getByRole('article').getByRole('heading')
    const [quincy, quinn, lonely] = fixture.agents.map((agent) => agent.name)
    await page.goto(`/search-results?q=${zip}&type=zipcode`)
    await expect(names()).toHaveText([quinn!, quincy!, lonely!], FIRST_ANSWER)
    const controls = page.getByRole('form', { name: 'Sort and filter' })

    await controls.getByLabel('Sort by').selectOption({ label: 'Most listing sales' })
    await expect(page).toHaveURL(`${baseURL}/search-results?q=${zip}&type=zipcode&sort=listing_sales`)
    await expect(names()).toHaveText([quincy!, quinn!, lonely!])

    await controls.getByLabel('Sort by').selectOption({ label: 'Most buyer sales' })
    await expect(names().first()).toHaveText(quinn!)

    // like-for-like: only the condominiums count (the area's property types are the menu's options)
    await expect(controls.getByLabel('Property type').getByRole('option')).toHaveText([
      'Any type',
      'Condominium',
      'Residential',
    ])
    await controls.getByLabel('Sort by').selectOption({ label: 'Most sides (listing and buyer)' })
    await controls.getByLabel('Property type').selectOption('Condominium')
    await expect(page).toHaveURL(`${baseURL}/search-results?q=${zip}&type=zipcode&propertyType=Condominium`)
    await expect(names()).toHaveText([quincy!, quinn!])
    await expect(page.getByRole('article', { name: quinn! }).getByTestId('area-figures')).toHaveText(
      /^#2 here: 3 sales · 3 sides · /,
    )

    await controls.getByLabel('Property type').selectOption('')
    await controls.getByLabel('Sale price').selectOption({ label: '$300K to $500K' })
    await expect(page).toHaveURL(`${baseURL}/search-results?q=${zip}&type=zipcode&minPrice=300000&maxPrice=499999`)
    await expect(names().first()).toHaveText(quinn!)

    await controls.getByLabel('Sale price').selectOption('')
    await controls.getByLabel('Side').selectOption({ label: 'Listing side only' })
    await expect(page).toHaveURL(`${baseURL}/search-results?q=${zip}&type=zipcode&side=listing`)
    await expect(names()).toHaveText([quincy!, quinn!, lonely!])

    // Back returns to the previous search, and a shared URL opens the same view
    await page.goBack()
    await expect(page).toHaveURL(`${baseURL}/search-results?q=${zip}&type=zipcode`)
    await expect(names()).toHaveText([quinn!, quincy!, lonely!])
    await page.goto(`/search-results?q=${zip}&type=zipcode&sort=listing_sales&propertyType=Condominium`)
    await expect(names()).toHaveText([quincy!, quinn!], FIRST_ANSWER)
    await expect(controls.getByLabel('Sort by')).toHaveValue('listing_sales')
    await expect(controls.getByLabel('Property type')).toHaveValue('Condominium')
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await expect(page).toHaveURL(`${baseURL}/search-results?q=${zip}&type=zipcode&sort=listing_sales`)
  })

  test('at 390 px the sort and filters fold behind a button, open while one is set, without horizontal overflow', async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`/search-results?q=${zip}&type=zipcode&side=buyer`)
    await expect(page.getByRole('list', { name: 'Agents' }).getByRole('article')).toHaveCount(1, FIRST_ANSWER)
    const controls = page.getByRole('form', { name: 'Sort and filter' })
    await expect(controls.getByLabel('Side')).toBeVisible()
    await expect(controls.getByLabel('Side')).toHaveValue('buyer')
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

    // no sort or filter set: folded, so the first card starts higher; the button opens them
    await page.goto(`/search-results?q=${zip}&type=zipcode`)
    const toggle = page.getByRole('button', { name: 'Sort and filter' })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false', FIRST_ANSWER)
    await expect(controls).toBeHidden()
    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await controls.getByLabel('Sort by').selectOption('volume')
    await expect(page).toHaveURL(`${baseURL}/search-results?q=${zip}&type=zipcode&sort=volume`)
    await expect(controls.getByLabel('Sort by')).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  })

  test('a name search has no sort or filters', async ({ page }) => {
    await page.goto(`/search-results?q=${encodeURIComponent(`Zephyrhill ${suffix}`)}&sort=volume`)
    await expect(page.getByRole('article', { name: `Quincy Zephyrhill ${suffix}` })).toBeVisible(FIRST_ANSWER)
    await expect(page.getByRole('form', { name: 'Sort and filter' })).toHaveCount(0)
  })

  test('an address search uses the address title', async ({ page }) => {
    await page.goto(
      `/search-results?q=${encodeURIComponent(`100 Zeph${suffix} St, Fixtureville, MA ${zip}`)}&type=address`,
    )
    await expect(
      page.getByRole('heading', { level: 1, name: `Agents near 100 Zeph${suffix} St, Fixtureville, MA ${zip}` }),
    ).toBeVisible(FIRST_ANSWER)
    await expect(page.getByText(/agents? found/)).toBeVisible()
  })

  test('no match shows the empty view with the spec text and New Search', async ({ page }) => {
    await page.goto(`/search-results?q=Nobody${suffix}Xylophone&type=agent`)
    await expect(page.getByRole('heading', { name: 'No agents found' })).toBeVisible(FIRST_ANSWER)
    await expect(
      page.getByText(`We couldn't find any agents matching "Nobody${suffix}Xylophone". Try adjusting your search.`),
    ).toBeVisible()
    await expect(page.getByText('0 agents found')).toBeVisible()
    await expect(page.getByRole('link', { name: 'New Search' })).toHaveAttribute('href', '/search')
  })

  test('a query the function refuses is a correctable message under a prefilled search box, not an error', async ({
    page,
  }) => {
    const query = 'a'.repeat(250)
    await page.goto(`/search-results?q=${query}&type=agent`)
    await waitForIsland(page, 'SearchResults')
    await expect(page.getByRole('alert')).toHaveText(QUERY_TOO_LONG_MESSAGE, FIRST_ANSWER)
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0)
    // the heading still names the search; the message under the prefilled box says what to correct
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Agents matching "${query}"`)
    const box = page.getByRole('main').getByRole('textbox', { name: 'Agent name' })
    await expect(box).toHaveValue(query)
    await box.fill(`Zephyrhill ${suffix}`)
    await page.getByRole('main').getByRole('button', { name: 'Search' }).click()
    await expect(page.getByRole('heading', { level: 1, name: `Agents matching "Zephyrhill ${suffix}"` })).toBeVisible(
      FIRST_ANSWER,
    )

    await page.goto('/search-results?q=abc&type=zipcode')
    await expect(page.getByRole('alert')).toHaveText('Enter a 5-digit ZIP code, for example 02139.', FIRST_ANSWER)
    await expect(page.getByRole('tab', { name: 'ZIP Code' })).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByRole('main').getByRole('textbox', { name: 'ZIP code' })).toHaveValue('abc')
  })
})
