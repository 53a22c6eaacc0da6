/**
 * Publishing operations: Rebuild now on the Builds page (a new build row, then Live) and restoring a saved revision.
 * (A post scheduled two minutes ahead going live without a click is in admin-editor.spec.ts, written with the rich
 * editor and an uploaded image.) Builds run the real Astro build
 * through the browser-test site's builder, so these tests take minutes.
 */
import type { Page } from '@playwright/test'
import { expect, test } from '@playwright/test'
import { createTestUser, deleteTestUser, signInAsAdmin, sql } from './support.ts'

/** A build takes 30-60 s on a busy machine; allow two back to back. */
const BUILD_TIMEOUT_MS = 150_000

let adminEmail: string
const createdSlugs: string[] = []
const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`

test.beforeAll(async () => {
  adminEmail = await createTestUser('e2e-publishing', { admin: true })
})

test.afterAll(async () => {
  await sql(`delete from public.blog_posts where slug = any($1)`, [createdSlugs])
  await deleteTestUser(adminEmail)
})

const toast = (page: Page, title: string) => page.getByRole('status').getByText(title, { exact: true })

test('Rebuild now records a new build, the Builds page follows it, and the pill says Live after it', async ({
  page,
}) => {
  test.setTimeout(2 * BUILD_TIMEOUT_MS + 60_000)
  await signInAsAdmin(page, adminEmail)
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Builds' }).click()
  await expect(page).toHaveURL(/\/admin\/builds$/)
  await expect(page.getByRole('heading', { name: 'Site Builds', level: 1 })).toBeVisible()
  await expect(
    page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Dashboard' }),
  ).toBeVisible()

  await page.getByRole('button', { name: 'Rebuild now' }).click()
  await expect(toast(page, 'Rebuild Requested')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Site status' })).toContainText('Rebuilding', { timeout: 1_500 })

  const reason = `rebuild requested by ${adminEmail}`
  // the request's build row: a new one, or a build already waiting in the queue that took this reason too (the
  // builder runs one build after the current one with every reason asked for meanwhile); the admin is this test's own
  await expect
    .poll(
      async () =>
        (
          await sql<{ id: number }>(`select id::int from public.site_builds where trigger_reason like $1`, [
            `%${reason}%`,
          ])
        ).length,
      { timeout: 30_000 },
    )
    .toBe(1)
  const row = page.locator('tbody tr').filter({ hasText: reason }).first()
  await expect(row).toBeVisible({ timeout: 15_000 })
  await expect(row).toContainText('Succeeded', { timeout: BUILD_TIMEOUT_MS })
  await expect(row).toContainText(/\d+(\.\d)? s|\d+ min/)
  await row.getByText('Log tail').click()
  await expect(row.getByLabel(/^Log tail of build/)).not.toBeEmpty()
  // Live once the builder is idle: a build another test asked for meanwhile (the scheduled post runs beside these
  // tests) may follow this one, and the pill rightly says Rebuilding until it is done
  await expect(page.getByRole('region', { name: 'Site status' })).toHaveText('Live', { timeout: BUILD_TIMEOUT_MS })
})

test('every save keeps a revision with who and when; restoring one brings its text back', async ({ page }) => {
  const slug = `e2e-revisions-${stamp}`
  createdSlugs.push(slug)
  const title = `Revisions ${stamp}`
  await signInAsAdmin(page, adminEmail)
  await page.goto('/admin/blog?new=1')
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByLabel('Slug').fill(slug)
  await page.getByRole('button', { name: 'Edit HTML' }).click()
  await page.getByLabel('Content', { exact: true }).fill('<p>First version.</p>')
  await page.getByRole('button', { name: 'Save Draft' }).click()
  await expect(toast(page, 'Post Saved').last()).toBeVisible()

  await page.getByRole('searchbox', { name: 'Search posts' }).fill(title)
  await page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: 'Edit' }).click()
  await page.getByRole('button', { name: 'Edit HTML' }).click()
  await page.getByLabel('Content', { exact: true }).fill('<p>Second version.</p>')
  await page.getByRole('button', { name: 'Save Draft' }).click()
  await expect(toast(page, 'Post Saved').last()).toBeVisible()

  // the first save's toast may still be on screen: wait for the second revision row, not for a toast
  const revisionRows = () =>
    sql<{ saved_by: string; content: string }>(
      `select u.email as saved_by, r.snapshot->>'content' as content from public.blog_post_revisions r
       join public.blog_posts p on p.id = r.post_id join auth.users u on u.id = r.saved_by where p.slug = $1 order by r.id`,
      [slug],
    )
  await expect.poll(revisionRows, { timeout: 15_000 }).toEqual([
    { saved_by: adminEmail, content: '<p>First version.</p>' },
    { saved_by: adminEmail, content: '<p>Second version.</p>' },
  ])

  await page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: 'Edit' }).click()
  const revisions = page.getByRole('list', { name: 'Revisions' }).getByRole('listitem')
  await expect(revisions).toHaveCount(2)
  await expect(revisions.first()).toContainText(`by ${adminEmail}`)
  await expect(revisions.first()).toContainText('(current)')
  await revisions.nth(1).getByRole('button', { name: 'Restore' }).click()
  await expect(toast(page, 'Revision Restored')).toBeVisible()
  await page.getByRole('button', { name: 'Edit HTML' }).click()
  await expect(page.getByLabel('Content', { exact: true })).toHaveValue('<p>First version.</p>')
  await page.getByRole('button', { name: 'Save Draft' }).click()
  // polled: the second save's "Post Saved" toast may still be showing, so a toast does not mean this save is done
  const savedPost = async () =>
    (
      await sql<{ content: string; revisions: number }>(
        `select content, (select count(*)::int from public.blog_post_revisions r where r.post_id = p.id) as revisions from public.blog_posts p where slug = $1`,
        [slug],
      )
    )[0]
  await expect.poll(savedPost, { timeout: 15_000 }).toEqual({ content: '<p>First version.</p>', revisions: 3 })
})
