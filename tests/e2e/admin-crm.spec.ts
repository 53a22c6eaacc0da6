/**
 * CRM (/admin/crm): the seed's counters and texts, search by name / email / agent / location, the status filter
 * (kept in the URL), Lead Details ('Not provided', Returning vs New Customer), status writes (toasts, stored rows,
 * no local change when the write fails), the pipeline (owner, notes history, follow-up with the overdue filter,
 * merging a duplicate, bulk status change), the CSV export of the filtered rows (the seed's columns, RFC 4180
 * quoting, formula neutralization that leaves phone numbers alone) and card rows at 390 px. Each test run seeds its
 * own leads, marked with a unique stamp, and removes them.
 */
import type { Page, Route } from '@playwright/test'
import { parse } from 'csv-parse/sync'
import fs from 'node:fs'
import { expect, signInAsAdmin, sql, test } from './support.ts'

// each test signs in and walks several screens; on a machine shared with other builds that can take over 30 s
test.describe.configure({ timeout: 90_000 })

// created dates below are shown in this zone ('Mar 5, 2026 9:30 AM' for 14:30 UTC)
test.use({ timezoneId: 'America/New_York' })

const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
const evilName = `=HYPERLINK("http://evil.test","x"), ${stamp}`
const alice = `Alice ${stamp}`
const bob = `Bob ${stamp}`
const dana = `Dana ${stamp}`
// the write test works on its own lead, outside the stamp the other tests count
const writeMarker = `w${Math.floor(Math.random() * 1e9).toString(36)}${Date.now().toString(36)}`
const erin = `Erin ${writeMarker}`
const erinEmail = `erin-${writeMarker}@example.com`
let adminEmail: string

test.beforeAll(async ({ adminEmail: email }) => {
  adminEmail = email
  await sql(
    `insert into public.report_requests
       (full_name, email, phone, property_address, agent_name, agent_location, status, notes, created_at, contacted_at)
     values
       ($1, $5, '555-0101', '12 Oak St', $6, $7, 'pending', null, '2026-03-05T14:30:00Z', null),
       ($2, $8, null, null, null, null, 'contacted', null, '2026-03-01T10:00:00Z', '2026-03-01T13:05:00Z'),
       ($2, $8, null, null, null, null, 'closed', null, '2026-03-02T10:00:00Z', '2026-03-02T11:00:00Z'),
       ($3, $9, '+1 555 0199', null, 'Agent Quote', 'Austin, TX', 'qualified', 'Said "call me"', '2026-03-03T10:00:00Z', '2026-03-03T12:00:00Z'),
       ($4, $10, null, null, null, null, 'closed', null, '2026-03-04T10:00:00Z', '2026-03-04T10:30:00Z')`,
    [
      alice,
      bob,
      evilName,
      dana,
      `alice-${stamp}@example.com`,
      `Agent Zed ${stamp}`,
      `Springfield ${stamp}, IL`,
      `bob-${stamp}@example.com`,
      `evil-${stamp}@example.com`,
      `dana-${stamp}@example.com`,
    ],
  )
})

test.afterAll(async () => {
  await sql(`delete from public.report_requests where email like $1 or email = $2`, [
    `%-${stamp}@example.com`,
    erinEmail,
  ])
})

async function openCrm(page: Page) {
  await signInAsAdmin(page, adminEmail)
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'CRM', exact: true }).click()
  await expect(page).toHaveURL(/\/admin\/crm$/)
  await expect(page.getByRole('heading', { name: 'CRM Dashboard' })).toBeVisible()
  await expect(page.getByText('Manage your report requests and leads', { exact: true })).toBeVisible()
}

const search = (page: Page) => page.getByRole('searchbox', { name: 'Search leads' })
const leadRows = (page: Page) => page.getByRole('row').filter({ hasText: stamp })
// the table behind the open (modal) dialog is aria-hidden, so it is found by markup rather than by role
const tableRow = (page: Page, name: string) => page.locator('tbody tr').filter({ hasText: name })
const toast = (page: Page, title: string) => page.getByRole('status').getByText(title, { exact: true })

