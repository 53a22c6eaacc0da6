/** axe-core over every public route: no serious or critical violations. */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
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

/** The serious and critical axe violations of the page at `route`, as `rule: targets` lines. */
async function seriousViolations(page: Page, route: string): Promise<string[]> {
  await page.goto(route)
  await page.waitForLoadState('networkidle')
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
}

// one test a route: together they took up to two minutes on a busy CI machine, the limit of one test
for (const route of staticRoutes) {
  test(`${route} has no serious or critical accessibility violations`, async ({ page }) => {
    expect(await seriousViolations(page, route)).toEqual([])
  })
}

test('an article has no serious or critical accessibility violations', async ({ page }) => {
  const [post] = await publicPosts()
  expect(await seriousViolations(page, `/blog/${post!.slug}`)).toEqual([])
})
