/**
 * The public site's cookie-free page-view beacon: a visit stores a page_views row with the path, the campaign
 * source and the device class (and no cookie); navigation inside the site has no referrer host; an operator's
 * browser (localStorage ai_exclude_analytics = 1) and Do Not Track send nothing; the beacon is a file under 1 KB
 * that loads after the first paint.
 */
import { devices, expect, test, type Page } from '@playwright/test'
import { sql } from './site-support.ts'

// Every browser test shares one IP (none is forwarded locally); a user agent of our own makes this spec its own
// visitor, so other specs' views never push it over the per-minute rate limit.
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`
test.use({ userAgent: `${devices['Desktop Chrome'].userAgent} site-beacon/${run}` })

interface ViewRow {
  path: string
  referrer_host: string | null
  utm_source: string | null
  device_class: string
  visitor_hash: string
}

const columns = 'path, referrer_host, utm_source, device_class, visitor_hash'

async function viewsWithSource(source: string): Promise<ViewRow[]> {
  return sql<ViewRow>(`select ${columns} from public.page_views where utm_source = $1`, [source])
}

/** Collects the beacon requests a page sends. */
function beaconRequests(page: Page): string[] {
  const sent: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/functions/v1/track-pageview') && request.method() === 'POST')
      sent.push(request.postData() ?? '')
  })
  return sent
}

test.afterAll(async () => {
  await sql(`delete from public.page_views where utm_source like $1`, [`beacon-${run}%`])
})

test('visiting a public page records a page view with its path, and in-site navigation has no referrer host', async ({
  page,
  context,
}) => {
  const source = `beacon-${run}`
  await page.goto(`/about?utm_source=${source}`)

  await expect.poll(() => viewsWithSource(source)).toHaveLength(1)
  const [view] = await viewsWithSource(source)
  expect(view).toMatchObject({ path: '/about', referrer_host: null, utm_source: source, device_class: 'desktop' })

  // the next page is reached from /about: same site, so no referrer host; same browser, so the same visitor
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'How It Works' }).click()
  await expect(page).toHaveURL(/\/how-it-works\/?$/)
  await expect
    .poll(() =>
      sql<ViewRow>(`select ${columns} from public.page_views where visitor_hash = $1 and path = '/how-it-works'`, [
        view!.visitor_hash,
      ]),
    )
    .toEqual([
      {
        path: '/how-it-works',
        referrer_host: null,
        utm_source: null,
        device_class: 'desktop',
        visitor_hash: view!.visitor_hash,
      },
    ])

  expect(await context.cookies()).toEqual([])
})

test('a phone-sized viewport is recorded as mobile', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 })
  const source = `beacon-${run}-mobile`
  await page.goto(`/how-it-works?utm_source=${source}`)
  await expect.poll(async () => (await viewsWithSource(source)).map((row) => row.device_class)).toEqual(['mobile'])
})

test("an operator's browser and Do Not Track send no page view", async ({ page }) => {
  const sent = beaconRequests(page)

  await page.addInitScript(() => window.localStorage.setItem('ai_exclude_analytics', '1'))
  await page.goto(`/about?utm_source=beacon-${run}-excluded`)
  await page.waitForLoadState('networkidle')
  expect(sent).toEqual([])

  const dnt = await page.context().newPage()
  const sentWithDnt = beaconRequests(dnt)
  await dnt.addInitScript(() => {
    window.localStorage.removeItem('ai_exclude_analytics')
    Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })
  })
  await dnt.goto(`/about?utm_source=beacon-${run}-dnt`)
  await dnt.waitForLoadState('networkidle')
  expect(sentWithDnt).toEqual([])

  // the same page without either signal does send: the two checks above are not vacuous
  const counted = await page.context().newPage()
  const sentCounted = beaconRequests(counted)
  await counted.addInitScript(() => window.localStorage.removeItem('ai_exclude_analytics'))
  await counted.goto(`/about?utm_source=beacon-${run}-counted`)
  await expect.poll(() => sentCounted.length).toBe(1)
  expect(JSON.parse(sentCounted[0]!)).toEqual({
    path: '/about',
    referrer: null,
    utm_source: `beacon-${run}-counted`,
    device_class: 'desktop',
  })
  expect(await viewsWithSource(`beacon-${run}-excluded`)).toEqual([])
  expect(await viewsWithSource(`beacon-${run}-dnt`)).toEqual([])
})

test('the beacon is one script under 1 KB, loaded after the first paint, on every page', async ({ page, request }) => {
  for (const path of ['/', '/blog', '/about']) {
    await page.goto(path)
    // an after-paint script (src/lib/after-paint.ts): no inline copy, and the project's key is not in the document
    const html = await (await request.get(path)).text()
    expect(html, path).not.toContain('/functions/v1/track-pageview')
    const sources = await page
      .locator('script[type="text/x-after-paint"]')
      .evaluateAll((scripts) => scripts.map((script) => script.getAttribute('src') ?? ''))
    const beacons = sources.filter((src) => src.includes('AnalyticsBeacon'))
    expect(beacons, path).toHaveLength(1)
    const file = await request.get(beacons[0]!)
    expect(file.ok(), beacons[0]).toBe(true)
    const body = await file.body()
    expect(body.toString('utf8'), beacons[0]).toContain('/functions/v1/track-pageview')
    expect(body.length, beacons[0]).toBeLessThan(1024)
  }
})
