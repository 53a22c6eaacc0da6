/**
 * /search-results: titles per type, counts, cards, the Top N% badge, paging, the skeleton, error and empty views.
 * The data tests run against the real search-agents function with fixture agents; the loading, error and paging
 * views also run with a routed answer so they do not depend on how many agents the database holds.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import type { AgentSearchResult, SearchAgentsResponse } from '@shared/search-contract.ts'
import { QUERY_TOO_LONG_MESSAGE } from '@shared/search-query-rules.ts'
import { createAgents, makeSales, unusedZip } from './agent-fixtures.ts'
import { waitForIsland } from './site-support.ts'

const cors = { 'Access-Control-Allow-Origin': '*' }

function fakeAgent(index: number, overrides: Partial<AgentSearchResult> = {}): AgentSearchResult {
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
    release()
    await expect(page.getByRole('heading', { level: 1, name: 'Agents matching "Routed"' })).toBeVisible()
    await expect(page.getByTestId('agent-card-skeleton')).toHaveCount(0)
  })

  test('the card: badge bands, price range, service areas, profile, call and email', async ({ page }) => {
    const agents = [
      fakeAgent(1, { local_ranking: 2, total_agents_in_area: 20 }),
      fakeAgent(2, { local_ranking: 5, total_agents_in_area: 20, service_areas: ['02139'] }),
      fakeAgent(3, { local_ranking: 9, total_agents_in_area: 20, phone: null, email: null }),
      fakeAgent(4, {
        local_ranking: null,
        total_agents_in_area: 20,
        ranking_note: 'Fewer than 5 closed sales in the window',
      }),
      fakeAgent(5, { local_ranking: 15, total_agents_in_area: 20 }),
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
    // below the top half: the rank, not a "Top 75%" that reads as praise
    await expect(card(5).getByTestId('ranking-badge')).toHaveText('Ranked #15 of 20')
    await expect(card(5).getByTestId('ranking-badge')).toHaveAttribute('data-tone', 'gray')

    await expect(card(1)).toContainText('$385K-$1,050K')
    await expect(card(1)).toContainText('99.4%')
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

  test.beforeAll(async () => {
    zip = await unusedZip()
    fixture = await createAgents(
      zip,
      [
        { name: `Quincy Zephyrhill ${suffix}`, sales: makeSales(`Zeph${suffix}`, 8) },
        { name: `Quinn Zephyrhill ${suffix}`, sales: makeSales(`Zeph2${suffix}`, 6, 9) },
        { name: `Lonely Oneoff ${suffix}`, sales: makeSales(`One${suffix}`, 1) },
      ],
      'Fixtureville',
      'MA',
    )
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

  test("a ZIP search lists the area's agents with the place and the ranking badge", async ({ page }) => {
    await page.goto(`/search-results?q=${zip}&type=zipcode`)
    await expect(page.getByRole('heading', { level: 1, name: `Top agents in ${zip}` })).toBeVisible(FIRST_ANSWER)
    const cards = page.getByRole('list', { name: 'Agents' }).getByRole('article')
    await expect(cards).toHaveCount(3)
    await expect(page.getByText(/^3 agents found/)).toBeVisible()
    // 1st of 3 ranked agents in the ZIP: round(1/3 × 100) = Top 33% (yellow); the one-sale agent has no ranking
    const quincy = page.getByRole('article', { name: `Quincy Zephyrhill ${suffix}` }).getByTestId('ranking-badge')
    await expect(quincy).toHaveText('Top 33%')
    await expect(quincy).toHaveAttribute('data-tone', 'yellow')
    await expect(
      page.getByRole('article', { name: `Lonely Oneoff ${suffix}` }).getByTestId('ranking-badge'),
    ).toHaveCount(0)
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
