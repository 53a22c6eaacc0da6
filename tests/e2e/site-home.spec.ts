/** Home page islands (hero search, testimonials, steps), the header navigation and the footer. */
import { expect, test, type Page } from '@playwright/test'
import { BAD_ZIP_CODE_MESSAGE, QUERY_TOO_LONG_MESSAGE } from '@shared/search-query-rules.ts'
import { waitForHeader, waitForIsland } from './site-support.ts'

/** The home page with the hero search hydrated (a tab click before that would do nothing). */
async function openHome(page: Page) {
  await page.goto('/')
  await waitForIsland(page, 'HeroSearch')
}

test.describe('hero search', () => {
  test('the Search button is disabled until there is non-blank text', async ({ page }) => {
    await openHome(page)
    const search = page.getByRole('button', { name: 'Search', exact: true })
    await expect(search).toBeDisabled()
    await page.getByRole('textbox', { name: 'Agent name' }).fill('   ')
    await expect(search).toBeDisabled()
    await page.getByRole('textbox', { name: 'Agent name' }).fill('Jane')
    await expect(search).toBeEnabled()
  })

  test('Agent Name is the default tab and the query is trimmed and encoded', async ({ page }) => {
    await openHome(page)
    await expect(page.getByRole('tab', { name: 'Agent Name' })).toHaveAttribute('aria-selected', 'true')
    await page.getByRole('textbox', { name: 'Agent name' }).fill('  Jane Smith & Co  ')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await page.waitForURL('**/search-results?**')
    expect(new URL(page.url()).search).toBe('?q=Jane%20Smith%20%26%20Co&type=agent')
  })

  test('text typed before the island hydrates is kept and searchable', async ({ page }) => {
    // Hold the page's scripts back until the visitor has typed into the prebuilt input.
    let release!: () => void
    const typed = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/_astro/**/*.js', async (route) => {
      await typed
      await route.continue()
    })
    // 'commit', not 'domcontentloaded': the held-back module scripts (the header's) would hold that event too
    await page.goto('/', { waitUntil: 'commit' })
    await page.getByRole('textbox', { name: 'Agent name' }).fill('Early Typist')
    release()
    const search = page.getByRole('button', { name: 'Search', exact: true })
    await expect(search).toBeEnabled()
    await search.click()
    await page.waitForURL('**/search-results?**')
    expect(new URL(page.url()).search).toBe('?q=Early%20Typist&type=agent')
  })

  test('the ZIP Code tab changes the placeholder and Enter submits', async ({ page }) => {
    await openHome(page)
    await page.getByRole('tab', { name: 'ZIP Code' }).click()
    const input = page.getByRole('textbox', { name: 'ZIP code' })
    await expect(input).toHaveAttribute('placeholder', /ZIP code/)
    await input.fill('78701')
    await input.press('Enter')
    await page.waitForURL('**/search-results?**')
    expect(new URL(page.url()).search).toBe('?q=78701&type=zipcode')
  })

  test("a query the search function would refuse stays on the page with the function's message", async ({ page }) => {
    await openHome(page)
    await page.getByRole('tab', { name: 'ZIP Code' }).click()
    const zip = page.getByRole('textbox', { name: 'ZIP code' })
    await zip.fill('abc')
    await zip.press('Enter')
    await expect(page.getByRole('alert')).toHaveText(BAD_ZIP_CODE_MESSAGE)
    await expect(zip).toHaveAttribute('aria-invalid', 'true')
    await expect(page).toHaveURL(/\/$/)
    await zip.fill('02139')
    await expect(page.getByRole('alert')).toHaveCount(0)

    await page.getByRole('tab', { name: 'Agent Name' }).click()
    await page.getByRole('textbox', { name: 'Agent name' }).fill('x'.repeat(300))
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(page.getByRole('alert')).toHaveText(QUERY_TOO_LONG_MESSAGE)
    await expect(page).toHaveURL(/\/$/)
  })

  test('the Address tab searches by address', async ({ page }) => {
    await openHome(page)
    await page.getByRole('tab', { name: 'Address' }).click()
    const input = page.getByRole('textbox', { name: 'Property address' })
    await expect(input).toHaveAttribute('placeholder', /address/)
    await input.fill('12 Main St, Austin')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await page.waitForURL('**/search-results?**')
    expect(new URL(page.url()).search).toBe('?q=12%20Main%20St%2C%20Austin&type=address')
  })
})

