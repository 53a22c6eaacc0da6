/**
 * The admin's words, exactly: the top bar's title and subtitle, the sidebar's Blog Management, the dashboard's Database
 * and Settings cards; the post list's search (title or excerpt), its filter buttons and every toast of publish,
 * unpublish, delete and their failures (with the generic text when the database gives no message); the editor's Post
 * Saved / Save Failed / Update Failed, Save Draft on a published post and the SEO counters; the CRM's loading text
 * and its load-failure toast. Failures are made real by having the browser's request answered with an error.
 */
import type { Page } from '@playwright/test'
import { expect, signInAsAdmin, sql, test } from './support.ts'

test.describe.configure({ timeout: 90_000 })

const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`
const slugs: string[] = []

async function insertPost(title: string, { status = 'draft', excerpt = 'An excerpt.' } = {}): Promise<string> {
  const slug = `e2e-feedback-${slugs.length}-${stamp}`
  slugs.push(slug)
  await sql(
    `insert into public.blog_posts (title, slug, content, excerpt, status, published_at)
     values ($1, $2, '<p>Body</p>', $3, $4, case when $4 = 'published' then now() else null end)`,
    [title, slug, excerpt, status],
  )
  return slug
}

test.afterAll(async () => {
  await sql(`delete from public.blog_posts where slug = any($1)`, [slugs])
})

/** A toast: its title and its description, each matched exactly. */
async function expectToast(page: Page, title: string, description: string) {
  const region = page.getByRole('status')
  const item = region
    .locator('div')
    .filter({ has: page.getByText(title, { exact: true }) })
    .last()
  await expect(item.getByText(title, { exact: true })).toBeVisible()
  await expect(item.getByText(description, { exact: true })).toBeVisible()
}

/**
 * Answers the browser's next `method` request to blog_posts with HTTP 500 and `message` (once); 'DELETE' is the
 * delete_post call that moves a post to the trash.
 */
async function failPostWrite(page: Page, method: 'PATCH' | 'DELETE' | 'POST', message: string) {
  if (method === 'DELETE') {
    await page.route(
      '**/rest/v1/rpc/delete_post*',
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message }) }),
      { times: 1 },
    )
    return
  }
  await page.route(
    '**/rest/v1/blog_posts*',
    (route) =>
      route.request().method() === method
        ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message }) })
        : route.fallback(),
    { times: 1 },
  )
}

async function openPostList(page: Page, adminEmail: string, search: string) {
  await signInAsAdmin(page, adminEmail)
  await page.goto(`/admin/blog?q=${encodeURIComponent(search)}`)
}

test('the top bar, the sidebar and the dashboard cards say what the spec says', async ({ page, adminEmail }) => {
  await signInAsAdmin(page, adminEmail)
  const banner = page.getByRole('banner')
  await expect(banner.getByText('Admin Dashboard', { exact: true })).toBeVisible()
  await expect(banner.getByText('Manage your AgentInsight platform', { exact: true })).toBeVisible()
  await expect(
    page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Blog Management', exact: true }),
  ).toBeVisible()
  const tools = page.getByRole('region', { name: 'Tools' })
  await expect(tools.getByRole('link', { name: /^Database/ })).toHaveAttribute('href', '/admin/database')
  await expect(tools.getByRole('link', { name: /^Settings/ })).toHaveText(
    'SettingsYour account security: two-factor sign-in with an authenticator app.',
  )

  // breadcrumbs stay, below the top bar
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'CRM' }).click()
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' })
  await expect(crumbs.getByRole('link', { name: 'Dashboard' })).toBeVisible()
  await expect(crumbs.getByRole('listitem').last()).toHaveText('CRM')
  await expect(banner.getByText('Admin Dashboard', { exact: true })).toBeVisible()
})

test('post search finds the excerpt, and All Posts / Drafts / Published are buttons', async ({ page, adminEmail }) => {
  const draft = `Feedback draft ${stamp}`
  const live = `Feedback live ${stamp}`
  await insertPost(draft, { excerpt: `Only the excerpt says zebra-${stamp}` })
  await insertPost(live, { status: 'published' })
  await openPostList(page, adminEmail, `zebra-${stamp}`)
  await expect(page.getByRole('row').filter({ hasText: draft })).toHaveCount(1)

  await page.getByRole('searchbox', { name: 'Search posts' }).fill(live)
  await expect(page.getByRole('row').filter({ hasText: live })).toHaveCount(1)
  const filters = page.getByRole('group', { name: 'Filter by status' })
  await expect(filters.getByRole('button')).toHaveText(['All Posts', 'Drafts', 'Published'])
  await expect(filters.getByRole('button', { name: 'All Posts' })).toHaveAttribute('aria-pressed', 'true')
  await filters.getByRole('button', { name: 'Drafts' }).click()
  await expect(page).toHaveURL(/[?&]status=draft/)
  await expect(page.getByText('No blog posts found', { exact: true })).toBeVisible()
  await expect(page.getByText('Try adjusting your filters or search terms.', { exact: true })).toBeVisible()
  await filters.getByRole('button', { name: 'Published' }).click()
  await expect(page.getByRole('row').filter({ hasText: live })).toHaveCount(1)
})

test('publish, unpublish and delete toasts, and their failures, in the spec words', async ({ page, adminEmail }) => {
  const title = `Feedback toasts ${stamp}`
  await insertPost(title)
  await openPostList(page, adminEmail, title)
  const row = page.getByRole('row').filter({ hasText: title })
  await expect(row).toHaveCount(1)

  // a failure with the database's message, then one without any: the generic text
  await failPostWrite(page, 'PATCH', 'database unavailable')
  await row.getByRole('button', { name: 'Publish' }).click()
  await expectToast(page, 'Publish Failed', 'database unavailable')
  await failPostWrite(page, 'PATCH', '')
  await row.getByRole('button', { name: 'Publish' }).click()
  await expectToast(page, 'Publish Failed', 'Failed to publish post')

  await row.getByRole('button', { name: 'Publish' }).click()
  await expectToast(page, 'Post Published', 'Blog post status changed to published')
  await expect(row.getByRole('button', { name: 'Unpublish' })).toBeVisible()

  await failPostWrite(page, 'PATCH', '')
  await row.getByRole('button', { name: 'Unpublish' }).click()
  await expectToast(page, 'Update Failed', 'Failed to update post')
  await row.getByRole('button', { name: 'Unpublish' }).click()
  await expectToast(page, 'Post Unpublished', 'Blog post status changed to draft')
  await expect(row.getByRole('button', { name: 'Publish' })).toBeVisible()

  await failPostWrite(page, 'DELETE', '')
  await row.getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expectToast(page, 'Delete Failed', 'Failed to delete post')
  await row.getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  // deleting moves the post to the trash (restorable), so the toast says that rather than 'permanently deleted'
  await expectToast(page, 'Post Deleted', 'Blog post has been moved to the trash')
  await expect(row).toHaveCount(0)
  const [left] = await sql<{ trashed: boolean }>(
    `select deleted_at is not null as trashed from public.blog_posts where title = $1`,
    [title],
  )
  expect(left).toEqual({ trashed: true })
})

test('the editor: Post Saved, Save Failed, Update Failed, Save Draft on a published post, SEO counters', async ({
  page,
  adminEmail,
}) => {
  const title = `Feedback editor ${stamp}`
  const slug = await insertPost(title, { status: 'published' })
  await openPostList(page, adminEmail, title)
  await page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: 'Edit' }).click()
  await expect(page.getByRole('heading', { name: 'Edit Post' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Update Published Post' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Save Draft' })).toBeVisible()
  await page.getByLabel('SEO title').fill('x'.repeat(42))
  await expect(page.getByText('42/60 characters', { exact: true })).toBeVisible()
  await expect(page.getByText('0/160 characters', { exact: true })).toBeVisible()

  await failPostWrite(page, 'PATCH', '')
  await page.getByRole('button', { name: 'Update Published Post' }).click()
  await expectToast(page, 'Update Failed', 'Failed to update post')
  await failPostWrite(page, 'PATCH', 'database unavailable')
  await page.getByRole('button', { name: 'Save Draft' }).click()
  await expectToast(page, 'Save Failed', 'database unavailable')

  // Save Draft on a published post saves the edit and takes the post back to draft
  await page.getByRole('button', { name: 'Save Draft' }).click()
  await expectToast(page, 'Post Saved', `"${title}" was saved as a draft and is no longer on the site.`)
  const [saved] = await sql<{ status: string; meta_title: string }>(
    `select status, meta_title from public.blog_posts where slug = $1`,
    [slug],
  )
  expect(saved).toEqual({ status: 'draft', meta_title: 'x'.repeat(42) })

  // a draft: Save Draft says Post Saved too
  await page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: 'Edit' }).click()
  await page.getByLabel('Excerpt').fill('A new excerpt.')
  await page.getByRole('button', { name: 'Save Draft' }).click()
  await expectToast(page, 'Post Saved', `"${title}" was saved.`)
})

test('the CRM says Loading report requests... while it reads, and Failed to load report requests when it cannot', async ({
  page,
  adminEmail,
}) => {
  await signInAsAdmin(page, adminEmail)
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  // Only the CRM's paged read (offset=): the dashboard's recent-activity read of the same table may still be
  // on its way after sign-in and must not take the one hold.
  await page.route(
    (url) => url.pathname.endsWith('/rest/v1/report_requests') && url.searchParams.has('offset'),
    async (route) => {
      await held
      await route.fallback()
    },
    { times: 1 },
  )
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'CRM' }).click()
  await expect(page.getByText('Loading report requests...', { exact: true })).toBeVisible()
  release()
  await expect(page.getByText('Loading report requests...', { exact: true })).toHaveCount(0)

  await page.route('**/rest/v1/report_requests*', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'read failed' }) }),
  )
  await page.reload()
  await expectToast(page, 'Failed to load report requests', 'read failed')
  await expect(page.getByRole('alert')).toContainText('Failed to load report requests: read failed')
})