async function rowNames(page: Page): Promise<string[]> {
  return (await leadRows(page).locator('td:nth-child(3)').allTextContents()).sort()
}

test('counters match the stored leads; search and the status filter narrow the table', async ({ page }) => {
  await openCrm(page)
  await expect(leadRows(page).first()).toBeVisible()
  // the seed's four counters against the table read now; other specs add and trash leads meanwhile (the trash spec,
  // the site's report requests), so a page loaded before such a change is loaded again and compared with a new read
  const counters = page.getByRole('group', { name: 'Lead counters' })
  await expect(async () => {
    const [counts] = await sql<{ total: number; pending: number; contacted: number; qualified: number }>(
      `select count(*)::int as total, count(*) filter (where status = 'pending')::int as pending,
              count(*) filter (where status = 'contacted')::int as contacted,
              count(*) filter (where status = 'qualified')::int as qualified
         from public.report_requests where deleted_at is null`,
    )
    try {
      await expect(counters.getByLabel(`Total Requests: ${counts!.total}`)).toBeVisible({ timeout: 3_000 })
      await expect(counters.getByLabel(`Pending: ${counts!.pending}`)).toBeVisible({ timeout: 1_000 })
      await expect(counters.getByLabel(`Contacted: ${counts!.contacted}`)).toBeVisible({ timeout: 1_000 })
      await expect(counters.getByLabel(`Qualified: ${counts!.qualified}`)).toBeVisible({ timeout: 1_000 })
    } catch (error) {
      await page.reload()
      await expect(leadRows(page).first()).toBeVisible()
      throw error
    }
  }).toPass({ timeout: 30_000 })

  await search(page).fill(stamp)
  await expect(leadRows(page)).toHaveCount(5)
  // by name, email (any case), agent name and agent location
  await search(page).fill(alice.toUpperCase())
  await expect.poll(() => rowNames(page)).toEqual([alice])
  await search(page).fill(`BOB-${stamp}@EXAMPLE.COM`)
  await expect.poll(() => rowNames(page)).toEqual([bob, bob])
  await search(page).fill(`agent zed ${stamp}`)
  await expect.poll(() => rowNames(page)).toEqual([alice])
  await search(page).fill(`Springfield ${stamp}`)
  await expect.poll(() => rowNames(page)).toEqual([alice])

  const aliceRow = leadRows(page).first()
  await expect(aliceRow).toContainText(`alice-${stamp}@example.com`)
  await expect(aliceRow).toContainText(`Agent Zed ${stamp}`)
  await expect(aliceRow).toContainText('Pending')
  await expect(aliceRow).toContainText('Mar 05, 2026 9:30 AM')

  await search(page).fill(stamp)
  const status = page.getByRole('combobox', { name: 'Filter by status' })
  await status.selectOption({ label: 'Closed' })
  await expect.poll(() => rowNames(page)).toEqual([bob, dana])
  await expect(page).toHaveURL(/[?&]status=closed/)
  await status.selectOption({ label: 'Qualified' })
  await expect.poll(() => rowNames(page)).toEqual([evilName])
  await expect(leadRows(page)).toContainText('2h 0m') // waited created → first contact
  await status.selectOption({ label: 'All Status' })
  await expect(leadRows(page)).toHaveCount(5)

  await search(page).fill(`nobody-${stamp}-x`)
  await expect(page.getByText('No report requests found')).toBeVisible()
})

