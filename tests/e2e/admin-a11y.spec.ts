/**
 * axe-core over every admin page (read from the admin's route files), each of its tabs, the post editor and an open
 * Lead Details dialog, signed in as an administrator, at a laptop and a phone width: no violations at all.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { adminRoutePaths } from '../../scripts/lib/admin-routes.ts'
import { expect, signInAsAdmin, sql, test } from './support.ts'

const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`
const leadEmail = `e2e-a11y-${stamp}@example.com`

test.beforeAll(async () => {
  // a pending lead, so the CRM shows a row with its "waited" time and Lead Details can open
  await sql(
    `insert into public.report_requests (full_name, email, agent_name, agent_location, status)
     values ('Axe Tester', $1, 'Jordan Fixture', 'Cambridge, MA', 'pending')`,
    [leadEmail],
  )
})

test.afterAll(async () => {
  await sql(`delete from public.report_requests where email = $1`, [leadEmail])
})

/** Every axe violation on the page as one line: rule, impact and where. */
async function violations(page: Page): Promise<string[]> {
  // let lazy pages, skeletons and toasts settle into what an operator reads
  await page.waitForLoadState('networkidle')
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 20_000 })
  const { violations: found } = await new AxeBuilder({ page }).analyze()
  return found.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  )
}

/**
 * One test per page (each of its tabs inside it), the post editor and the Lead Details dialog, so each has its own
 * time limit and a failure names its page. The tests of one width share a page signed in once (beforeAll runs again
 * after a failure, in the fresh worker).
 */
const routes = adminRoutePaths()
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test('the sign-in page has no accessibility violations', async ({ page }) => {
      await page.setViewportSize(viewport)
      await page.goto('/admin/login')
      await expect(page.getByRole('button', { name: 'Access Admin Dashboard' })).toBeVisible()
      expect(await violations(page), 'violations on /admin/login').toEqual([])
    })

    test.describe('signed in as an administrator', () => {
      let page: Page

      test.beforeAll(async ({ browser, adminEmail }) => {
        // a context of its own (with the project's settings and base URL), kept for every test of this width
        page = await (await browser.newContext({ viewport })).newPage()
        await signInAsAdmin(page, adminEmail)
      })

      test.afterAll(async () => {
        await page.context().close()
      })

      test('the route files list the admin pages', () => {
        expect(routes).toEqual(expect.arrayContaining(['/admin', '/admin/blog', '/admin/crm', '/admin/login']))
      })

      for (const route of routes.filter((path) => path !== '/admin/login')) {
        test(`${route} and each of its tabs have no accessibility violations`, async () => {
          await page.goto(route)
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 })
          expect(await violations(page), `violations on ${route}`).toEqual([])
          // each tab of the page (the blog's Trending Topics, Content Generation, ...), each with a time limit of its
          // own: axe over five tabs at 390 px took longer than one test's minute on a loaded machine
          const tabs = page.getByRole('tab')
          const tabCount = await tabs.count()
          test.setTimeout(test.info().timeout + tabCount * 30_000)
          for (let index = 1; index < tabCount; index += 1) {
            const tab = tabs.nth(index)
            const name = (await tab.textContent())?.trim()
            await tab.click()
            expect(await violations(page), `violations on ${route}, tab ${name}`).toEqual([])
          }
        })
      }

      test('the post editor has no accessibility violations', async () => {
        await page.goto('/admin/blog?new=1')
        await expect(page.getByRole('heading', { name: 'New Post' })).toBeVisible()
        await expect(page.getByLabel('Title', { exact: true })).toBeVisible()
        expect(await violations(page), 'violations in the post editor').toEqual([])
      })

      test('Lead Details has no accessibility violations', async () => {
        await page.goto(`/admin/crm?q=${encodeURIComponent(leadEmail)}`)
        await page.getByRole('button', { name: 'View details for Axe Tester' }).click()
        await expect(page.getByRole('dialog', { name: 'Lead Details' })).toBeVisible()
        expect(await violations(page), 'violations in Lead Details').toEqual([])
      })
    })
  })
}
