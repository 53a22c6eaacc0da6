import { describe, expect, it } from 'vitest'
import {
  buildPageViewRow,
  deviceClass,
  isBot,
  isSameOriginPath,
  normalizePath,
  PageViewBodySchema,
  referrerHost,
  visitorHash,
} from './page-view.ts'

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36'
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/604.1'

describe('isBot', () => {
  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Chrome-Lighthouse',
    'curl/8.5.0',
    'python-requests/2.32.0',
    'node',
    '',
  ])('flags %j', (userAgent) => expect(isBot(userAgent)).toBe(true))

  it.each([CHROME, HEADLESS, IPHONE, IPAD])('lets a browser through: %s', (userAgent) =>
    expect(isBot(userAgent)).toBe(false),
  )
})

describe('referrerHost', () => {
  it('keeps only the host, without www.', () => {
    expect(referrerHost('https://www.Google.com/search?q=agent+austin', ['localhost:4321'])).toBe('google.com')
  })
  it('drops same-site, non-http and unparseable referrers', () => {
    expect(referrerHost('http://localhost:4321/blog', ['localhost'])).toBeNull()
    expect(referrerHost('https://www.agentinsight.com/x', ['agentinsight.com'])).toBeNull()
    expect(referrerHost('android-app://com.google.android.gm', ['x.com'])).toBeNull()
    expect(referrerHost('not a url', ['x.com'])).toBeNull()
    expect(referrerHost('', ['x.com'])).toBeNull()
  })
})

describe('normalizePath', () => {
  it.each([
    ['/', '/'],
    ['/blog/', '/blog'],
    ['/blog?utm_source=x#top', '/blog'],
    ['//blog//post/', '/blog/post'],
    ['//evil.example/phish', '/evil.example/phish'],
  ])('%s → %s', (input, expected) => expect(normalizePath(input)).toBe(expected))
})

describe('same-origin paths (security issue, finding 7)', () => {
  it('refuses a backslash path in the body and links only same-origin paths', () => {
    expect(PageViewBodySchema.safeParse({ path: '/\\evil.example/phish' }).success).toBe(false)
    expect(isSameOriginPath('/blog/post')).toBe(true)
    for (const path of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/a b',
      '',
    ]) {
      expect(isSameOriginPath(path), path).toBe(false)
    }
  })
})

describe('deviceClass', () => {
  it('prefers the beacon hint, else reads the user agent', () => {
    expect(deviceClass('tablet', CHROME)).toBe('tablet')
    expect(deviceClass(undefined, IPHONE)).toBe('mobile')
    expect(deviceClass(undefined, IPAD)).toBe('tablet')
    expect(deviceClass(null, CHROME)).toBe('desktop')
  })
})

describe('visitorHash', () => {
  it('is a stable hex SHA-256 that changes with salt, IP, user agent and site', async () => {
    const base = await visitorHash('salt', '203.0.113.7', CHROME, 'agentinsight.com')
    expect(base).toMatch(/^[0-9a-f]{64}$/)
    expect(await visitorHash('salt', '203.0.113.7', CHROME, 'agentinsight.com')).toBe(base)
    expect(await visitorHash('other', '203.0.113.7', CHROME, 'agentinsight.com')).not.toBe(base)
    expect(await visitorHash('salt', '203.0.113.8', CHROME, 'agentinsight.com')).not.toBe(base)
    expect(await visitorHash('salt', '203.0.113.7', IPHONE, 'agentinsight.com')).not.toBe(base)
    expect(await visitorHash('salt', '203.0.113.7', CHROME, 'other.com')).not.toBe(base)
  })
})

describe('PageViewBodySchema and buildPageViewRow', () => {
  it('names the bad field', () => {
    const result = PageViewBodySchema.safeParse({ path: 'blog' })
    expect(result.success).toBe(false)
    expect(result.error!.issues[0]!.message).toBe('path must start with /')
  })

  it('builds the stored row without IP or user agent', async () => {
    const body = PageViewBodySchema.parse({
      path: '/blog/',
      referrer: 'https://news.ycombinator.com/item?id=1',
      utm_source: ' Newsletter ',
    })
    const row = await buildPageViewRow(body, {
      userAgent: IPHONE,
      ip: '203.0.113.7',
      site: 'x.com',
      siteHosts: ['x.com'],
      salt: 's',
    })
    expect(row).toEqual({
      path: '/blog',
      referrer_host: 'news.ycombinator.com',
      utm_source: 'newsletter',
      device_class: 'mobile',
      visitor_hash: await visitorHash('s', '203.0.113.7', IPHONE, 'x.com'),
    })
    expect(JSON.stringify(row)).not.toContain('203.0.113.7')
  })
})
