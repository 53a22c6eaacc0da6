/**
 * Every public route at a phone (390×844) and a laptop (1280×800) viewport: nothing is wider than the viewport
 * (`document.documentElement.scrollWidth <= innerWidth`), and every interactive element on screen is visible, inside
 * the viewport horizontally and receives a click (Playwright's trial click: visible, stable, enabled and not covered
 * by another element). On the phone the menu is opened so its links are checked too.
 */
import { expect, test, type Page } from '@playwright/test';
import { createAgents, makeSales, unusedZip } from './agent-fixtures.ts';
import { publicPosts, waitForIsland } from './site-support.ts';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1280, height: 800 },
] as const;

let fixture: Awaited<ReturnType<typeof createAgents>>;
let zip = '';

test.beforeAll(async () => {
  zip = await unusedZip();
  // a long name and many service areas: the cases that pushed cards past a phone screen
  fixture = await createAgents(zip, [
    { name: 'Maximiliana Featherstonehaugh-Worthington', brokerage: 'An Exceptionally Long Brokerage Name Realty Partners', sales: makeSales('Layout', 12) },
    ...Array.from({ length: 9 }, (_, index) => ({ name: `Layout Agent ${index}`, sales: makeSales(`Layout${index}`, 5 + index) })),
  ]);
});

test.afterAll(async () => {
  await fixture?.remove();
});

async function routes(): Promise<string[]> {
  const [post] = await publicPosts();
  return [
    '/',
    '/search',
    `/search-results?q=${zip}&type=zipcode`,
    '/search-results?q=Featherstonehaugh&type=agent',
    '/search-results?q=zzzz-no-such-agent&type=agent',
    '/search-results?q=abc&type=zipcode',
    '/search-results',
    `/agent/${fixture.agents[0]!.id}`,
    '/sample-report',
    '/blog',
    `/blog/${post!.slug}`,
    '/blog/category/market-analysis',
    '/blog/no-such-article',
    '/about',
    '/how-it-works',
    '/auth',
    '/no-such-page',
  ];
}

/** Marks the interactive elements a visitor can see and returns how many there are. */
function markInteractive(page: Page): Promise<number> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=tab], [tabindex]:not([tabindex="-1"])';
    let count = 0;
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      element.removeAttribute('data-layout-check');
      const box = element.getBoundingClientRect();
      // not rendered (closed menu, other tab, display:none) or visually hidden until focused (skip link)
      if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) || box.width <= 1 || box.height <= 1) continue;
      if ((element as HTMLButtonElement).disabled) continue;
      element.setAttribute('data-layout-check', String(count));
      count += 1;
    }
    return count;
  });
}

async function describeElement(page: Page, index: number): Promise<string> {
  return page.locator(`[data-layout-check="${index}"]`).evaluate((element) => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40) || element.getAttribute('aria-label') || ''}"`);
}

async function checkInteractive(page: Page, route: string): Promise<void> {
  const count = await markInteractive(page);
  expect(count, `interactive elements on ${route}`).toBeGreaterThan(0);
  const width = await page.evaluate(() => window.innerWidth);
  for (let index = 0; index < count; index += 1) {
    const element = page.locator(`[data-layout-check="${index}"]`);
    await element.scrollIntoViewIfNeeded();
    const box = await element.boundingBox();
    const name = await describeElement(page, index);
    expect(box, `${name} on ${route} has a box`).not.toBeNull();
    // inside a horizontally scrolling container (a wide table) the element may sit beyond the edge until scrolled
    const inScroller = await element.evaluate((node) => {
      for (let parent = node.parentElement; parent; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && parent.scrollWidth > parent.clientWidth) return true;
      }
      return false;
    });
    if (!inScroller) {
      expect(box!.x, `${name} on ${route} starts inside the viewport`).toBeGreaterThanOrEqual(-0.5);
      expect(box!.x + box!.width, `${name} on ${route} ends inside the viewport`).toBeLessThanOrEqual(width + 0.5);
    }
    await element.click({ trial: true, timeout: 3_000 }).catch((error: Error) => {
      throw new Error(`${name} on ${route} cannot be clicked: ${error.message.split('\n')[0]}`);
    });
  }
}

for (const viewport of VIEWPORTS) {
  test(`no route overflows a ${viewport.width}×${viewport.height} ${viewport.name} screen and every control is reachable`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    for (const route of await routes()) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      // the results island renders after its search answers: wait for it to leave the skeleton
      if (route.startsWith('/search-results')) {
        await waitForIsland(page, 'SearchResults');
        await expect(page.getByTestId('agent-card-skeleton')).toHaveCount(0);
      }
      const overflow = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(overflow.scrollWidth, `${route} is wider than the screen`).toBeLessThanOrEqual(overflow.innerWidth);
      await checkInteractive(page, route);
      if (viewport.width < 768) {
        await page.getByRole('button', { name: 'Menu' }).click();
        await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
        await checkInteractive(page, `${route} (menu open)`);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
      }
    }
  });
}
