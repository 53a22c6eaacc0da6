/**
 * Publishing rebuilds the public site: an admin publishes a draft from the blog list, the database webhook reaches
 * the site builder that the browser-test site runs (tests/support/e2e-site.ts, as `npm start` does), and the
 * article answers on the public site after the rebuild; the top bar follows the build and says Live after it, and
 * the admin is offered a link to the live post. One rebuild in all: Astro builds take 30-60 s here.
 */
import { expect, signInAsAdmin, sql, test } from './support.ts'

/** Rebuilds take up to a minute on a busy machine; the poll below allows two of them back to back. */
const LIVE_TIMEOUT_MS = 150_000

let adminEmail: string
const slug = `e2e-publish-to-live-${Date.now()}`
const title = `Publish To Live ${Date.now()}`

test.beforeAll(async ({ adminEmail: email }) => {
  adminEmail = email
  await sql(
    `insert into public.blog_posts (title, slug, content, excerpt, status) values ($1, $2, '<p>Fresh off the press.</p>', 'Fresh.', 'draft')`,
    [title, slug],
  )
})

test.afterAll(async () => {
  await sql(`delete from public.blog_posts where slug = $1`, [slug])
})

test('a published draft goes live on the public site and the top bar says Live after the rebuild', async ({
  page,
  request,
}) => {
  test.setTimeout(3 * LIVE_TIMEOUT_MS + 60_000)
  expect((await request.get(`/blog/${slug}`)).status()).toBe(404)

  await signInAsAdmin(page, adminEmail)
  // the admin decides 'live' from site_builds alone: it never requests public pages
  const publicRequests: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/blog')) publicRequests.push(request.url())
  })
  const siteStatus = page.getByRole('region', { name: 'Site status' })
  await expect(siteStatus).toBeVisible()
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Blog' }).click()
  await page.getByRole('searchbox', { name: 'Search posts' }).fill(title)
  const row = page.getByRole('row').filter({ hasText: title })
  await expect(row).toHaveCount(1)
  await row.getByRole('button', { name: 'Publish' }).click()
  await expect(page.getByRole('status').getByText('Post Published', { exact: true })).toBeVisible()
  // at once, not 10 s later: the pill knows a build is on its way before the builder has recorded it
  await expect(siteStatus).toContainText('Rebuilding', { timeout: 1_500 })

  // the builder records the build the webhook asked for, and the top bar shows it while it runs
  await expect
    .poll(
      async () =>
        (
          await sql<{ status: string }>(`select status from public.site_builds where trigger_reason like $1`, [
            `%${slug}%`,
          ])
        )[0]?.status,
      {
        timeout: 30_000,
      },
    )
    .toMatch(/^(queued|building|succeeded)$/)

  await expect
    .poll(async () => (await request.get(`/blog/${slug}`)).status(), {
      timeout: LIVE_TIMEOUT_MS,
      intervals: [1_000, 2_000],
    })
    .toBe(200)
  const article = await request.get(`/blog/${slug}`)
  expect(await article.text()).toContain(title)

  // Live once the builder is idle: a build another test asked for (its clean-up changed agent data) may run after this
  // one, and the pill rightly says Rebuilding until it is done
  await expect(siteStatus).toHaveText('Live', { timeout: LIVE_TIMEOUT_MS })
  const [build] = await sql<{ status: string; finished_at: Date | null }>(
    `select status, finished_at from public.site_builds where trigger_reason like $1 order by id desc limit 1`,
    [`%${slug}%`],
  )
  expect(build).toMatchObject({ status: 'succeeded' })
  expect(build!.finished_at).not.toBeNull()

  // the notice shows while the site is Live: a build another test asks for meanwhile hides it until that build is done
  const viewLive = page.getByRole('link', { name: 'View live post' })
  await expect(viewLive).toBeVisible({ timeout: LIVE_TIMEOUT_MS })
  await expect(viewLive).toHaveAttribute('href', `/blog/${slug}`)
  expect(publicRequests).toEqual([])
})