test('the value cards and claims are the spec\'s, with the data source stated instead of "MLS-verified"', async ({
  page,
}) => {
  await page.goto('/')
  const why = page.getByRole('region', { name: 'Why AgentInsight' })
  await expect(why.getByRole('heading', { level: 3 })).toHaveText([
    'Avoid overpaying',
    'Sell quicker',
    'Uncover hidden costs',
  ])
  const claims = page.getByRole('list', { name: 'Why it is worth a look' })
  await expect(claims.getByRole('listitem')).toHaveText([
    'Free agent reports',
    'Request a report in 60 seconds',
    'Figures computed from closed-sale records',
  ])
  await expect(page.getByText(/MLS-verified/i)).toHaveCount(0)
})

test('the hero picture is optimized: AVIF and WebP candidates with widths, preloaded, with its size reserved', async ({
  page,
}) => {
  await page.goto('/')
  const sources = page.locator('picture source')
  await expect(sources).toHaveCount(2)
  await expect(sources.nth(0)).toHaveAttribute('type', 'image/avif')
  await expect(sources.nth(1)).toHaveAttribute('type', 'image/webp')
  await expect(sources.nth(0)).toHaveAttribute('srcset', /\.avif 360w, .+\.avif 960w/)
  const image = page.getByRole('img', { name: /Illustration: a street of houses/ })
  await expect(image).toHaveAttribute('width', /\d+/)
  await expect(image).toHaveAttribute('height', /\d+/)
  await expect(page.locator('link[rel="preload"][as="image"]')).toHaveAttribute('imagesrcset', /\.avif 360w/)
  expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  // each candidate is the format its type names (the file's signature), and a narrower one is a smaller file
  const signatures: Record<string, (bytes: Buffer) => boolean> = {
    'image/avif': (bytes) => bytes.subarray(4, 12).toString('latin1') === 'ftypavif',
    'image/webp': (bytes) =>
      bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
  }
  for (const index of [0, 1]) {
    const type = (await sources.nth(index).getAttribute('type'))!
    const candidates = (await sources.nth(index).getAttribute('srcset'))!
      .split(', ')
      .map((entry) => entry.split(' ')[0]!)
    const sizes: number[] = []
    for (const href of candidates) {
      const response = await page.request.get(href)
      expect(response.status(), href).toBe(200)
      const bytes = await response.body()
      expect(signatures[type]!(bytes), `${href} is ${type}`).toBe(true)
      sizes.push(bytes.length)
    }
    expect(sizes[0], `${candidates[0]} is smaller than ${candidates.at(-1)}`).toBeLessThan(sizes.at(-1)!)
  }
})

test('the logo mark and the favicon set are served', async ({ page, request }) => {
  await page.goto('/')
  await expect(page.getByRole('link', { name: 'AgentInsight home' }).locator('svg')).toBeVisible()
  // each file by its signature: SVG markup, the ICO header (00 00 01 00), the PNG magic number, the manifest's icons
  const body = async (href: string) => {
    const response = await request.get(href)
    expect(response.status(), href).toBe(200)
    return response.body()
  }
  expect((await body('/favicon.svg')).toString()).toMatch(/^<svg /)
  expect([...(await body('/favicon.ico')).subarray(0, 4)]).toEqual([0, 0, 1, 0])
  expect((await body('/apple-touch-icon.png')).subarray(1, 4).toString()).toBe('PNG')
  const manifest = JSON.parse((await body('/site.webmanifest')).toString()) as { icons: { src: string }[] }
  for (const icon of manifest.icons) expect((await body(icon.src)).subarray(1, 4).toString(), icon.src).toBe('PNG')
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/apple-touch-icon.png')
})

