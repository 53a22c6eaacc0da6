/** axe-core over every public route: no serious or critical violations. */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { publicPosts } from './site-support.ts'

const staticRoutes = [
  '/',
  '/search',
  '/blog',
  '/blog?search=zzzz-no-such-article',
  '/blog/category/market-analysis',
  '/about',
  '/how-it-works',
  '/sample-report',
  '/methodology',
  '/figure-sales?agent=00000000-0000-4000-8000-000000000000&figure=total_sales',
  '/no-such-page',
  '/auth',
  '/search-results',
  '/search-results?q=zzzz-no-such-agent&type=agent',
  '/agent/00000000-0000-4000-8000-000000000000',
]

test('every route has no serious or critical accessibility violations', async ({ page }) => {
  test.setTimeout(120_000)
  const [post] = await publicPosts()
  for (const route of [...staticRoutes, `/blog/${post!.slug}`]) {
    await page.goto(route)
    await page.waitForLoadState('networkidle')
    const { violations } = await new AxeBuilder({ page }).analyze()
    const serious = violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
    expect(serious, `violations on ${route}`).toEqual([])
  }
})
