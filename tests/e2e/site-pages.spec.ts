/** Static pages, the methodology, the newsletter sign-up, the 404 page and the machine-readable files. */
import fs from 'node:fs'
import { expect, test } from '@playwright/test'
import {
  EXCLUSIONS,
  FIGURE_METRICS,
  METHODOLOGY_CHANGELOG,
  METHODOLOGY_VERSION,
  METRICS,
  SIDE_CREDITING,
  SMALL_SAMPLE_TEXT,
  WINDOW_TEXT,
} from '@shared/methodology.ts'
import { pdfText } from '../support/pdf-text.ts'
import { publicPosts, sql, waitForIsland } from './site-support.ts'
import {
  NEWSLETTER_ALREADY_CONFIRMED_MESSAGE,
  NEWSLETTER_CHECK_INBOX,
  NEWSLETTER_CONFIRMED_MESSAGE,
} from '@shared/newsletter.ts'

test('the 404 page logs the attempted path', async ({ page }) => {
  const warnings: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
  const response = await page.goto('/no-such-page/here')
  expect(response!.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/')
  await expect.poll(() => warnings.some((line) => line.includes('/no-such-page/here'))).toBe(true)
})

test('the sample report is labelled as a sample, with gauge and percentile bands', async ({ page }) => {
  await page.goto('/sample-report')
  await expect(page.getByRole('heading', { level: 1, name: 'Agent Performance Report' })).toBeVisible()
  await expect(page.getByText('Sample report: all figures are illustrative')).toBeVisible()
  for (const name of ['Summary', 'Key metrics', 'Recent sales', 'Market analysis', 'Contact', 'Report information']) {
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible()
  }
  // bands: gauges by percent of their maximum, cards by percentile
  await expect(page.getByRole('img', { name: 'Sale-to-list ratio: 99.2%, Excellent' })).toBeVisible()
  await expect(page.getByTestId('gauge-band')).toHaveText(['Excellent', 'Good', 'Good'])
  await expect(page.getByTestId('percentile-band')).toHaveText(['Excellent', 'Good', 'Good', 'Excellent', 'Average'])
  const sales = page.getByRole('table')
  await expect(sales.getByRole('cell', { name: '102.2%' })).toHaveClass(/text-green-800/)
  await expect(sales.getByRole('cell', { name: '97.9%' })).toHaveClass(/text-red-700/)
  // Download PDF is a real file: the mailed report's template with the sample figures, made at build time
  const downloadPromise = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download PDF' }).click()
  const download = await downloadPromise
  expect(download.suggestedFilename()).toBe('agentinsight-sample-report.pdf')
  const pdf = await fs.promises.readFile((await download.path())!)
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
  const text = await pdfText(new Uint8Array(pdf))
  expect(text).toContain('Agent Performance Report')
  expect(text).toContain('Jordan Sample')
  expect(text).toContain('Sample report: all figures are illustrative')
  expect(text).toContain('1204 Example Ave')
  // the same template as the mailed report: both sides, the sales list and the methodology version
  expect(text).toContain('Buyer side')
  expect(text).toContain('Sales behind the figures')
  expect(text).toContain('methodology v4')
  await page.emulateMedia({ media: 'print' })
  await expect(page.getByRole('link', { name: 'Download PDF' })).toBeHidden()
  await expect(page.getByRole('banner')).toBeHidden()
})

test('/methodology states every formula, the window, exclusions, crediting, small samples, version and changelog', async ({
  page,
}) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/methodology')
    await expect(page.getByRole('heading', { level: 1, name: 'How we compute every figure' })).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${width} px`).toBe(
      true,
    )
  }
  await expect(page.getByText(`Methodology v${METHODOLOGY_VERSION}`, { exact: true })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Window' })).toContainText(WINDOW_TEXT)
  for (const rule of [...SIDE_CREDITING, ...SMALL_SAMPLE_TEXT, ...EXCLUSIONS.map((exclusion) => exclusion.text)])
    await expect(page.getByText(rule, { exact: true })).toBeVisible()
  // one section per figure, reachable by its key (the sales pages link to /methodology#<figure>)
  for (const metric of FIGURE_METRICS) {
    const section = page.locator(`section#${metric}`)
    await expect(section.getByRole('heading', { name: METRICS[metric].label, exact: true })).toBeVisible()
    await expect(section).toContainText(METRICS[metric].formula)
  }
  const changelog = page.getByRole('region', { name: 'Changelog' })
  for (const entry of METHODOLOGY_CHANGELOG) {
    await expect(changelog.getByRole('heading', { name: new RegExp(`^Version ${entry.version}, `) })).toBeVisible()
    for (const change of entry.changes) await expect(changelog.getByText(change, { exact: true })).toBeVisible()
  }
  await expect(page.getByTestId('data-as-of')).toContainText(/methodology v\d+/)
  // every page's footer links here
  await expect(
    page.getByRole('navigation', { name: 'Resources' }).getByRole('link', { name: 'Methodology' }),
  ).toHaveAttribute('href', '/methodology')
})

