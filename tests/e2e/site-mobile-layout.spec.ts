/**
 * Every public route at a phone (390×844) and a laptop (1280×800) viewport: nothing is wider than the viewport
 * (`document.documentElement.scrollWidth <= innerWidth`), and every interactive element on screen is visible, inside
 * the viewport horizontally and on top at its centre (what Playwright's click checks before clicking), so a tap
 * reaches it. On the phone the menu is opened so its links are checked too; one real tap per page confirms the check.
 */
import { expect, test, type Page } from '@playwright/test'
import { createAgents, makeSales, unusedZip, waitForAgentPage } from './agent-fixtures.ts'
import { publicPosts, waitForHeader, waitForIsland } from './site-support.ts'

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1280, height: 800 },
] as const

let fixture: Awaited<ReturnType<typeof createAgents>> | undefined
let zip = ''

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000)
  zip = await unusedZip()
  // a long name and many service areas: the cases that pushed cards past a phone screen
  fixture = await createAgents(zip, [
    {
      name: 'Maximiliana Featherstonehaugh-Worthington',
      brokerage: 'An Exceptionally Long Brokerage Name Realty Partners',
      sales: makeSales('Layout', 12),
    },
    ...Array.from({ length: 9 }, (_, index) => ({
      name: `Layout Agent ${index}`,
      sales: makeSales(`Layout${index}`, 5 + index),
    })),
  ])
  // the profile and ZIP pages are prerendered by the data-change rebuild that the fixture's refresh triggers
  await waitForAgentPage(baseURL!, fixture.agents[0]!.id)
})

test.afterAll(async () => {
  await fixture?.remove()
})

async function routes(): Promise<string[]> {
  const [post] = await publicPosts()
  return [
    '/',
    '/search',
    `/search-results?q=${zip}&type=zipcode`,
    '/search-results?q=Featherstonehaugh&type=agent',
    '/search-results?q=zzzz-no-such-agent&type=agent',
    '/search-results?q=abc&type=zipcode',
    '/search-results',
    `/agent/${fixture!.agents[0]!.id}`,
    // an id the build did not render: the agent not-found page (HTTP 404)
    '/agent/3f0c1a52-8f0e-4c55-9b7a-0d5a1f5e2c11',
    `/agents/${zip}`,
    '/compare',
    `/compare?agents=${fixture!.agents[0]!.id},${fixture!.agents[1]!.id}`,
    '/sample-report',
    '/blog',
    `/blog/${post!.slug}`,
    '/blog/category/market-analysis',
    // the blog's own 404 ('Article Not Found', Back to Blog)
    '/blog/no-such-article',
    '/about',
    '/how-it-works',
    '/auth',
    '/no-such-page',
  ]
}

/**
 * Checks, in the page, every interactive element a visitor can see inside `scope` (a CSS selector): scrolled into
 * view it must lie inside the viewport horizontally, and the topmost element at its centre must be the element
 * itself (or inside it), so a click lands on it and not on something covering it. Returns one line per problem.
 */
function interactiveProblems(page: Page, scope: string): Promise<{ checked: number; problems: string[] }> {
  return page.evaluate((scope) => {
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=tab], [tabindex]:not([tabindex="-1"])'
    const problems: string[] = []
    let checked = 0
    for (const element of document.querySelectorAll<HTMLElement>(`${scope} :is(${selector})`)) {
      const before = element.getBoundingClientRect()
      // not rendered (closed menu, inactive tab, display:none) or visually hidden until focused (the skip link)
      if (
        !element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) ||
        before.width <= 1 ||
        before.height <= 1
      )
        continue
      if ((element as HTMLButtonElement).disabled) continue
      checked += 1
      const name = `${element.tagName.toLowerCase()} "${((element.textContent ?? '').trim() || element.getAttribute('aria-label') || '').slice(0, 40)}"`
      element.scrollIntoView({ block: 'center', inline: 'nearest' })
      const box = element.getBoundingClientRect()
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5) {
        problems.push(
          `${name} lies outside the viewport (${Math.round(box.left)}-${Math.round(box.right)} px of ${window.innerWidth})`,
        )
        continue
      }
      const x = Math.min(window.innerWidth - 1, Math.max(0, box.left + box.width / 2))
      const y = Math.min(window.innerHeight - 1, Math.max(0, box.top + Math.min(box.height, 40) / 2))
      const hit = document.elementFromPoint(x, y)
      if (!hit || !(hit === element || element.contains(hit) || hit.contains(element))) {
        problems.push(
          `${name} is covered by ${hit ? `${hit.tagName.toLowerCase()}.${[...hit.classList].slice(0, 3).join('.')}` : 'nothing'}`,
        )
      }
    }
    window.scrollTo(0, 0)
    return { checked, problems }
  }, scope)
}

async function checkInteractive(page: Page, route: string, scope = 'body'): Promise<void> {
  const { checked, problems } = await interactiveProblems(page, scope)
  expect(checked, `interactive elements on ${route}`).toBeGreaterThan(0)
  expect(problems, `controls on ${route}`).toEqual([])
}

for (const viewport of VIEWPORTS) {
  test(`no route overflows a ${viewport.width}×${viewport.height} ${viewport.name} screen and every control is reachable`, async ({
    page,
  }) => {
    test.setTimeout(180_000)
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    for (const route of await routes()) {
      await page.goto(route)
      await page.waitForLoadState('networkidle')
      // the results island renders after its search answers: wait for it to leave the skeleton
      if (route.startsWith('/search-results')) {
        await waitForIsland(page, 'SearchResults')
        // the real function's first answer can take seconds on a busy machine
        await expect(page.getByTestId('agent-card-skeleton')).toHaveCount(0, { timeout: 20_000 })
      }
      // the compare island loads the agents live: wait for their columns
      if (route.startsWith('/compare?')) {
        await expect(page.getByRole('list', { name: 'Agents compared' }).getByRole('heading').first()).toBeVisible({
          timeout: 20_000,
        })
      }
      const overflow = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }))
      expect(overflow.scrollWidth, `${route} is wider than the screen`).toBeLessThanOrEqual(overflow.innerWidth)
      await checkInteractive(page, route)
      // and one real click through Playwright's own actionability checks: the logo link
      await page.getByRole('link', { name: 'AgentInsight home' }).click({ trial: true })
      if (viewport.width < 768) {
        await waitForHeader(page)
        await page.getByRole('button', { name: 'Menu' }).click()
        await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
        // the open menu lies over the page: check what it offers
        await checkInteractive(page, `${route} (menu open)`, '[data-site-header]')
        await page.keyboard.press('Escape')
        await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden()
      }
    }
  })
}
