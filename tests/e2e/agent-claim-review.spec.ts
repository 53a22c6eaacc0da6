/**
 * A correction from the owner's editor to the administrators' decision: the agent who claimed a demo profile files
 * "not my sale" from the "Correct this sale" link the sales behind a figure give them (visitors do not get it), an administrator finds it in Admin -> Agents,
 * refuses to reject without a reason, accepts it, and the figures, the queue, the audit trail and the agent's mailbox
 * follow.
 */
import type { Page } from '@playwright/test'
import { createAgents, makeSales, unusedZip } from './agent-fixtures.ts'
import { createTestUser, deleteTestUser, expect, signInAsAdmin, sql, test, TEST_PASSWORD } from './support.ts'
import { waitForIsland } from './site-support.ts'

const suffix = Date.now().toString(36)
let fixture: Awaited<ReturnType<typeof createAgents>>
let ownerEmail = ''
let saleId = ''
const recordId = `REV-${suffix.toUpperCase()}`

test.beforeAll(async () => {
  const zip = await unusedZip()
  fixture = await createAgents(zip, [{ name: `Riley Review ${suffix}`, sales: makeSales('Review', 3) }])
  const agent = fixture.agents[0]!
  const [sale] = await sql<{ id: string }>(
    `select id from public.properties where agent_id = $1 order by sale_date desc limit 1`,
    [agent.id],
  )
  saleId = sale!.id
  await sql(`update public.properties set source = 'e2e-review', source_record_id = $2 where id = $1`, [
    saleId,
    recordId,
  ])
  ownerEmail = await createTestUser('e2e-agent-owner')
  await sql(
    `insert into public.agent_claims (agent_id, user_id, status, method, approved_at)
     select $1, id, 'approved', 'admin', now() from auth.users where email = $2`,
    [agent.id, ownerEmail],
  )
  await sql(`update public.agents set claimed_at = now() where id = $1`, [agent.id])
})

test.afterAll(async () => {
  await fixture.remove()
  await deleteTestUser(ownerEmail)
})

async function signIn(page: Page, email: string, path: string) {
  await page.goto('/auth')
  await waitForIsland(page, 'AuthCard')
  await page.getByRole('main').getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByLabel('Password').fill(TEST_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })).toBeVisible({ timeout: 20_000 })
  await page.goto(path)
}

const totalSales = async (agentId: string) =>
  Number(
    (await sql<{ total_sales: number }>(`select total_sales from public.agents where id = $1`, [agentId]))[0]!
      .total_sales,
  )