test('Lead Details shows every field, Not provided and Returning / New', async ({ page }) => {
  await openCrm(page)
  await search(page).fill(`bob-${stamp}`)
  await expect(leadRows(page)).toHaveCount(2)
  await page
    .getByRole('button', { name: `View details for ${bob}` })
    .first()
    .click()
  const dialog = page.getByRole('dialog', { name: 'Lead Details' })
  await expect(dialog).toBeVisible()
  const field = (label: string) =>
    dialog
      .locator('div')
      .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
      .locator('dd')
  await expect(field('Name')).toHaveText(bob)
  await expect(field('Email')).toHaveText(`bob-${stamp}@example.com`)
  for (const label of ['Phone', 'Property Address', 'Agent', 'Agent Location'])
    await expect(field(label)).toHaveText('Not provided')
  await expect(field('Customer Type')).toHaveText('Returning Customer')
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toBeHidden()

  await search(page).fill(alice)
  await page.getByRole('button', { name: `View details for ${alice}` }).click()
  await expect(field('Customer Type')).toHaveText('New Customer')
  await expect(field('Phone')).toHaveText('555-0101')
  await expect(field('Property Address')).toHaveText('12 Oak St')
  await expect(field('Agent Location')).toHaveText(`Springfield ${stamp}, IL`)
  await expect(dialog.getByLabel('Status')).toHaveValue('pending')
})

test('status and notes are written, toasted and shown only when the write succeeded', async ({ page }) => {
  await sql(`insert into public.report_requests (full_name, email) values ($1, $2)`, [erin, erinEmail])
  await openCrm(page)
  await search(page).fill(erin)
  await page.getByRole('button', { name: `View details for ${erin}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Lead Details' })

  // a refused write leaves the row as it was
  await page.route('**/rest/v1/report_requests*', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'database unavailable' }),
        })
      : route.fallback(),
  )
  await dialog.getByLabel('Status').selectOption('contacted')
  await expect(toast(page, 'Failed to update status')).toBeVisible()
  await expect(dialog.getByLabel('Status')).toHaveValue('pending')
  await expect(tableRow(page, erin)).toContainText('Pending')
  await page.unroute('**/rest/v1/report_requests*')

  await dialog.getByLabel('Status').selectOption('contacted')
  await expect(toast(page, 'Status updated successfully')).toBeVisible()
  await expect(dialog.getByLabel('Status')).toHaveValue('contacted')
  await expect(tableRow(page, erin)).toContainText('Contacted')
  const [afterStatus] = await sql<{ status: string; contacted_at: Date | null }>(
    `select status, contacted_at from public.report_requests where email = $1`,
    [erinEmail],
  )
  expect(afterStatus!.status).toBe('contacted')
  expect(afterStatus!.contacted_at).not.toBeNull()

  // notes are a history: each added note is kept with its time and author
  const failNote = (route: Route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' })
      : route.fallback()
  await page.route('**/rest/v1/lead_notes*', failNote)
  await dialog.getByLabel('New note').fill('Prefers email, "after 5pm", =not a formula')
  await dialog.getByRole('button', { name: 'Add Note' }).click()
  await expect(toast(page, 'Failed to update notes')).toBeVisible()
  await expect(dialog.getByLabel('New note')).toHaveValue('Prefers email, "after 5pm", =not a formula')
  await page.unroute('**/rest/v1/lead_notes*', failNote)
  await dialog.getByRole('button', { name: 'Add Note' }).click()
  await expect(dialog.getByRole('list', { name: 'Notes history' }).getByRole('listitem')).toHaveCount(1)
  await dialog.getByLabel('New note').fill('Called back, wants a report on two agents')
  await dialog.getByRole('button', { name: 'Add Note' }).click()
  const history = dialog.getByRole('list', { name: 'Notes history' }).getByRole('listitem')
  await expect(history).toHaveCount(2)
  await expect(history.nth(0)).toContainText('Prefers email, "after 5pm", =not a formula')
  await expect(history.nth(1)).toContainText('Called back, wants a report on two agents')
  await expect(history.nth(1)).toContainText(adminEmail)
  const stored = await sql<{ body: string; author: string }>(
    `select n.body, u.email as author from public.lead_notes n join public.report_requests r on r.id = n.report_request_id
       join auth.users u on u.id = n.author_id where r.email = $1 order by n.id`,
    [erinEmail],
  )
  expect(stored).toEqual([
    { body: 'Prefers email, "after 5pm", =not a formula', author: adminEmail },
    { body: 'Called back, wants a report on two agents', author: adminEmail },
  ])

  // reopening shows what was stored
  await dialog.getByRole('button', { name: 'Close' }).click()
  await page.getByRole('button', { name: `View details for ${erin}` }).click()
  await expect(dialog.getByRole('list', { name: 'Notes history' }).getByRole('listitem')).toHaveCount(2)
})

test('Export CSV downloads the filtered rows with RFC 4180 quoting and neutralized formulas', async ({ page }) => {
  await openCrm(page)
  await search(page).fill(stamp)
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption({ label: 'Qualified' })
  await expect.poll(() => rowNames(page)).toEqual([evilName])
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption({ label: 'All Status' })
  await expect(leadRows(page)).toHaveCount(5)

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^report-requests-\d{4}-\d{2}-\d{2}\.csv$/)
  const content = fs.readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '')

  // the seed's columns first, the pipeline's after them
  expect(content.startsWith('Date,Name,Email,Phone,Address,Agent Name,Agent Location,Status,')).toBe(true)
  expect(content).toContain(`"'=HYPERLINK(""http://evil.test"",""x""), ${stamp}"`)
  const [header, ...rows] = parse(content) as string[][]
  expect(header!.slice(0, 8)).toEqual([
    'Date',
    'Name',
    'Email',
    'Phone',
    'Address',
    'Agent Name',
    'Agent Location',
    'Status',
  ])
  expect(header!.slice(8)).toEqual([
    'Owner',
    'Follow-up',
    'Source Page',
    'UTM Source',
    'UTM Medium',
    'UTM Campaign',
    'UTM Term',
    'UTM Content',
  ])
  expect(rows).toHaveLength(5)
  const byEmail = new Map(rows.map((row) => [row[2], row]))
  // a phone number is data, not a formula: no apostrophe
  expect(byEmail.get(`evil-${stamp}@example.com`)?.slice(0, 8)).toEqual([
    '2026-03-03',
    `'${evilName}`,
    `evil-${stamp}@example.com`,
    '+1 555 0199',
    '',
    'Agent Quote',
    'Austin, TX',
    'Qualified',
  ])
  expect(byEmail.get(`alice-${stamp}@example.com`)?.[0]).toBe('2026-03-05')
  expect(byEmail.get(`dana-${stamp}@example.com`)?.slice(0, 8)).toEqual([
    '2026-03-04',
    dana,
    `dana-${stamp}@example.com`,
    '',
    '',
    '',
    '',
    'Closed',
  ])

  // only the filtered rows are exported
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption({ label: 'Closed' })
  await expect(leadRows(page)).toHaveCount(2)
  const [closedDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ])
  const closed = parse(fs.readFileSync((await closedDownload.path())!, 'utf8').replace(/^\ufeff/, '')) as string[][]
  expect(
    closed
      .slice(1)
      .map((row) => row[1])
      .sort(),
  ).toEqual([bob, dana])
})