test('the testimonial carousel wraps in both directions and shows the stats', async ({ page }) => {
  await page.goto('/')
  const carousel = page.getByRole('group', { name: 'Testimonials' })
  await carousel.scrollIntoViewIfNeeded()
  await waitForIsland(page, 'TestimonialCarousel')
  await expect(carousel.getByText('Maria L.')).toBeVisible()
  await carousel.getByRole('button', { name: 'Previous testimonial' }).click()
  await expect(carousel.getByText('Angela W.')).toBeVisible()
  await carousel.getByRole('button', { name: 'Next testimonial' }).click()
  await expect(carousel.getByText('Maria L.')).toBeVisible()
  for (const name of ['James and Priya K.', 'Daniel R.', 'Angela W.', 'Maria L.']) {
    await carousel.getByRole('button', { name: 'Next testimonial' }).click()
    await expect(carousel.getByText(name)).toBeVisible()
  }
  for (const stat of ['10,000+', '$2.5M+', '4.9/5']) await expect(page.getByText(stat, { exact: true })).toBeVisible()
})

test('the steps advance and the last one starts the search', async ({ page }) => {
  await page.goto('/')
  const steps = page.getByRole('region', { name: 'How it works' })
  await steps.scrollIntoViewIfNeeded()
  await waitForIsland(page, 'HowItWorksSteps')
  await expect(steps.getByText('Time: 30 seconds')).toBeVisible()
  await expect(steps.getByText('Time: 2 minutes')).toBeVisible()
  await expect(steps.getByText('Time: your timeline')).toBeVisible()
  await expect(steps.getByRole('listitem').nth(0)).toHaveAttribute('aria-current', 'step')
  await steps.getByRole('button', { name: 'Next Step' }).click()
  await expect(steps.getByRole('listitem').nth(1)).toHaveAttribute('aria-current', 'step')
  await steps.getByRole('button', { name: 'Next Step' }).click()
  await expect(steps.getByRole('listitem').nth(2)).toHaveAttribute('aria-current', 'step')
  await steps.getByRole('button', { name: 'Start Your Search' }).click()
  await expect(page.getByRole('textbox', { name: 'Agent name' })).toBeFocused()
  await expect(page.getByRole('textbox', { name: 'Agent name' })).toBeInViewport()
})

test('the closing call to action scrolls to the search', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'Find Your Agent' }).click()
  await expect(page.getByRole('textbox', { name: 'Agent name' })).toBeFocused()
})

test('the header marks the current page and the footer links the blog categories', async ({ page }) => {
  await page.goto('/blog')
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: 'Blog' })).toHaveAttribute('aria-current', 'page')
  await expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page')
  for (const name of ['Home', 'Search Agents', 'About', 'How It Works', 'Login'])
    await expect(nav.getByRole('link', { name })).toBeVisible()
  const resources = page.getByRole('navigation', { name: 'Resources' })
  await expect(resources.getByRole('link', { name: 'Market Analysis' })).toHaveAttribute(
    'href',
    '/blog/category/market-analysis',
  )
  await expect(resources.getByRole('link', { name: 'Buying Guides' })).toHaveAttribute(
    'href',
    '/blog/category/buying-guides',
  )
  // Product links are /, /blog and /sample-report
  const product = page.getByRole('navigation', { name: 'Product' }).getByRole('link')
  expect(await product.evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
    '/',
    '/blog',
    '/sample-report',
  ])
  await expect(page.getByText('Agent data shown in this demo is fictional.')).toBeVisible()
})

