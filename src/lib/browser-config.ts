/**
 * The project's public API address and anon key as island code sees them, without loading zod in the browser.
 *
 * Vite inlines both PUBLIC_ values into the bundles at build time. They are validated (zod, @shared/public-env.ts)
 * at build time by ./env.ts, which BaseLayout imports on every page: a build with a missing or invalid value fails
 * before any page ships, so here they only need reading. The zod core alone is about 14 KiB gzip, as much as
 * every other script of the results page together (the JS budgets in budgets.json).
 */

/** Base URL of the Supabase project (no trailing slash) and the anon key; both validated at build time. */
export interface BrowserConfig {
  /** e.g. `https://<ref>.supabase.co`; /functions/v1 and /rest/v1 hang off it. */
  apiUrl: string
  anonKey: string
}

let config: BrowserConfig | undefined

/**
 * Reads the inlined values once.
 * @throws Error naming the variable when one is empty: only possible when an island is built outside the site build.
 */
export function browserConfig(): BrowserConfig {
  if (config) return config
  const apiUrl = (import.meta.env.PUBLIC_SUPABASE_URL ?? '').trim().replace(/\/+$/, '')
  const anonKey = (import.meta.env.PUBLIC_SUPABASE_ANON_KEY ?? '').trim()
  if (!apiUrl)
    throw new Error(
      'Invalid environment: PUBLIC_SUPABASE_URL is not set. Set it in .env or in the environment of the build.',
    )
  if (!anonKey)
    throw new Error(
      'Invalid environment: PUBLIC_SUPABASE_ANON_KEY is not set. Set it in .env or in the environment of the build.',
    )
  config = { apiUrl, anonKey }
  return config
}

/** The headers PostgREST and the edge functions expect from an anonymous visitor. */
export function anonHeaders(): Record<string, string> {
  const { anonKey } = browserConfig()
  return { apikey: anonKey, Authorization: `Bearer ${anonKey}` }
}