test('the owner files "not my sale", an administrator accepts it in Admin -> Agents, and the figures follow', async ({
  browser,
  page,
  adminEmail,
}) => {
  test.slow()
  const agent = fixture.agents[0]!
  expect(await totalSales(agent.id)).toBe(3)

  const ownerContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  // the sales behind a figure offer the signed-in owner a link to correct each sale
  await signIn(owner, ownerEmail, `/figure-sales?agent=${agent.id}&figure=total_sales`)
  const saleRow = owner.getByRole('row').filter({ hasText: recordId })
  await saleRow.getByRole('link', { name: /^Correct this sale/ }).click()
  await expect(owner).toHaveURL(new RegExp(`/account/agent\\?kind=not_my_sale&property=${saleId}&sale=${recordId}`))
  const corrections = owner.getByRole('region', { name: 'Corrections of your record' })
  await expect(corrections.getByRole('textbox', { name: 'MLS number of the sale' })).toHaveValue(recordId)
  await corrections.getByRole('textbox', { name: /^Explanation/ }).fill('Listed by a colleague at my office.')
  await corrections.getByRole('button', { name: 'File correction' }).click()
  await expect(corrections.getByRole('status')).toHaveText('Correction filed. We will email you when it is decided.')
  await expect(corrections.getByRole('list', { name: 'Your corrections' })).toContainText('Not my sale: Pending')
  await ownerContext.close()

  await signInAsAdmin(page, adminEmail)
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Agents' }).click()
  await page.getByRole('tab', { name: 'Corrections' }).click()
  await page.getByRole('searchbox', { name: 'Search by agent or email' }).fill(agent.name)
  await page.getByRole('searchbox', { name: 'Search by agent or email' }).press('Enter')
  const row = page.getByRole('row').filter({ hasText: agent.name })
  await expect(row).toContainText(`MLS ${recordId}`)
  await expect(row).toContainText('Explanation: Listed by a colleague at my office.')

  // a refusal needs a reason, which the agent is mailed
  await row.getByRole('button', { name: `Reject correction of ${agent.name}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Reject correction' })
  await dialog.getByRole('button', { name: 'Reject' }).click()
  await expect(dialog.getByText('Give a reason: it is mailed to the agent')).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()

  await row.getByRole('button', { name: `Accept correction of ${agent.name}` }).click()
  await page.getByRole('dialog', { name: 'Accept correction' }).getByRole('button', { name: 'Accept' }).click()
  // accepting recomputes the figures, which waits for a metrics refresh another test (or an import) has running
  await expect(page.getByRole('status').getByText('Accepted', { exact: true })).toBeVisible({ timeout: 90_000 })
  await expect(page.getByRole('row').filter({ hasText: agent.name })).toHaveCount(0)
  expect(await totalSales(agent.id)).toBe(2)

  await page.getByRole('tab', { name: 'Audit trail' }).click()
  const trail = page.getByRole('row').filter({ hasText: 'Correction changed' }).first()
  await expect(trail).toContainText(adminEmail)
  await expect(trail).toContainText('accepted')

  const response = await fetch(`${process.env.TEST_MAILBOX_URL}/api/v1/messages?to=${encodeURIComponent(ownerEmail)}`)
  const mails = (await response.json()) as { subject: string }[]
  expect(mails.map((mail) => mail.subject)).toContain('Your correction on AgentInsight was accepted')
})

test('an accepted price correction shows on the sales behind a figure, marked as on the profile', async ({
  browser,
  adminEmail,
}) => {
  const agent = fixture.agents[0]!
  const [sale] = await sql<{ id: string; address: string }>(
    `select id, address from public.properties where agent_id = $1 and id <> $2 order by sale_date desc limit 1`,
    [agent.id, saleId],
  )
  // filed as the owner would and accepted through decide_agent_correction as an administrator at aal2 (the admin
  // queue's own browser flow is the test above)
  const [filed] = await sql<{ id: string }>(
    `insert into public.agent_corrections
       (agent_id, user_id, kind, property_id, listing_number, address, close_price, list_price,
        recorded_close_price, recorded_close_date, recorded_list_price)
     select $1, u.id, 'wrong_price_date', p.id, coalesce(p.source_record_id, 'E2E-PRICE'), p.address, 654321, 650000,
            p.sale_price, p.sale_date, p.list_price
       from auth.users u, public.properties p
      where u.email = $2 and p.id = $3
     returning id`,
    [agent.id, ownerEmail, sale!.id],
  )
  const [admin] = await sql<{ id: string }>(`select id from auth.users where email = $1`, [adminEmail])
  const claims = JSON.stringify({ sub: admin!.id, role: 'authenticated', aal: 'aal2' })
  await sql(
    `begin;
     select set_config('request.jwt.claims', '${claims}', true), set_config('request.jwt.claim.sub', '${admin!.id}', true);
     select public.decide_agent_correction('${filed!.id}', 'accept', null);
     commit;`,
  )

  const visitor = await browser.newPage()
  await visitor.goto(`/figure-sales?agent=${agent.id}&figure=total_sales`)
  const row = visitor.getByRole('row').filter({ hasText: sale!.address })
  await expect(row.getByTestId('correction-marker')).toHaveText('Price or date corrected: $654,321, list $650,000')
  await expect(row.getByRole('cell', { name: '$654,321' })).toBeVisible()
  await expect(row.getByRole('cell', { name: '$650,000' })).toBeVisible()
  // a visitor is offered no correction link
  await expect(visitor.getByRole('link', { name: /^Correct this sale/ })).toHaveCount(0)
  await visitor.close()
})