test('pipeline: assign an owner, add two notes, set a follow-up, filter overdue, merge a duplicate, bulk-change status', async ({
  page,
}) => {
  const marker = `p${Math.floor(Math.random() * 1e9).toString(36)}${Date.now().toString(36)}`
  const patEmail = `pat-${marker}@example.com`
  const quinnEmail = `quinn-${marker}@example.com`
  await sql(
    `insert into public.report_requests (full_name, email, phone, agent_name, created_at) values
       ($1, $2, '+1 512 555 0100', 'First Agent', now() - interval '2 days'),
       ($1, upper($2), null, 'Second Agent', now() - interval '1 day'),
       ($3, $4, null, null, now() - interval '3 hours')`,
    [`Pat ${marker}`, patEmail, `Quinn ${marker}`, quinnEmail],
  )
  try {
    await openCrm(page)
    await search(page).fill(marker)
    await expect(page.locator('tbody tr').filter({ hasText: marker })).toHaveCount(3)
    await page
      .getByRole('button', { name: `View details for Pat ${marker}` })
      .first()
      .click()
    const dialog = page.getByRole('dialog', { name: 'Lead Details' })
    await expect(dialog.getByRole('region', { name: 'Duplicates' })).toContainText('1 other request with this email')

    await dialog.getByLabel('Owner').selectOption({ label: adminEmail })
    await expect(toast(page, 'Owner Updated')).toBeVisible()
    await dialog.getByLabel('Next follow-up').fill('2020-01-02')
    await dialog.getByLabel('Next follow-up').blur()
    await expect(toast(page, 'Follow-up Set')).toBeVisible()
    for (const note of ['Left a voicemail', 'Sent the sample report']) {
      await dialog.getByLabel('New note').fill(note)
      await dialog.getByRole('button', { name: 'Add Note' }).click()
      await expect(dialog.getByRole('list', { name: 'Notes history' })).toContainText(note)
    }

    await dialog.getByRole('button', { name: 'Merge into this lead' }).click()
    await expect(toast(page, 'Leads Merged')).toBeVisible()
    const pats = await sql<{ owner: string; follow_up_on: string; notes: string[] }>(
      `select u.email as owner, r.follow_up_on::text, array(select n.body from public.lead_notes n where n.report_request_id = r.id order by n.id) as notes
         from public.report_requests r join auth.users u on u.id = r.owner_id where lower(r.email) = $1`,
      [patEmail],
    )
    expect(pats).toHaveLength(1)
    expect(pats[0]!.owner).toBe(adminEmail)
    expect(pats[0]!.follow_up_on).toBe('2020-01-02')
    expect(pats[0]!.notes.slice(0, 2)).toEqual(['Left a voicemail', 'Sent the sample report'])
    expect(pats[0]!.notes[2]).toMatch(
      /^Merged request of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: agent (First|Second) Agent/,
    )
    await dialog.getByRole('button', { name: 'Close' }).click()

    // the overdue filter shows the lead whose follow-up day has passed, and says so in the row
    await page.getByRole('combobox', { name: 'Filter by follow-up' }).selectOption('overdue')
    await expect(page).toHaveURL(/[?&]followUp=overdue/)
    const overdue = page.locator('tbody tr').filter({ hasText: marker })
    await expect(overdue).toHaveCount(1)
    await expect(overdue).toContainText('(overdue)')
    await expect(overdue).toContainText(adminEmail)
    await page.getByRole('combobox', { name: 'Filter by follow-up' }).selectOption('all')

    // bulk: both remaining leads to Qualified in one go
    await expect(page.locator('tbody tr').filter({ hasText: marker })).toHaveCount(2)
    await page.getByRole('checkbox', { name: `Select Pat ${marker}` }).check()
    await page.getByRole('checkbox', { name: `Select Quinn ${marker}` }).check()
    const bulk = page.getByRole('region', { name: 'Bulk actions' })
    await expect(bulk).toContainText('2 selected')
    await bulk.getByRole('combobox', { name: 'New status for the selected leads' }).selectOption('qualified')
    await bulk.getByRole('button', { name: 'Apply to selected' }).click()
    await expect(toast(page, 'Status updated successfully')).toBeVisible()
    // the merged duplicate waits in the trash
    const statuses = await sql<{ status: string }>(
      `select status from public.report_requests where lower(email) like $1 and deleted_at is null`,
      [`%-${marker}@example.com`],
    )
    expect(statuses.map((row) => row.status)).toEqual(['qualified', 'qualified'])
  } finally {
    await sql(`delete from public.report_requests where lower(email) like $1`, [`%-${marker}@example.com`])
  }
})

test('at 390 px leads are cards with their action on screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signInAsAdmin(page, adminEmail)
  await page.goto(`/admin/crm?q=${encodeURIComponent(alice)}`)
  const card = page.getByRole('list', { name: 'Report requests' }).getByRole('listitem').filter({ hasText: alice })
  await expect(card).toHaveCount(1)
  const view = card.getByRole('button', { name: `View details for ${alice}` })
  await expect(view).toBeInViewport()
  expect((await view.boundingBox())!.x + (await view.boundingBox())!.width).toBeLessThanOrEqual(390)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await view.click()
  await expect(page.getByRole('dialog', { name: 'Lead Details' })).toBeVisible()
  await expect(page).toHaveURL(/[?&]lead=/)
})
