/** The Get Report dialog on an agent profile: field errors that keep the typed values, success, the stored lead. */
import { expect, test, type Page } from '@playwright/test'
import { createAgents, makeSales, unusedZip, waitForAgentPage } from './agent-fixtures.ts'
import { sql } from './support.ts'
import { waitForIsland } from './site-support.ts'

const suffix = Date.now().toString(36)
let fixture: Awaited<ReturnType<typeof createAgents>>
const emails: string[] = []

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000)
  fixture = await createAgents(
    await unusedZip(),
    [{ name: `Rita Report ${suffix}`, sales: makeSales('Report', 6) }],
    'Leadton',
    'MA',
  )
  // the dialog and the lead are the island's and the function's: the page rendered on demand will do
  await waitForAgentPage(baseURL!, fixture.agents[0]!.id, { prerendered: false })
})

test.afterAll(async () => {
  await sql(`delete from public.report_requests where email = any($1)`, [emails])
  await fixture.remove()
})

async function openDialog(page: Page) {
  await page.goto(`/agent/${fixture.agents[0]!.id}`)
  await waitForIsland(page, 'AgentProfileActions')
  await page.getByRole('button', { name: 'Get Report' }).click()
  const dialog = page.getByRole('dialog', { name: `Get the report on ${fixture.agents[0]!.name}` })
  await expect(dialog).toBeVisible()
  return dialog
}

test('the dialog is keyboard accessible: focus moves in and Escape closes it', async ({ page }) => {
  const dialog = await openDialog(page)
  await expect(dialog.getByLabel('Full name')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('button', { name: 'Get Report' })).toBeFocused()
})

test('missing fields get inline errors and nothing is lost', async ({ page }) => {
  const dialog = await openDialog(page)
  await dialog.getByLabel('Email').fill('not-an-email')
  await dialog.getByLabel('Phone (optional)').fill('555 0100 222')
  await dialog.getByRole('button', { name: 'Request Report' }).click()
  await expect(dialog.getByText('Please enter your full name')).toBeVisible()
  await expect(dialog.getByText('Please enter a valid email address')).toBeVisible()
  await expect(dialog.getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true')
  await expect(dialog.getByLabel('Full name')).toBeFocused()
  await expect(dialog.getByLabel('Email')).toHaveValue('not-an-email')
  await expect(dialog.getByLabel('Phone (optional)')).toHaveValue('555 0100 222')
})

test("the function's field errors are shown and the typed values kept", async ({ page }) => {
  const dialog = await openDialog(page)
  // the browser check passes; the function's stricter rule (here forced) answers 400 with field errors
  await page.route('**/functions/v1/request-report', (route) =>
    route.fulfill({
      status: 400,
      json: { errors: { email: 'Please enter a valid email address' } },
      headers: { 'Access-Control-Allow-Origin': '*' },
    }),
  )
  await dialog.getByLabel('Full name').fill('Pat Buyer')
  await dialog.getByLabel('Email').fill('pat@example.com')
  await dialog.getByRole('button', { name: 'Request Report' }).click()
  await expect(dialog.getByText('Please enter a valid email address')).toBeVisible()
  await expect(dialog.getByLabel('Full name')).toHaveValue('Pat Buyer')
  await expect(dialog.getByLabel('Email')).toHaveValue('pat@example.com')
})

test("a rate-limited request shows the function's message", async ({ page }) => {
  const dialog = await openDialog(page)
  await page.route('**/functions/v1/request-report', (route) =>
    route.fulfill({
      status: 429,
      json: { error: 'Too many report requests. Please try again in an hour.' },
      headers: { 'Access-Control-Allow-Origin': '*' },
    }),
  )
  await dialog.getByLabel('Full name').fill('Pat Buyer')
  await dialog.getByLabel('Email').fill('pat@example.com')
  await dialog.getByRole('button', { name: 'Request Report' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Too many report requests. Please try again in an hour.')
  await expect(dialog.getByLabel('Full name')).toHaveValue('Pat Buyer')
})

test('a valid request is confirmed, links the sample report and is stored as a pending lead', async ({ page }) => {
  const agent = fixture.agents[0]!
  const email = `lead-${suffix}-${Math.floor(Math.random() * 1e6)}@example.com`
  emails.push(email)
  const dialog = await openDialog(page)
  await dialog.getByLabel('Full name').fill('Pat Buyer')
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Phone (optional)').fill('(617) 555-0188')
  await dialog.getByLabel('Property address (optional)').fill('9 Elm St, Leadton, MA')
  await dialog.getByRole('button', { name: 'Request Report' }).click()
  await expect(dialog.getByText('Thanks! Your report request has been received.')).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'see what a report contains' })).toHaveAttribute(
    'href',
    '/sample-report',
  )

  const rows = await sql(
    `select full_name, phone, property_address, agent_id, agent_name, agent_location, status from public.report_requests where email = $1`,
    [email],
  )
  expect(rows).toEqual([
    {
      full_name: 'Pat Buyer',
      phone: '(617) 555-0188',
      property_address: '9 Elm St, Leadton, MA',
      agent_id: agent.id,
      agent_name: agent.name,
      agent_location: 'Leadton, MA',
      status: 'pending',
    },
  ])
})
