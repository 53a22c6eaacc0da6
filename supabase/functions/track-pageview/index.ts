/**
 * track-pageview: stores one cookie-free page view sent by the public site's beacon (src/components/AnalyticsBeacon.astro).
 * Public endpoint (verify_jwt = false in supabase/config.toml); the contract and the pure rules are in
 * ../_shared/page-view.ts.
 *
 * Privacy: the IP address and user agent are only hashed, together with a random salt that changes every UTC day
 * (public.analytics_salts, service_role only) and the site's host; the hash, the path, the referrer's host, the
 * utm_source and a device class are all that is stored. Bots (user-agent patterns) are answered but not stored.
 * A visitor hash with ANALYTICS_RATE_LIMIT_PER_MINUTE (default 30) views in the last minute gets 429.
 *
 * Environment: the platform variables (@shared/supabase.ts), SITE_URL (required); ANALYTICS_RATE_LIMIT_PER_MINUTE
 * (optional, 1-1000).
 */
import { clientIp } from '@shared/client-ip.ts'
import { parseBody, serveFunction } from '@shared/http.ts'
import { serviceClient } from '@shared/supabase.ts'
import { z } from 'zod'
import { buildPageViewRow, isBot, PageViewBodySchema } from '@shared/page-view.ts'

const EnvSchema = z.object({
  SITE_URL: z.url(),
  ANALYTICS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(30),
})

const parsedEnv = EnvSchema.safeParse({
  SITE_URL: Deno.env.get('SITE_URL'),
  ANALYTICS_RATE_LIMIT_PER_MINUTE: Deno.env.get('ANALYTICS_RATE_LIMIT_PER_MINUTE') || undefined,
})
if (!parsedEnv.success) {
  throw new Error(
    `track-pageview: invalid environment: ${parsedEnv.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
  )
}
const env = parsedEnv.data
const siteHost = new URL(env.SITE_URL).host

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
      siteHosts: [new URL(env.SITE_URL).hostname, originHost].filter(Boolean),
      salt: await dailySalt(),
    })
    // postgres-meta types SQL arguments as non-null; record_page_view stores NULL for "no referrer" / "no UTM source".
    const { data: stored, error } = await supabase.rpc('record_page_view', {
      ...row,
      referrer_host: row.referrer_host as string,
      utm_source: row.utm_source as string,
      max_per_minute: env.ANALYTICS_RATE_LIMIT_PER_MINUTE,
    })
    if (error) throw new Error(`record_page_view failed: ${error.message}`)
    if (stored !== true) {
      return json(
        { error: `Too many page views: at most ${env.ANALYTICS_RATE_LIMIT_PER_MINUTE} per minute per visitor` },
        429,
        { 'Retry-After': '60' },
      )
    }
    return json({ recorded: true }, 201)
  },
})
