/**
 * The AI content pipeline in the admin, with the built-in writer (no AI provider configured): discover topics for a
 * fixture city, approve one, generate and auto-publish an article from it, follow the job to completion and find
 * the post in the Blog Posts list. Fixture rows (a Redfin benchmark and site searches) are removed afterwards.
 */
import type { Page } from '@playwright/test'
import { expect, signInAsAdmin, sql, test } from './support.ts'

const letters = Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 5)
  .padEnd(5, 'q')
const city = `Playwrightville${letters[0]!.toUpperCase()}${letters.slice(1)}`
const zip = `08${String(Math.floor(Math.random() * 900) + 100)}`
let adminEmail: string

function toast(page: Page, title: string) {
  return page.getByRole('status').getByText(title, { exact: true })
}

test.beforeAll(async ({ adminEmail: email }) => {
  adminEmail = email
  await sql(
    `insert into public.zip_market_benchmarks (zip_code, city, state, period_end, median_sale_price, median_list_price,
       avg_sale_to_list_fraction, sold_above_list_fraction, median_dom, homes_sold)
     values ($1, $2, 'NJ', '2026-05-31', 515000, 499000, 1.0310, 0.5400, 11, 24)`,
    [zip, city],
  )
  for (let i = 0; i < 3; i += 1) {
    await sql(
      `insert into public.search_queries (query, search_type, resolved_zip_code, resolved_city, resolved_state) values ($1, 'zipcode', $1, $2, 'NJ')`,
      [zip, city],
    )
  }
})

test.afterAll(async () => {
  await sql(
    `delete from public.content_generation_jobs where topic_id in (select id from public.trending_topics where location ilike $1)`,
    [`%${city}%`],
  )
  await sql(`delete from public.blog_posts where slug like $1`, [`homes-in-${zip}-${city.toLowerCase()}%`])
  await sql(`delete from public.trending_topics where location ilike $1`, [`%${city}%`])
  await sql(`delete from public.search_queries where resolved_city = $1`, [city])
  await sql(`delete from public.zip_market_benchmarks where zip_code = $1`, [zip])
})

test('discover, approve, generate and publish: the post appears in the Blog Posts list', async ({ page }) => {
  test.setTimeout(90_000)
  await signInAsAdmin(page, adminEmail)
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Blog' }).click()

  await page.getByRole('tab', { name: 'Trending Topics' }).click()
  await expect(page.getByText('Built-in writer (no AI provider configured)')).toBeVisible()
  await page.getByLabel('Location').fill(city)
  await page.getByRole('button', { name: 'Discover Topics' }).click()
  await expect(toast(page, 'Topics Discovered')).toBeVisible()
  const [{ count }] = await sql<{ count: string }>(
    'select count(*) from public.trending_topics where location ilike $1',
    [`%${city}%`],
  )
  expect(Number(count)).toBeGreaterThan(0)
  await expect(page.getByRole('status').getByText(`Found ${count} new trending topics`)).toBeVisible()

  const topic = `Homes in ${zip} (${city}, NJ) sell in a median 11 days: how sellers should price from day one`
  const card = page.getByRole('listitem', { name: topic })
  await expect(card).toContainText('Priority score:')
  await expect(card).toContainText('/100')
  await card.getByRole('button', { name: `Approve: ${topic}` }).click()
  await expect(toast(page, 'Topic Approved')).toBeVisible()
  await expect(card.getByRole('button', { name: `Approve: ${topic}` })).toHaveCount(0)
  await expect(card).toContainText('approved')

  await page.getByRole('tab', { name: 'Content Generation' }).click()
  const generateButton = page.getByRole('button', { name: 'Generate Content' })
  await expect(generateButton).toBeDisabled()
  await page.getByLabel('Approved topic').selectOption({ label: topic })
  await page.getByLabel('Publish automatically when generated').check()
  await generateButton.click()

  await expect(toast(page, 'Content Generated Successfully!')).toBeVisible({ timeout: 30_000 })
  // the post keeps the topic's angle: its title is the topic
  const title = topic
  await expect(page.getByRole('status').getByText(`${title} — Status: Published`)).toBeVisible()
  const job = page.getByTestId('generation-job').filter({ hasText: title })
  await expect(job).toContainText('Completed')
  // measured quality, as recorded on the job row
  const [measured] = await sql<{ word_count: number; figures_checked: number; heading_count: number }>(
    'select word_count, figures_checked, heading_count from public.content_generation_jobs where blog_post_id = (select id from public.blog_posts where title = $1)',
    [title],
  )
  const quality = job.getByRole('definition')
  await expect(quality.filter({ hasText: 'words' })).toHaveText(`${measured!.word_count.toLocaleString('en-US')} words`)
  await expect(quality.filter({ hasText: 'figures checked' })).toHaveText(
    `${measured!.figures_checked} figures checked, all match the data`,
  )
  await expect(quality.filter({ hasText: 'headings' })).toHaveText(`${measured!.heading_count} headings`)
  // on a phone the quality line wraps inside the job row instead of widening the page
  await page.setViewportSize({ width: 390, height: 844 })
  const qualityList = job.getByLabel('Article quality')
  await expect(qualityList).toBeVisible()
  // polled: the admin's layout follows the new width a render after the resize (the sidebar collapses in React)
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.setViewportSize({ width: 1280, height: 800 })

  await page.getByRole('tab', { name: 'Blog Posts' }).click()
  await page.getByRole('searchbox', { name: 'Search posts' }).fill(zip)
  const row = page.getByRole('row').filter({ hasText: title })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Published')
})
