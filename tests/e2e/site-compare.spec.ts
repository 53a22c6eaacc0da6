/**
 * Compare agents: picked from a ZIP search with "Add to compare", side by side at /compare?agents=…, shareable, mobile;
 * each column shows both sides with n, intervals and ZIP differences, every cell a link to the sales behind it.
 */
import { expect, test, type Page } from '@playwright/test'
import { figureDisplay } from '@shared/figure-display.ts'
import { figureSalesUrl } from '@shared/urls.ts'
import { createAgents, figuresRow, makeSales, unusedZip, waitForAgentPage } from './agent-fixtures.ts'
import { waitForIsland } from './site-support.ts'

const suffix = Date.now().toString(36)
let zip = ''
let fixture: Awaited<ReturnType<typeof createAgents>>

test.beforeAll(async () => {
  zip = await unusedZip()
  fixture = await createAgents(zip, [
    { name: `Cara Compare ${suffix}`, sales: makeSales('Cara', 7) },
    { name: `Dev Compare ${suffix}`, sales: makeSales('Dev', 5, 9) },
    { name: `Eli Compare ${suffix}`, sales: makeSales('Eli', 3, 12) },
  ])
})

test.afterAll(async () => {
  await fixture.remove()
})

/** The compare view's visible content, to check that two visits show the same thing. */
async function compareView(page: Page) {
  const columns = page
    .getByRole('list', { name: 'Agents compared' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading') })
  // the island loads React and three profiles before the columns appear
  await expect(columns).toHaveCount(3, { timeout: 20_000 })
  return {
    names: await columns.getByRole('heading', { level: 2 }).allInnerTexts(),
    leaders: await page.getByRole('region', { name: 'Who leads on what' }).innerText(),
  }
}

test('three agents picked from a ZIP search compare side by side, and the shared URL shows the same view', async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow() // two browser contexts, a search and six live profile loads
  // the compare page states the data date of the build: wait for the build the fixture's refresh asked for (on a
  // fresh stack the first build had no refresh yet and says "No closed sales counted yet")
  await waitForAgentPage(baseURL!, fixture.agents[0]!.id)
  await page.goto(`/search-results?q=${zip}&type=zipcode`)
  await waitForIsland(page, 'SearchResults')
  await expect(page.getByRole('link', { name: `Top agents in ${zip} with the ZIP's market figures` })).toHaveAttribute(
    'href',
    `/agents/${zip}`,
  )
  const compareLink = page.getByRole('link', { name: 'Compare 3 agents' })
  for (const agent of fixture.agents) await page.getByRole('checkbox', { name: `Add ${agent.name} to compare` }).check()
  await expect(page.getByRole('region', { name: 'Compare selection' })).toContainText('3 of 4 selected')
  await compareLink.click()

  const ids = fixture.agents.map((agent) => agent.id)
  await expect(page).toHaveURL(`${baseURL}/compare?agents=${ids.join(',')}`)
  const first = await compareView(page)
  // ranked by closed sales in the ZIP, picked in that order
  expect(first.names).toEqual(fixture.agents.map((agent) => agent.name))
  const cara = await figuresRow(fixture.agents[0]!.id)
  const column = page.getByRole('listitem', { name: fixture.agents[0]!.name })
  for (const metric of ['sale_to_list_median', 'buyer_sales', 'total_volume'] as const) {
    const shown = figureDisplay(cara, metric)
    const cell = column.locator(`[data-figure-row="${metric}"]`)
    await expect(
      cell.getByRole('link', { name: `${shown.label}: ${shown.value}. The sales behind this figure` }),
    ).toHaveAttribute('href', figureSalesUrl(cara.agent_id, metric))
    if (shown.interval) await expect(cell).toContainText(shown.interval)
  }
  await expect(column.locator('[data-figure-row="sale_to_list_median"]')).toContainText(
    `n = ${cara.sale_to_list_n} sales`,
  )
  await expect(column.getByTestId('compare-rank')).toHaveText(`Ranked #1 of 3 agents in ${zip} by sides`)
  await expect(page.getByTestId('data-as-of')).toContainText(
    /^Data as of .*, methodology v4\. How we compute these figures$/,
  )
  await expect(page.getByRole('region', { name: 'Who leads on what' })).toContainText(
    `${fixture.agents[0]!.name} has the most closed sales, both sides (7).`,
  )
  // Eli's 3 sales are too few for his rates to lead or his rank to count
  await expect(page.getByRole('listitem', { name: fixture.agents[2]!.name }).getByTestId('compare-rank')).toHaveText(
    `Too few sales to rank: 3 closed sales in ${zip} in the window, fewer than the 5 needed`,
  )

  const other = await browser.newContext()
  const shared = await other.newPage()
  await shared.goto(page.url())
  expect(await compareView(shared)).toEqual(first)
  await other.close()
})

test('at 390 px the compared agents stack without horizontal overflow', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`/compare?agents=${fixture.agents.map((agent) => agent.id).join(',')}`)
  await compareView(page)
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  const boxes = await Promise.all(
    fixture.agents.map((agent) => page.getByRole('listitem', { name: agent.name }).boundingBox()),
  )
  expect(boxes[1]!.y).toBeGreaterThanOrEqual(boxes[0]!.y + boxes[0]!.height)
})

test('a compare URL with one agent says what is missing', async ({ page }) => {
  await page.goto(`/compare?agents=${fixture.agents[0]!.id}`)
  await expect(page.getByRole('heading', { name: 'Nothing to compare yet' })).toBeVisible({ timeout: 20_000 })
  await expect(
    page.getByText(
      'Choose at least 2 agents to compare. Tick "Compare" on search results, agent profiles or ZIP and city pages.',
    ),
  ).toBeVisible()
})
