/**
 * track-pageview: stores one cookie-free page view sent by the public site's beacon (src/components/AnalyticsBeacon.astro).
 * Public endpoint (verify_jwt = false in supabase/config.toml); the contract and the pure rules are in
 * ../_shared/page-view.ts.
 *
 * Privacy: the IP address and user agent are only hashed, together with a random salt that changes every UTC day
 * (public.analytics_salts, service_role only) and the site's host; the hash, the path, the referrer's host, the
 * utm_source and a device class are all that is stored. Bots (user-agent patterns) are answered but not stored.
 * A visitor hash with ANALYTICS_RATE_LIMIT_PER_MINUTE (default 30) views in the last minute gets 429, and so does
 * a client IP (the gateway's hop, which the client cannot write) with more than ANALYTICS_IP_RATE_LIMIT_PER_MINUTE
 * (default 120) views this minute, whatever User-Agents it sends (@shared/public-limits.ts).
 *
 * Environment: the platform variables (@shared/supabase.ts), SITE_URL and REPORT_REQUEST_HMAC_SECRET (required; the
 * key of the IP's hashed rate-limit key); ANALYTICS_RATE_LIMIT_PER_MINUTE and ANALYTICS_IP_RATE_LIMIT_PER_MINUTE
 * (optional, 1-100000).
 */
import { clientIp } from '@shared/client-ip.ts'
import { parseBody, serveFunction } from '@shared/http.ts'
import {
  limitFromEnv,
  PAGE_VIEW_IP_LIMIT_PER_MINUTE,
  PAGE_VIEW_IP_LIMIT_VARIABLE,
  PAGE_VIEW_VISITOR_LIMIT_PER_MINUTE,
  PAGE_VIEW_VISITOR_LIMIT_VARIABLE,
} from '@shared/public-limits.ts'
import { ipValue, rateLimitKey, rateLimitSecret } from '@shared/rate-limit.ts'
import { serviceClient } from '@shared/supabase.ts'
import { z } from 'zod'
import { buildPageViewRow, isBot, PageViewBodySchema } from '@shared/page-view.ts'

const siteUrl = z.url({ error: 'SITE_URL must be the site URL' }).parse(Deno.env.get('SITE_URL'))
const siteHost = new URL(siteUrl).host
const perVisitor = limitFromEnv(
  PAGE_VIEW_VISITOR_LIMIT_VARIABLE,
  Deno.env.get(PAGE_VIEW_VISITOR_LIMIT_VARIABLE),
  PAGE_VIEW_VISITOR_LIMIT_PER_MINUTE,
)
const perIp = limitFromEnv(
  PAGE_VIEW_IP_LIMIT_VARIABLE,
  Deno.env.get(PAGE_VIEW_IP_LIMIT_VARIABLE),
  PAGE_VIEW_IP_LIMIT_PER_MINUTE,
)
const hmacSecret = rateLimitSecret(Deno.env.get('REPORT_REQUEST_HMAC_SECRET'))

const supabase = serviceClient()

const SaltSchema = z.array(z.object({ day: z.string(), salt: z.string().regex(/^[0-9a-f]{64}$/) })).length(1)

/** Today's salt, cached per instance until the UTC date changes. */
let cachedSalt: { day: string; salt: string } | null = null

async function dailySalt(): Promise<string> {
  const today = new Date().toISOString().slice(0, 10)
  if (cachedSalt?.day === today) return cachedSalt.salt
  const { data, error } = await supabase.rpc('analytics_daily_salt')
  if (error) throw new Error(`analytics_daily_salt failed: ${error.message}`)
  const salts = SaltSchema.safeParse(data)
  if (!salts.success)
    throw new Error(`analytics_daily_salt returned an unexpected shape: ${z.prettifyError(salts.error)}`)
  const [row] = salts.data
  // The database decides the day; only cache a salt that belongs to the day this instance believes it is.
  if (row!.day === today) cachedSalt = row!
  return row!.salt
}

serveFunction({
  name: 'track-pageview',
  cors: 'public',
  // a path, a referrer and a source fit well within 4 KB
  maxBodyBytes: 4096,
  failureMessage: 'Page view could not be stored',
  invalidBodyMessage: 'Body must be a JSON object with a path',
  async handle({ request, body, json }) {
    const view = parseBody(PageViewBodySchema, body)

    const userAgent = request.headers.get('user-agent') ?? ''
    if (isBot(userAgent)) return json({ recorded: false, reason: 'bot' }, 200)

    const originHost = (() => {
      try {
        return new URL(request.headers.get('origin') ?? '').hostname
      } catch {
        return ''
      }
    })()
    const row = await buildPageViewRow(view, {
      userAgent,
      ip: clientIp(request.headers),
      site: siteHost,
      siteHosts: [new URL(siteUrl).hostname, originHost].filter(Boolean),
      salt: await dailySalt(),
    })
    // postgres-meta types SQL arguments as non-null; record_page_view stores NULL for "no referrer" / "no UTM source".
    const { data: stored, error } = await supabase.rpc('record_page_view', {
      ...row,
      referrer_host: row.referrer_host as string,
      utm_source: row.utm_source as string,
      max_per_minute: perVisitor,
      // the IP alone, so rotating the User-Agent (part of the visitor hash) opens no new bucket
      ip_key_hash: await rateLimitKey(hmacSecret, 'pageview-ip-minute', ipValue(request)),
      max_per_ip_per_minute: perIp,
    })
    if (error) throw new Error(`record_page_view failed: ${error.message}`)
    if (stored !== true) {
      return json(
        { error: `Too many page views: at most ${perVisitor} per minute per visitor and ${perIp} per network` },
        429,
        { 'Retry-After': '60' },
      )
    }
    return json({ recorded: true }, 201)
  },
})
