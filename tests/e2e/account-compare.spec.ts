/**
 * The compare tray and saved agents at phone width: three agents added from a search result, a profile and a ZIP
 * page survive a reload and open the compare view together; signed in, the tray and a saved agent follow the visitor
 * to another browser.
 */
import { expect, type Browser, type Page } from '@playwright/test'
import { createAgents, makeSales, unusedZip, waitForAgentPage } from './agent-fixtures.ts'
import { waitForHeader, waitForIsland } from './site-support.ts'
import { sql, test, TEST_PASSWORD } from './support.ts'

const suffix = Date.now().toString(36)
let zip = ''
let fixture: Awaited<ReturnType<typeof createAgents>>
const phone = { width: 390, height: 844 }

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000)
  zip = await unusedZip()
  fixture = await createAgents(zip, [
    { name: `Ava Tray ${suffix}`, sales: makeSales('Ava', 7) },
    { name: `Ben Tray ${suffix}`, sales: makeSales('Ben', 5, 9) },
    { name: `Cy Tray ${suffix}`, sales: makeSales('Cy', 3, 12) },
  ])
  // the data change rebuilds the site: the profiles and the ZIP page must be live
  await waitForAgentPage(baseURL!, fixture.agents[1]!.id)
  for (let attempt = 0; (await fetch(`${baseURL}/agents/${zip}`)).status !== 200; attempt += 1) {
    if (attempt > 240) throw new Error(`/agents/${zip} was not built`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
})

test.afterAll(async () => {
  await fixture.remove()
})

const tray = (page: Page) => page.getByRole('region', { name: 'Compare selection' })