test('results, profiles and the sample report highlight Search Agents', async ({ page }) => {
  for (const path of [
    '/search-results?q=Anyone',
    '/agent/00000000-0000-4000-8000-000000000000',
    '/sample-report',
    '/search',
  ]) {
    await page.goto(path)
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect(nav.getByRole('link', { name: 'Search Agents' }), path).toHaveAttribute('aria-current', 'page')
    await expect(nav.locator('[aria-current="page"]'), path).toHaveCount(1)
  }
})

test('nothing but the page itself is requested before the first paint: scripts and the page-view beacon wait', async ({
  context,
}) => {
  for (const path of ['/', '/blog', '/blog/how-to-write-a-strong-offer', '/sample-report']) {
    // a new tab each time, as a visitor arriving (and as Lighthouse loads a page): between two pages of one origin
    // Chrome keeps the old page on screen until the new one paints, which would hold back its first paint
    const page = await context.newPage()
    const beacon = page.waitForResponse((response) => response.url().includes('/functions/v1/track-pageview'))
    await page.goto(path)
    await waitForHeader(page) // the header's script has loaded and run
    await (await beacon).finished() // its resource timing entry is written when it ends
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null
      const early = performance
        .getEntriesByType('resource')
        .filter((entry) => /\.js($|\?)|track-pageview/.test(entry.name) && paint !== null && entry.startTime < paint)
        .map((entry) => entry.name)
      return { paint, early }
    })
    expect(timing.paint, path).not.toBeNull()
    expect(timing.early, path).toEqual([])
    // and the after-paint scripts are on the page, inert until the loader imports them
    await expect(page.locator('script[type="module"][src]'), path).toHaveCount(0)
    expect(await page.locator('script[type="text/x-after-paint"]').count(), path).toBeGreaterThan(0)
    await page.close()
  }
})

test('a tap on Menu before the header script has arrived opens the menu once it has', async ({ page }) => {
  // the page's scripts come late, as on a slow phone: the page is drawn and tappable before they run
  await page.route(/\/_astro\/.*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await route.continue()
  })
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto('/', { waitUntil: 'domcontentloaded' })
  const menu = page.getByRole('button', { name: 'Menu' })
  await expect(menu).not.toHaveAttribute('data-ready')
  await menu.click()
  await expect(menu).toHaveAttribute('aria-expanded', 'false') // held, not lost
  await expect(menu).toHaveAttribute('data-ready', '', { timeout: 10_000 })
  await expect(menu).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' })).toBeVisible()
})

test('on a small screen the menu button toggles the navigation', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto('/')
  const menu = page.getByRole('button', { name: 'Menu' })
  const about = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' })
  await expect(menu).toHaveAttribute('aria-expanded', 'false')
  await expect(about).toBeHidden()
  await waitForHeader(page)
  await menu.click()
  await expect(menu).toHaveAttribute('aria-expanded', 'true')
  await expect(about).toBeVisible()
  await menu.click()
  await expect(about).toBeHidden()
  await expect(menu.locator('svg.lucide-menu')).toBeVisible()

  // Escape closes it and gives focus back to the button; so does a tap outside the header
  await menu.click()
  await expect(about).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(about).toBeHidden()
  await expect(menu).toBeFocused()
  await menu.click()
  await expect(about).toBeVisible()
  await page.mouse.click(195, 780)
  await expect(about).toBeHidden()
  await expect(menu).toHaveAttribute('aria-expanded', 'false')
})

test('every page has its own title, description, canonical URL and social tags', async ({ page, baseURL }) => {
  const seen = new Set<string>()
  for (const path of ['/', '/search', '/blog', '/about', '/how-it-works', '/sample-report']) {
    await page.goto(path)
    const title = await page.title()
    expect(seen.has(title), `duplicate title ${title}`).toBe(false)
    seen.add(title)
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/)
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new URL(path, baseURL).href)
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title)
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', /summary/)
  }
})
