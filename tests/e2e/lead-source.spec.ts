/**
 * The lead's source end to end: a visitor lands with UTM parameters, moves on to an agent profile (the visit keeps
 * them in sessionStorage), requests a report there; the CRM's Lead Details show the page and the UTM parameters.
 */
import { createAgents, makeSales, unusedZip, waitForAgentPage } from './agent-fixtures.ts'
import { expect, signInAsAdmin, sql, test } from './support.ts'
import { waitForIsland } from './site-support.ts'

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
const email = `source-${suffix}@example.com`
let fixture: Awaited<ReturnType<typeof createAgents>>

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000)
  fixture = await createAgents(
    await unusedZip(),
    [{ name: `Sally Source ${suffix}`, sales: makeSales('Source', 6) }],
    'Sourceton',
    'MA',
  )
  // the dialog and the lead are the island's and the function's: the page rendered on demand will do
  await waitForAgentPage(baseURL!, fixture.agents[0]!.id, { prerendered: false })
})

test.afterAll(async () => {
  await sql(`delete from public.report_requests where email = $1`, [email])
  await fixture.remove()
})

test('a report request keeps the page and the UTM parameters of the visit, and the CRM shows them', async ({
  page,
  adminEmail,
}) => {
  const agent = fixture.agents[0]!
  // landing page with the campaign's parameters, left before any of its script files arrived (a quick visitor on a
  // slow network: the capture must not wait for a module request), then on to the agent without them
  await page.route('**/_astro/**/*.js', (route) => route.abort())
  await page.goto('/?utm_source=newsletter&utm_medium=email&utm_campaign=fall', { waitUntil: 'domcontentloaded' })
  await page.unrouteAll({ behavior: 'ignoreErrors' })
  await page.goto(`/agent/${agent.id}`)
  await waitForIsland(page, 'AgentProfileActions')
  await page.getByRole('button', { name: 'Get Report' }).click()
  const dialog = page.getByRole('dialog', { name: `Get the report on ${agent.name}` })
  await dialog.getByLabel('Full name').fill('Sam Source')
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByRole('button', { name: 'Request Report' }).click()
  await expect(dialog.getByText('Thanks! Your report request has been received.')).toBeVisible()
  expect(
    await sql(
      `select source_page, utm_source, utm_medium, utm_campaign, utm_term from public.report_requests where email = $1`,
      [email],
    ),
  ).toEqual([
    {
      source_page: `/agent/${agent.id}`,
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'fall',
      utm_term: null,
    },
  ])

  await signInAsAdmin(page, adminEmail)
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'CRM', exact: true }).click()
  await page.getByRole('searchbox', { name: 'Search leads' }).fill(email)
  await page.getByRole('button', { name: 'View details for Sam Source' }).first().click()
  const details = page.getByRole('dialog', { name: 'Lead Details' })
  const source = details
    .locator('div')
    .filter({ has: page.locator('dt', { hasText: /^Source$/ }) })
    .locator('dd')
  await expect(source).toHaveText(`/agent/${agent.id} · utm_source=newsletter · utm_medium=email · utm_campaign=fall`)
})
