/**
 * Pure rules of the track-pageview edge function (Deno) — body validation, bot detection, referrer reduction,
 * device class and the daily visitor hash — kept free of I/O so vitest can test them in Node.
 *
 * Request: POST /functions/v1/track-pageview with JSON
 *   {path: string, referrer?: string | null, utm_source?: string | null, device_class?: 'mobile'|'tablet'|'desktop'}
 * Answers: 201 {recorded: true}; 200 {recorded: false, reason: 'bot'}; 400 {error} naming the bad field;
 * 429 {error} when the visitor sent too many views in the last minute; 500 {error: 'Page view could not be stored'}.
 */
import { z } from 'zod'

/** Longest stored path, in characters. */
export const PATH_MAX_LENGTH = 300

export const DEVICE_CLASSES = ['mobile', 'tablet', 'desktop'] as const
export type DeviceClass = (typeof DEVICE_CLASSES)[number]

/** The beacon's body. Unknown keys are ignored; a missing device_class is derived from the user agent. */
export const PageViewBodySchema = z.object({
  path: z
    .string({ error: 'path is required' })
    .min(1, 'path is required')
    .max(PATH_MAX_LENGTH, `path must be at most ${PATH_MAX_LENGTH} characters`)
    .startsWith('/', 'path must start with /')
    .refine(
      (path) => !/[\\\s\u0000-\u001f\u007f]/.test(path),
      'path must be a same-origin path: no backslashes, spaces or control characters',
    ),
  referrer: z
    .string({ error: 'referrer must be text' })
    .max(2000, 'referrer must be at most 2000 characters')
    .nullish(),
  utm_source: z
    .string({ error: 'utm_source must be text' })
    .max(100, 'utm_source must be at most 100 characters')
    .nullish(),
  device_class: z.enum(DEVICE_CLASSES, { error: 'device_class must be mobile, tablet or desktop' }).nullish(),
})
export type PageViewBody = z.infer<typeof PageViewBodySchema>

/** The row the function stores (page_views without id and created_at). */
export interface PageViewRow {
  path: string
  referrer_host: string | null
  utm_source: string | null
  device_class: DeviceClass
  visitor_hash: string
}

/**
 * Crawlers, link previewers, monitoring and HTTP libraries. Headless Chrome is deliberately NOT listed: the
 * project's own browser tests run in it and must be counted (real scrapers rarely announce themselves anyway).
 */
const BOT_PATTERN =
  /bot\b|bot\/|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|quora link preview|whatsapp|telegram|skypeuripreview|bitlybot|vkshare|lighthouse|pagespeed|gtmetrix|pingdom|uptime|statuscake|phantomjs|python-requests|python-urllib|aiohttp|httpx|go-http-client|java\/|okhttp|apache-httpclient|libwww|curl\/|wget\/|node-fetch|undici|axios|postmanruntime|insomnia|scrapy|httpie|feedfetcher|preview/i

/** True when the user agent is missing or looks like a crawler, previewer, monitor or HTTP library. */
export function isBot(userAgent: string | null | undefined): boolean {
  if (!userAgent || userAgent.trim().length < 10) return true
  return BOT_PATTERN.test(userAgent)
}

/**
 * `/blog/`, `/blog?x=1#top` and `/blog` are the same page: strips query, fragment and trailing slashes
 * (keeping `/`), and collapses repeated slashes, so `//evil.example/x` becomes `/evil.example/x`, a path on this
 * site (security issue, finding 7). Backslashes are turned into slashes first, as browsers do.
 */
export function normalizePath(path: string): string {
  const bare = path
    .split(/[?#]/, 1)[0]!
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
  return bare.replace(/\/+$/, '') || '/'
}

/**
 * True when `path` is safe to use as a link on the site's own origin: one leading slash, no second slash or
 * backslash after it, no scheme, no control characters or spaces. The admin links only such paths and shows the
 * rest as text.
 */
export function isSameOriginPath(path: string): boolean {
  if (!/^\/(?![\/\\])/.test(path) || /[\\\s\u0000-\u001f\u007f]/.test(path)) return false
  const base = 'https://site.invalid'
  try {
    return new URL(path, base).origin === base
  } catch {
    return false
  }
}

/** Lower-cased host name without a port and without a leading `www.`. */
function bareHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/:\d+$/, '')
    .replace(/^www\./, '')
}

/**
 * Reduces a referrer URL to its host (`https://www.google.com/search?q=x` → `google.com`). Returns null for an
 * empty or unparseable referrer, a non-http(s) one, and a same-site one (its host name is one of `siteHosts`,
 * compared without port and `www.`), since navigation inside the site is not a traffic source.
 */
export function referrerHost(referrer: string | null | undefined, siteHosts: readonly string[]): string | null {
  if (!referrer) return null
  let url: URL
  try {
    url = new URL(referrer)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  const host = bareHost(url.hostname)
  if (!host || host.length > 255) return null
  if (siteHosts.some((site) => bareHost(site) === host)) return null
  return host
}

/** utm_source trimmed and lower-cased (`Newsletter ` and `newsletter` are one source); empty becomes null. */
export function normalizeUtmSource(source: string | null | undefined): string | null {
  const value = source?.trim().toLowerCase()
  return value ? value : null
}

/**
 * The beacon's device class (from the viewport width) when it sent one, else a guess from the user agent:
 * iPad/tablet/Android-without-Mobile → tablet, Mobi/iPhone/Android → mobile, anything else desktop.
 */
export function deviceClass(hint: DeviceClass | null | undefined, userAgent: string): DeviceClass {
  if (hint) return hint
  if (/ipad|tablet|kindle|silk|playbook|android(?!.*mobile)/i.test(userAgent)) return 'tablet'
  if (/mobi|iphone|ipod|android|windows phone/i.test(userAgent)) return 'mobile'
  return 'desktop'
}

/**
 * visitor_hash = hex SHA-256 of `salt \n ip \n userAgent \n site`. The salt is random per UTC day and deleted
 * afterwards, so the hash identifies a visitor for one day only and cannot be reversed to an IP.
 * @returns 64 lower-case hex characters.
 */
export async function visitorHash(salt: string, ip: string, userAgent: string, site: string): Promise<string> {
  const data = new TextEncoder().encode([salt, ip, userAgent, site].join('\n'))
  const digest = await crypto.subtle.digest('SHA-256', data)
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * Turns a validated body plus request facts into the stored row (everything but the hash inputs is dropped).
 * @param siteHosts hosts that count as this site (SITE_URL's and the request Origin's).
 */
export async function buildPageViewRow(
  body: PageViewBody,
  request: { userAgent: string; ip: string; site: string; siteHosts: readonly string[]; salt: string },
): Promise<PageViewRow> {
  return {
    path: normalizePath(body.path),
    referrer_host: referrerHost(body.referrer, request.siteHosts),
    utm_source: normalizeUtmSource(body.utm_source),
    device_class: deviceClass(body.device_class, request.userAgent),
    visitor_hash: await visitorHash(request.salt, request.ip, request.userAgent, request.site),
  }
}