test('the how-it-works page and the home explainer tell the same three steps', async ({ page }) => {
  const stepsOf = async (path: string, scope: string) => {
    await page.goto(path)
    const items = page.locator(scope).getByRole('listitem')
    await expect(items).toHaveCount(3)
    return items.evaluateAll((nodes) => nodes.map((node) => node.textContent!.replace(/\s+/g, ' ')))
  }
  const home = await stepsOf('/', 'section[aria-labelledby="steps-title"] ol')
  const page2 = await stepsOf('/how-it-works', 'main > ol')
  for (const [title, time] of [
    ['Search for an agent', 'Time: 30 seconds'],
    ['Review their track record', 'Time: 2 minutes'],
    ['Choose with confidence', 'Time: your timeline'],
  ]) {
    expect(
      home.some((text) => text.includes(title) && text.includes(time)),
      `home: ${title}`,
    ).toBe(true)
    expect(
      page2.some((text) => text.includes(title) && text.includes(time)),
      `how-it-works: ${title}`,
    ).toBe(true)
  }
})

test('about, how it works and search pages explain the product', async ({ page }) => {
  await page.goto('/about')
  await expect(page.getByRole('heading', { level: 1, name: 'About AgentInsight' })).toBeVisible()
  await page.goto('/how-it-works')
  await expect(page.getByRole('heading', { level: 1, name: 'How AgentInsight works' })).toBeVisible()
  await expect(page.getByText('Sale-to-list price ratio', { exact: true })).toBeVisible()
  await page.goto('/search')
  // a click on the server-rendered tab before React hydrates is lost (CI run on the stop-21 submission)
  await waitForIsland(page, 'HeroSearch')
  await page.getByRole('tab', { name: 'ZIP Code' }).click()
  await page.getByRole('textbox', { name: 'ZIP code' }).fill('10001')
  await page.getByRole('textbox', { name: 'ZIP code' }).press('Enter')
  await page.waitForURL('**/search-results?**')
  expect(new URL(page.url()).search).toBe('?q=10001&type=zipcode')
})

