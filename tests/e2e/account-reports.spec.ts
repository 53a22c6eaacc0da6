/**
 * A signed-in visitor asks for a report with the form filled in for them, finds it on /account, downloads the PDF
 * again, and deletes the account: the account is gone and the request stays only as an anonymous count.
 */
import fs from 'node:fs'
import { createClient } from '@supabase/supabase-js'
import { REPORT_PRIVACY_LINE } from '~/lib/privacy-notice.ts'
import { pdfText } from '../support/pdf-text.ts'
import { createAgents, makeSales, unusedZip, waitForAgentPage } from './agent-fixtures.ts'
import { waitForIsland } from './site-support.ts'
import { expect, sql, test, TEST_PASSWORD } from './support.ts'

const suffix = Date.now().toString(36)
const fullName = `Rhea Account ${suffix}`
const email = `e2e-account-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
let fixture: Awaited<ReturnType<typeof createAgents>>

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000)
  fixture = await createAgents(await unusedZip(), [{ name: `Paige Pdf ${suffix}`, sales: makeSales('Pdf', 6) }])
  const admin = createClient(process.env.TEST_SUPABASE_URL!, process.env.TEST_SUPABASE_SERVICE_ROLE_KEY!, {
    auth: { persistSession: false },
  })
  const { error } = await admin.auth.admin.createUser({
    email,
    password: TEST_PASSWORD,
    email_confirm: true,
    user_metadata: { full_name: fullName },
  })
  if (error) throw error
  // the dialog and the lead are the island's and the function's: the page rendered on demand will do
  await waitForAgentPage(baseURL!, fixture.agents[0]!.id, { prerendered: false })
})

test.afterAll(async () => {
  await sql(`delete from auth.users where email = $1`, [email])
  await fixture.remove()
})

test('a signed-in visitor requests a report, downloads it from their account, then deletes the account', async ({
  page,
}) => {
  test.slow()
  const agent = fixture.agents[0]!
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`/auth?next=${encodeURIComponent(`/agent/${agent.id}`)}`)
  await waitForIsland(page, 'AuthCard')
  await page.getByRole('main').getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByLabel('Password').fill(TEST_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL((url) => url.pathname === `/agent/${agent.id}`, { timeout: 20_000 })

  // the form is filled in from the account, and says who receives the request
  await waitForIsland(page, 'AgentProfileActions')
  await page.getByRole('button', { name: 'Get Report' }).click()
  const dialog = page.getByRole('dialog', { name: `Get the report on ${agent.name}` })
  await expect(dialog.getByLabel('Full name')).toHaveValue(fullName)
  await expect(dialog.getByLabel('Email')).toHaveValue(email)
  await expect(dialog.getByText(REPORT_PRIVACY_LINE)).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacy')
  await dialog.getByRole('button', { name: 'Request Report' }).click()
  await expect(dialog.getByRole('status')).toContainText(
    `The full performance report on ${agent.name} is on its way to ${email}.`,
  )

  // the account page lists it once mailed, with the PDF to download again
  await expect
    .poll(
      async () =>
        (await sql(`select 1 from public.report_requests where email = $1 and report_sent_at is not null`, [email]))
          .length,
      {
        timeout: 30_000,
      },
    )
    .toBe(1)
  await page.goto('/account')
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible({ timeout: 20_000 })
  const reports = page.getByRole('list', { name: 'Report requests' })
  await expect(reports.getByRole('listitem')).toHaveCount(1)
  await expect(reports).toContainText(agent.name)
  await expect(reports).toContainText('Emailed')
  const downloaded = page.waitForEvent('download')
  await reports.getByRole('button', { name: `Download the PDF report on ${agent.name}` }).click()
  const file = await downloaded
  expect(file.suggestedFilename()).toBe(`agent-report-paige-pdf-${suffix}.pdf`)
  const bytes = new Uint8Array(fs.readFileSync(await file.path()))
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
  expect(await pdfText(bytes)).toContain(agent.name)

  // delete the account
  await page.getByRole('button', { name: 'Delete my account' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete your account?' })
  await confirm.getByRole('button', { name: 'Delete my account' }).click()
  await expect(page.getByRole('heading', { name: 'Your account was deleted' })).toBeVisible({ timeout: 20_000 })
  expect(await sql(`select 1 from auth.users where email = $1`, [email])).toEqual([])
  expect(await sql(`select 1 from public.report_requests where email = $1`, [email])).toEqual([])
  expect(
    await sql(`select full_name from public.report_requests where agent_id = $1 and anonymized_at is not null`, [
      agent.id,
    ]),
  ).toEqual([{ full_name: 'Deleted account' }])
})
