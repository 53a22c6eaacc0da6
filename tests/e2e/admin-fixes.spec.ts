/**
 * Operator fixes of the admin: breadcrumbs name the page below the Admin Dashboard top bar, the
 * calendar's '+N more' lists the whole day, generation jobs link to their post and a failed job's badge is red, and
 * the dashboard reads its figures in one request instead of four cancellable counts.
 */
import { expect, test } from '@playwright/test'
import { format } from 'date-fns'
import { createTestUser, deleteTestUser, signInAsAdmin, sql } from './support.ts'

// each test signs in and walks several screens; on a machine shared with other builds that can take over 30 s
test.describe.configure({ timeout: 90_000 })

let adminEmail: string
const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`

test.beforeAll(async () => {
  adminEmail = await createTestUser('e2e-fixes', { admin: true })
})

test.afterAll(async () => {
  await sql(`delete from public.content_generation_jobs where custom_topic like $1`, [`%${stamp}%`])
  await sql(`delete from public.blog_posts where slug like $1`, [`%${stamp}%`])
  await deleteTestUser(adminEmail)
})

test('breadcrumbs above each page name it, below the Admin Dashboard top bar', async ({ page }) => {
  await signInAsAdmin(page, adminEmail)
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' })
  // the dashboard is the root: no trail
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible()
  await expect(crumbs).toHaveCount(0)
  for (const [link, expected] of [
    ['CRM', 'CRM'],
    ['Analytics', 'Analytics'],
    ['Blog Management', 'Blog Management'],
  ] as const) {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: link, exact: true }).click()
    await expect(crumbs.getByRole('link', { name: 'Dashboard' })).toBeVisible()
    await expect(crumbs.getByRole('listitem').last()).toHaveText(expected)
    await expect(page.getByRole('banner').getByText('Admin Dashboard', { exact: true })).toBeVisible()
  }
  await page.getByRole('button', { name: 'New Post' }).click()
  await expect(crumbs.getByRole('listitem').last()).toHaveText('New Post')
  await expect(crumbs.getByRole('link', { name: 'Blog Management' })).toBeVisible()
})

test("the calendar's +N more lists every post of that day and opens one", async ({ page }) => {
  const day = new Date()
  day.setHours(12, 0, 0, 0)
  const titles = [1, 2, 3, 4].map((n) => `Busy day ${n} ${stamp}`)
  for (const [index, title] of titles.entries()) {
    await sql(
      `insert into public.blog_posts (title, slug, content, status, created_at) values ($1, $2, '<p>x</p>', 'draft', $3)`,
      [title, `busy-day-${index}-${stamp}`, day],
    )
  }
  await signInAsAdmin(page, adminEmail)
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Calendar' }).click()
  // this day's button: other specs' posts may make other days busy too
  const more = page.getByRole('button', { name: new RegExp(`more posts on ${format(day, 'MMMM d')}$`) })
  await expect(more).toBeVisible()
  await more.click()
  const dialog = page.getByRole('dialog')
  await expect(page).toHaveURL(/[?&]day=\d{4}-\d{2}-\d{2}/)
  for (const title of titles) await expect(dialog.getByRole('button', { name: new RegExp(title) })).toBeVisible()
  await dialog.getByRole('button', { name: new RegExp(titles[3]!) }).click()
  await expect(page).toHaveURL(/\/admin\/blog\?edit=/)
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(titles[3]!)
})

test('generation jobs link to their post and a failed job has a red badge', async ({ page }) => {
  const postTitle = `Generated ${stamp}`
  const [post] = await sql<{ id: string }>(
    `insert into public.blog_posts (title, slug, content, status) values ($1, $2, '<p>x</p>', 'draft') returning id`,
    [postTitle, `generated-${stamp}`],
  )
  await sql(
    `insert into public.content_generation_jobs (custom_topic, status, blog_post_id, completed_at) values ($1, 'completed', $2, now())`,
    [`done ${stamp}`, post!.id],
  )
  await sql(
    `insert into public.content_generation_jobs (custom_topic, status, error_message, completed_at) values ($1, 'failed', 'provider down', now())`,
    [`broken ${stamp}`],
  )
  await signInAsAdmin(page, adminEmail)
  await page.goto('/admin/blog?tab=generation')
  const jobs = page.getByRole('list', { name: 'Generation jobs' })
  const failed = jobs.getByTestId('generation-job').filter({ hasText: `broken ${stamp}` })
  const badge = failed.getByText('Failed', { exact: true })
  await expect(badge).toBeVisible()
  const classes = await badge.evaluate((element) => element.className)
  expect(classes).toContain('bg-red-100')
  expect(classes).not.toContain('bg-slate-100')
  await jobs.getByRole('link', { name: postTitle }).click()
  await expect(page).toHaveURL(new RegExp(`/admin/blog\\?edit=${post!.id}$`))
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(postTitle)
})

test('the dashboard reads its figures in one request, never cancelling and resending counts', async ({ page }) => {
  const figures: string[] = []
  const failed: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (
      url.pathname.startsWith('/rest/v1/') &&
      (request.method() === 'HEAD' || url.pathname === '/rest/v1/rpc/dashboard_overview')
    )
      figures.push(`${request.method()} ${url.pathname}`)
  })
  page.on('requestfailed', (request) => failed.push(request.url()))
  await signInAsAdmin(page, adminEmail)
  await expect(page.getByRole('region', { name: 'Needs attention' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Published Posts' }).getByTestId('stat-value')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Page Views' }).getByTestId('stat-trend')).toContainText(
    /(vs|same as) previous 30 days/,
  )
  await expect(page.getByRole('region', { name: 'Speed to Lead' })).toBeVisible()
  expect(figures).toEqual(['POST /rest/v1/rpc/dashboard_overview'])
  expect(failed.filter((url) => url.includes('/rest/v1/'))).toEqual([])
})
