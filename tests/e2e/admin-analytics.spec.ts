/**
 * /admin/analytics (Traffic tab) and the dashboard's real figures. Fixture page views on a path and a campaign of
 * this run's own must appear in the top pages and sources with their exact counts; the metric and stat cards must
 * match the database, computed here with SQL written independently of the app (read just before and just after the
 * page, and retried, because other specs' page views and posts may land meanwhile).
 */
import type { Page } from '@playwright/test'
import { expect, signInAsAdmin, sql, test } from './support.ts'

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`
const fixturePath = `/e2e-analytics-${run}`
const fixtureSource = `e2e-src-${run}`
const leadName = `E2E Analytics Lead ${run}`
const FIXTURE_VIEWS = 200
const FIXTURE_VISITORS = 3
let adminEmail: string

test.beforeAll(async ({ adminEmail: email }) => {
  adminEmail = email
  // 200 views of one path from 3 visitors, spread over the last 3 hours (inside every period the page offers)
  await sql(
    `insert into public.page_views (path, utm_source, device_class, visitor_hash, created_at)
     select $1, $2, 'desktop', encode(sha256(convert_to($3::text || (i % $5::int)::text, 'utf8')), 'hex'), now() - make_interval(secs => i * 50)
       from generate_series(1, $4::int) as i`,
    [fixturePath, fixtureSource, run, FIXTURE_VIEWS, FIXTURE_VISITORS],
  )
})

test.afterAll(async () => {
  await sql(`delete from public.page_views where path = $1`, [fixturePath])
  await sql(`delete from public.report_requests where full_name = $1`, [leadName])
})

const toNumber = (text: string) => Number(text.replace(/[,%]/g, ''))

function statValue(page: Page, title: string) {
  return page.getByRole('region', { name: title, exact: true }).getByTestId('stat-value')
}

interface Summary {
  visitors: number
  page_views: number
  report_requests: number
}

/** The last `days` whole UTC days, today included, computed in SQL independently of the app. */
async function expectedSummary(days: number): Promise<Summary> {
  const [row] = await sql<{ visitors: string; page_views: string; report_requests: string }>(
    `with p as (select ((now() at time zone 'utc')::date - ($1::int - 1))::timestamp at time zone 'utc' as s,
                       ((now() at time zone 'utc')::date + 1)::timestamp at time zone 'utc' as e)
     select (select count(distinct visitor_hash) from public.page_views, p where created_at >= p.s and created_at < p.e) as visitors,
            (select count(*) from public.page_views, p where created_at >= p.s and created_at < p.e) as page_views,
            (select count(*) from public.report_requests, p where created_at >= p.s and created_at < p.e and deleted_at is null) as report_requests`,
    [days],
  )
  return {
    visitors: Number(row!.visitors),
    page_views: Number(row!.page_views),
    report_requests: Number(row!.report_requests),
  }
}

/** True when `shown` lies between the two database readings taken around it. */
const between = (shown: number, a: number, b: number) => shown >= Math.min(a, b) && shown <= Math.max(a, b)

test('Traffic tab: metric cards match the database and the fixture page and source show their exact counts', async ({
  page,
}) => {
  await signInAsAdmin(page, adminEmail)
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Analytics' }).click()
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Traffic' })).toHaveAttribute('aria-selected', 'true')

  await page.getByLabel('Period', { exact: true }).selectOption('7')
  await expect(page).toHaveURL(/\/admin\/analytics\?period=7$/)

  const topPages = page.getByRole('table', { name: 'Top pages' })
  await expect(topPages.getByRole('row').filter({ hasText: fixturePath })).toHaveText(
    new RegExp(`${fixturePath}\\s*${FIXTURE_VIEWS}\\s*${FIXTURE_VISITORS}`),
  )
  const sources = page.getByRole('table', { name: 'Traffic sources' })
  await expect(sources.getByRole('row').filter({ hasText: fixtureSource })).toHaveText(
    new RegExp(`${fixtureSource}\\s*Campaign \\(utm_source\\)\\s*${FIXTURE_VIEWS}\\s*${FIXTURE_VISITORS}`),
  )
  await expect(page.getByRole('figure', { name: 'Page views per day' })).toBeVisible()
  await expect(page.getByRole('figure', { name: 'Page views by traffic source' })).toBeVisible()

  await expect(async () => {
    const before = await expectedSummary(7)
    await page.reload()
    const shown = {
      visitors: toNumber(await statValue(page, 'Visitors').innerText()),
      page_views: toNumber(await statValue(page, 'Page Views').innerText()),
      report_requests: toNumber(await statValue(page, 'Report Requests').innerText()),
    }
    const after = await expectedSummary(7)
    expect(shown.page_views).toBeGreaterThanOrEqual(FIXTURE_VIEWS)
    for (const key of ['visitors', 'page_views', 'report_requests'] as const) {
      expect(
        between(shown[key], before[key], after[key]),
        `${key}: shown ${shown[key]}, database ${before[key]}..${after[key]}`,
      ).toBe(true)
    }
    const rate = ((shown.report_requests / shown.visitors) * 100).toFixed(1)
    await expect(statValue(page, 'Conversion Rate')).toHaveText(`${rate}%`)
  }).toPass({ timeout: 20_000 })
})

test('filters live in the URL and survive a reload; cards compare with the previous period; Conversions shows the goals', async ({
  page,
}) => {
  // one lead sent from the fixture page an hour ago: under the page filter, 1 report request from 3 visitors
  await sql(
    `insert into public.report_requests (full_name, email, source_page, created_at) values ($1, $2, $3, now() - interval '1 hour')`,
    [leadName, `e2e-analytics-${run}@example.com`, fixturePath],
  )
  await signInAsAdmin(page, adminEmail)
  await page.goto('/admin/analytics?period=7')
  const filters = page.getByRole('form', { name: 'Filters' })
  await filters.getByLabel('Page').fill('no-slash')
  await filters.getByRole('button', { name: 'Apply filters' }).click()
  await expect(filters.getByRole('alert')).toHaveText('Page must be a path starting with /, e.g. /blog.')
  await expect(page).toHaveURL(/\/admin\/analytics\?period=7$/)

  await filters.getByLabel('Page').fill(fixturePath)
  await filters.getByLabel('Exclude path').fill('/admin')
  await filters.getByRole('button', { name: 'Apply filters' }).click()
  await expect(page).toHaveURL(new RegExp(`period=7&page=${encodeURIComponent(fixturePath)}&exclude=%2Fadmin$`))
  await page.reload()
  await expect(page.getByRole('form', { name: 'Filters' }).getByLabel('Page')).toHaveValue(fixturePath)
  await expect(page.getByTestId('active-filters')).toHaveText(`Showing page ${fixturePath}, excluding /admin.`)
  await expect(statValue(page, 'Page Views')).toHaveText(String(FIXTURE_VIEWS))
  await expect(statValue(page, 'Visitors')).toHaveText(String(FIXTURE_VISITORS))
  await expect(statValue(page, 'Report Requests')).toHaveText('1')
  // the fixture page had no views in the 7 days before
  await expect(page.getByRole('region', { name: 'Page Views', exact: true }).getByTestId('stat-trend')).toHaveText(
    `▲ New vs previous 7 days (0)`,
  )
  const topPages = page.getByRole('table', { name: 'Top pages' })
  await expect(topPages.getByRole('row')).toHaveCount(2)

  await page.getByRole('tab', { name: 'Conversions' }).click()
  await expect(page).toHaveURL(/tab=conversions/)
  const reportGoal = page.getByRole('region', { name: 'Report request' })
  await expect(reportGoal.getByTestId('goal-completions')).toHaveText('1')
  await expect(reportGoal.getByTestId('goal-rate')).toHaveText('33.3%')
  await expect(page.getByRole('region', { name: 'Newsletter confirm' }).getByTestId('goal-completions')).toContainText(
    'Not attributable',
  )
  await expect(page.getByRole('tabpanel', { name: 'Conversions' })).not.toContainText('Coming soon')

  await page.getByRole('tab', { name: 'Traffic' }).click()
  await page.getByRole('form', { name: 'Filters' }).getByRole('button', { name: 'Clear filters' }).click()
  await expect(page).toHaveURL(/\/admin\/analytics\?period=7$/)
})

test('Traffic tab: empty period and failed request states', async ({ page }) => {
  await signInAsAdmin(page, adminEmail)
  await page.route('**/rest/v1/rpc/analytics_summary*', (route) =>
    route.fulfill({ json: { visitors: 0, page_views: 0, report_requests: 0, conversion_rate: null } }),
  )
  await page.goto('/admin/analytics?period=90')
  await expect(page.getByText('No page views in this period yet')).toBeVisible()
  await expect(statValue(page, 'Conversion Rate')).toHaveText('—')
  await expect(page.getByLabel('Period', { exact: true })).toHaveValue('90')

  await page.unroute('**/rest/v1/rpc/analytics_summary*')
  await page.route('**/rest/v1/rpc/analytics_top_pages*', (route) =>
    route.fulfill({ status: 500, json: { code: 'XX000', message: 'database is down', details: null, hint: null } }),
  )
  await page.goto('/admin/analytics?period=30')
  // the admin's queries retry once (after a second) before they show the error
  await expect(page.getByRole('alert')).toContainText('Could not load traffic figures: database is down', {
    timeout: 15_000,
  })
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible()
})

interface DashboardCounts {
  published: number
  drafts: number
  pending: number
  views: number
}

async function expectedDashboard(): Promise<DashboardCounts> {
  const [row] = await sql<Record<keyof DashboardCounts, string>>(
    `select (select count(*) from public.blog_posts where status = 'published' and published_at <= now() and deleted_at is null) as published,
            (select count(*) from public.blog_posts where status = 'draft' and deleted_at is null) as drafts,
            (select count(*) from public.report_requests where status = 'pending' and deleted_at is null) as pending,
            (select count(*) from public.page_views
              where created_at >= ((now() at time zone 'utc')::date - 29)::timestamp at time zone 'utc') as views`,
  )
  return {
    published: Number(row!.published),
    drafts: Number(row!.drafts),
    pending: Number(row!.pending),
    views: Number(row!.views),
  }
}

test('dashboard: stat cards match the database, tools are listed, recent activity shows a new lead', async ({
  page,
}) => {
  await sql(`insert into public.report_requests (full_name, email, agent_name) values ($1, $2, 'Jordan Fixture')`, [
    leadName,
    `lead-${run}@example.com`,
  ])
  await signInAsAdmin(page, adminEmail)

  await expect(async () => {
    const before = await expectedDashboard()
    await page.reload()
    const shown: DashboardCounts = {
      published: toNumber(await statValue(page, 'Published Posts').innerText()),
      drafts: toNumber(await statValue(page, 'Drafts').innerText()),
      pending: toNumber(await statValue(page, 'Leads Awaiting Contact').innerText()),
      views: toNumber(await statValue(page, 'Page Views').innerText()),
    }
    const after = await expectedDashboard()
    expect(shown.pending).toBeGreaterThanOrEqual(1)
    for (const key of ['published', 'drafts', 'pending', 'views'] as const) {
      expect(
        between(shown[key], before[key], after[key]),
        `${key}: shown ${shown[key]}, database ${before[key]}..${after[key]}`,
      ).toBe(true)
    }
  }).toPass({ timeout: 20_000 })

  const tools = page.getByRole('region', { name: 'Tools' }).getByRole('link')
  await expect(tools).toHaveCount(6)
  await expect(tools.first()).toContainText('Blog Management')

  const activity = page.getByRole('list', { name: 'Recent activity' })
  const item = activity
    .getByRole('listitem')
    .filter({ hasText: `New report request from ${leadName} about Jordan Fixture` })
  await expect(item).toBeVisible()
  await expect(item.locator('time')).toHaveText(/ago$/)
  expect(await activity.getByRole('listitem').count()).toBeLessThanOrEqual(10)

  // signing in marked this browser as an operator's: the public site's beacon leaves it out
  expect(await page.evaluate(() => window.localStorage.getItem('ai_exclude_analytics'))).toBe('1')
})