test.describe('newsletter sign-up', () => {
  const email = `e2e-news-${Date.now()}@example.com`
  const existing = `e2e-news-existing-${Date.now()}@example.com`

  test.beforeAll(async () => {
    await sql(`insert into public.newsletter_subscriptions (email, confirmed_at) values ($1, now())`, [existing])
  })
  test.afterAll(async () => {
    await sql(`delete from public.newsletter_subscriptions where email = any($1)`, [[email, existing]])
  })

  test('a new address gets a confirmation email and is stored unconfirmed until the button on the confirmation page is pressed', async ({
    page,
  }) => {
    await page.goto('/about')
    const footer = page.getByRole('contentinfo')
    await footer.scrollIntoViewIfNeeded()
    await footer.getByRole('textbox', { name: 'Email address' }).fill(email.toUpperCase())
    await footer.getByRole('button', { name: 'Subscribe' }).click()
    await expect(footer.getByRole('status')).toHaveText(NEWSLETTER_CHECK_INBOX)
    expect(await sql(`select confirmed_at from public.newsletter_subscriptions where email = $1`, [email])).toEqual([
      { confirmed_at: null },
    ])

    const messages = await (
      await fetch(`${process.env.TEST_MAILBOX_URL}/api/v1/messages?to=${encodeURIComponent(email)}`)
    ).json()
    expect(messages).toHaveLength(1)
    // the link opens the site's confirmation page; opening it confirms nothing, pressing Confirm does
    const token = /\/newsletter\/confirm\?token=([0-9a-f]{64})/.exec(messages[0].text_body)?.[1]
    expect(token).toBeDefined()
    await page.goto(`/newsletter/confirm?token=${token}`)
    await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible()
    expect(await sql(`select confirmed_at from public.newsletter_subscriptions where email = $1`, [email])).toEqual([
      { confirmed_at: null },
    ])
    await page.getByRole('button', { name: 'Confirm my subscription' }).click()
    await expect(page.getByRole('main').getByRole('status')).toHaveText(NEWSLETTER_CONFIRMED_MESSAGE)
    const [row] = await sql<{ confirmed_at: Date | null }>(
      `select confirmed_at from public.newsletter_subscriptions where email = $1`,
      [email],
    )
    expect(row!.confirmed_at).not.toBeNull()
    // the same link again says so
    await page.reload()
    await page.getByRole('button', { name: 'Confirm my subscription' }).click()
    await expect(page.getByRole('main').getByRole('status')).toHaveText(NEWSLETTER_ALREADY_CONFIRMED_MESSAGE)
  })

  test('an address already on the list gets the same answer and no email', async ({ page }) => {
    await page.goto('/about')
    const footer = page.getByRole('contentinfo')
    await footer.scrollIntoViewIfNeeded()
    await footer.getByRole('textbox', { name: 'Email address' }).fill(existing)
    await footer.getByRole('button', { name: 'Subscribe' }).click()
    await expect(footer.getByRole('status')).toHaveText(NEWSLETTER_CHECK_INBOX)
    const messages = await (
      await fetch(`${process.env.TEST_MAILBOX_URL}/api/v1/messages?to=${encodeURIComponent(existing)}`)
    ).json()
    expect(messages).toHaveLength(0)
  })

  test('an invalid address gets a field error and nothing is stored', async ({ page }) => {
    await page.goto('/about')
    const footer = page.getByRole('contentinfo')
    await footer.scrollIntoViewIfNeeded()
    const input = footer.getByRole('textbox', { name: 'Email address' })
    await input.fill('not-an-email')
    await footer.getByRole('button', { name: 'Subscribe' }).click()
    await expect(footer.getByText('Please enter a valid email address')).toBeVisible()
    await expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(await sql(`select 1 from public.newsletter_subscriptions where email = 'not-an-email'`)).toHaveLength(0)
  })
})

test('sitemap, RSS feed and robots.txt list the published content', async ({ request, baseURL }) => {
  const posts = await publicPosts()
  const sitemap = await (await request.get('/sitemap.xml')).text()
  expect(sitemap).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
  for (const path of [
    '/',
    '/blog',
    '/about',
    '/methodology',
    '/blog/category/market-analysis',
    ...posts.map((post) => `/blog/${post.slug}`),
  ]) {
    expect(sitemap).toContain(`<loc>${new URL(path, baseURL).href}</loc>`)
  }
  const rss = await request.get('/rss.xml')
  const feed = await rss.text()
  expect(feed).toContain('<rss version="2.0"')
  expect(feed.match(/<item>/g)).toHaveLength(posts.length)
  const robots = await (await request.get('/robots.txt')).text()
  expect(robots).toContain(`Sitemap: ${new URL('/sitemap.xml', baseURL).href}`)
})
