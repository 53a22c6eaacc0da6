/**
 * Admin -> Imports: the data imports newest first with what each read and did and how it ended (a failed run's error
 * and rejects file shown), and the RESO Web API feeds' sync state; at 1280 px a table, at 390 px cards.
 */
import { expect, signInAsAdmin, sql, test } from './support.ts'

const source = `e2e-imports-${Date.now().toString(36)}`

test.beforeAll(async () => {
  await sql(
    `insert into public.import_runs
       (origin, source, resource, file_name, file_sha256, file_bytes, status, rows_read, rows_inserted, rows_updated,
        rows_unchanged, rows_rejected, rows_duplicate, rows_skipped, rejects_file, error, started_at, finished_at)
     values
       ('file', $1, 'Property', 'feeds/sold-2026-11.csv', repeat('a', 64), 3742000, 'succeeded', 1200, 1100, 60, 37,
        0, 3, 13, null, null, now() - interval '3 minutes', now() - interval '1 minute'),
       ('reso_web_api', $1, 'Property', 'https://reso.example/odata/Property', null, null, 'rejected', 10, 0, 0, 0,
        6, 0, 0, 'imports/rejects/property.rejects.csv',
        '6 of 10 records rejected (60 %), more than the 5 % limit: nothing applied',
        now() - interval '30 seconds', now() - interval '29 seconds')`,
    [source],
  )
  await sql(
    `insert into public.reso_sync_state (source, resource, high_water, last_completed_at, last_run_records, rejected_keys)
     values ($1, 'Property', '2026-11-20T10:00:00Z', now() - interval '1 hour', 4210, array['K1', 'K2'])`,
    [source],
  )
})

test.afterAll(async () => {
  await sql(`delete from public.import_runs where source = $1`, [source])
  await sql(`delete from public.reso_sync_state where source = $1`, [source])
})

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width} px an administrator sees each run's counts, status and error, and the feeds`, async ({
    page,
    adminEmail,
  }) => {
    await page.setViewportSize(viewport)
    await signInAsAdmin(page, adminEmail)
    await page.goto('/admin/imports')
    await expect(page.getByRole('heading', { name: 'Data Imports', level: 1 })).toBeVisible()

    const runs = page.locator('[data-import-run]').filter({ hasText: source })
    await expect(runs).toHaveCount(2)
    // newest first: the rejected run, with why and where its rejects are
    const rejected = runs.first()
    await expect(rejected).toContainText('https://reso.example/odata/Property')
    await expect(rejected).toContainText('RESO Web API')
    await expect(rejected).toContainText('Rejected')
    await expect(rejected).toContainText('10 read: 0 new, 0 updated, 0 unchanged, 6 rejected')
    await expect(rejected).toContainText('more than the 5 % limit: nothing applied')
    await expect(rejected).toContainText('imports/rejects/property.rejects.csv')
    const applied = runs.nth(1)
    await expect(applied).toContainText('Succeeded')
    await expect(applied).toContainText(
      '1,200 read: 1,100 new, 60 updated, 37 unchanged, 3 duplicates, 13 skipped by the mapping',
    )
    await expect(applied).toContainText('feeds/sold-2026-11.csv')
    await expect(applied).toContainText('File')
    await expect(applied).toContainText('3.7 MB')
    await expect(applied).toContainText('2 min 0 s')

    await expect(page.getByRole('heading', { name: 'RESO Web API feeds' })).toBeVisible()
    await expect(page.getByText('2 rejected records, asked for again on every run')).toBeVisible()
    await expect(page.getByText(/4,210/).first()).toBeVisible()
  })
}

test('the sidebar leads to the imports page', async ({ page, adminEmail }) => {
  await signInAsAdmin(page, adminEmail)
  const nav = page.getByRole('navigation', { name: 'Admin' })
  await nav.getByRole('link', { name: 'Imports' }).click()
  await expect(page).toHaveURL(/\/admin\/imports$/)
  await expect(nav.getByRole('link', { name: 'Imports' })).toHaveAttribute('aria-current', 'page')
})