/** Signs in through /auth and waits for the page `next` leads back to. */
async function signIn(page: Page, email: string, next = '/') {
  await page.goto(`/auth?next=${encodeURIComponent(next)}`)
  await waitForIsland(page, 'AuthCard')
  await page.getByRole('main').getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByLabel('Password').fill(TEST_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL((url) => url.pathname + url.search === next, { timeout: 20_000 })
}

async function phonePage(browser: Browser) {
  const context = await browser.newContext({ viewport: phone })
  return { context, page: await context.newPage() }
}

test('three agents from a result, a profile and a ZIP page survive a reload, open together, and follow the account', async ({
  browser,
  baseURL,
  userEmail,
}) => {
  test.slow() // two browsers, a search, a profile, a ZIP page and two sign-ins
  const [ava, ben, cy] = fixture.agents as [
    (typeof fixture.agents)[0],
    (typeof fixture.agents)[0],
    (typeof fixture.agents)[0],
  ]
  const { context, page } = await phonePage(browser)

  // 1. a search result
  await page.goto(`/search-results?q=${zip}&type=zipcode`)
  await waitForIsland(page, 'SearchResults')
  await page.getByRole('checkbox', { name: `Add ${ava.name} to compare` }).check()
  await expect(tray(page)).toContainText('1 of 4 selected: pick one more')

  // 2. a profile (prebuilt HTML; the checkbox is live before any framework loads)
  await page.goto(`/agent/${ben.id}`)
  await waitForHeader(page)
  await expect(tray(page)).toContainText('1 of 4 selected')
  await page.getByRole('checkbox', { name: `Add ${ben.name} to compare` }).check()
  await expect(tray(page)).toContainText('2 of 4 selected')

  // 3. the ZIP page: the first two are ticked already
  await page.goto(`/agents/${zip}`)
  await waitForHeader(page)
  await expect(page.getByRole('checkbox', { name: `Add ${ava.name} to compare` })).toBeChecked()
  await expect(page.getByRole('checkbox', { name: `Add ${ben.name} to compare` })).toBeChecked()
  await page.getByRole('checkbox', { name: `Add ${cy.name} to compare` }).check()
  await expect(tray(page)).toContainText('3 of 4 selected')

  await page.reload()
  await waitForHeader(page)
  await expect(tray(page)).toContainText('3 of 4 selected')
  await expect(tray(page).getByRole('list', { name: 'Agents to compare' }).getByRole('link')).toHaveText([
    ava.name,
    ben.name,
    cy.name,
  ])
  // the tray stays clear of the page: nothing overflows sideways at 390 px
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  await tray(page).getByRole('link', { name: 'Compare 3 agents' }).click()
  await expect(page).toHaveURL(`${baseURL}/compare?agents=${[ava.id, ben.id, cy.id].join(',')}`)
  const columns = page
    .getByRole('list', { name: 'Agents compared' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading') })
  await expect(columns).toHaveCount(3, { timeout: 20_000 })
  await expect(columns.getByRole('heading')).toHaveText([ava.name, ben.name, cy.name])

  // signed in, the tray goes to the account; the heart saves an agent there
  await signIn(page, userEmail, `/agent/${ben.id}`)
  await waitForHeader(page)
  const [user] = await sql<{ id: string }>(`select id from auth.users where email = $1`, [userEmail])
  await expect
    .poll(
      async () =>
        (
          await sql<{ ids: string[] }>(`select agent_ids::text[] as ids from public.compare_lists where user_id = $1`, [
            user!.id,
          ])
        )[0]?.ids,
      { timeout: 20_000 },
    )
    .toEqual([ava.id, ben.id, cy.id])
  const heart = page.getByRole('button', { name: `Save ${ben.name}` })
  await expect(heart).toHaveAttribute('aria-pressed', 'false')
  await heart.click()
  await expect(heart).toHaveAttribute('aria-pressed', 'true')
  await context.close()

  // another browser: nothing stored locally until the visitor signs in
  const other = await phonePage(browser)
  await other.page.goto('/about')
  await waitForHeader(other.page)
  await expect(tray(other.page)).toBeHidden()
  await signIn(other.page, userEmail, '/about')
  await waitForHeader(other.page)
  await expect(tray(other.page)).toContainText('3 of 4 selected', { timeout: 20_000 })
  await tray(other.page).getByRole('link', { name: 'Compare 3 agents' }).click()
  await expect(
    other.page
      .getByRole('list', { name: 'Agents compared' })
      .getByRole('listitem')
      .filter({ has: other.page.getByRole('heading') })
      .getByRole('heading'),
  ).toHaveText([ava.name, ben.name, cy.name], { timeout: 20_000 })
  await other.page.goto('/account')
  await expect(other.page.getByRole('list', { name: 'Saved agents' }).getByRole('link')).toHaveText([ben.name], {
    timeout: 20_000,
  })
  await other.page.goto(`/agent/${ben.id}`)
  await waitForHeader(other.page)
  await expect(other.page.getByRole('button', { name: `Save ${ben.name}` })).toHaveAttribute('aria-pressed', 'true')
  await other.context.close()
})

test('a visitor who is not signed in is sent to sign in by the heart, and back afterwards', async ({
  page,
  userEmail,
}) => {
  const agent = fixture.agents[2]!
  await page.goto(`/agent/${agent.id}`)
  await waitForHeader(page)
  await page.getByRole('button', { name: `Save ${agent.name}` }).click()
  await expect(page).toHaveURL(/\/auth\?next=%2Fagent%2F/)
  await waitForIsland(page, 'AuthCard')
  await page.getByRole('main').getByRole('textbox', { name: 'Email' }).fill(userEmail)
  await page.getByLabel('Password').fill(TEST_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL((url) => url.pathname === `/agent/${agent.id}`, { timeout: 20_000 })
})

test('an agent can be taken out of the tray, or all of them at once', async ({ page }) => {
  await page.setViewportSize(phone)
  await page.goto(`/agents/${zip}`)
  await waitForHeader(page)
  for (const agent of fixture.agents) await page.getByRole('checkbox', { name: `Add ${agent.name} to compare` }).check()
  await tray(page)
    .getByRole('button', { name: `Remove ${fixture.agents[0]!.name} from compare` })
    .click()
  await expect(tray(page)).toContainText('2 of 4 selected')
  await expect(page.getByRole('checkbox', { name: `Add ${fixture.agents[0]!.name} to compare` })).not.toBeChecked()
  await tray(page).getByRole('button', { name: 'Clear' }).click()
  await expect(tray(page)).toBeHidden()
})
