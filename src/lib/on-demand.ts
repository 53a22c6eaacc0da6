/**
 * HTTP caching of the pages rendered on demand (agent, ZIP and city pages the build did not prerender), as the static host's CDN
 * reads it (RFC 9111): browsers revalidate every time (`max-age=0`), the CDN keeps a page for a day (`s-maxage`) and
 * may serve a stale copy for a minute while it fetches a fresh one; an unknown agent's 404 is kept a minute. The host
 * drops every kept copy when a new deploy goes live (every data change triggers one), and `Cache-Tag` names the agent
 * for a targeted purge (Cloudflare and Netlify both read the header).
 */

/** Seconds the CDN keeps a rendered agent page. */
export const ON_DEMAND_PAGE_SECONDS = 86_400
/** Seconds the CDN keeps the 404 of an id that is no agent (an import may add the agent). */
export const ON_DEMAND_NOT_FOUND_SECONDS = 60

/** The Cache-Control of an on-demand answer. */
export function onDemandCacheControl(answer: 'page' | 'not found'): string {
  const seconds = answer === 'page' ? ON_DEMAND_PAGE_SECONDS : ON_DEMAND_NOT_FOUND_SECONDS
  return `public, max-age=0, s-maxage=${seconds}, stale-while-revalidate=60`
}

/** The cache tag of an agent's page: `agent-<uuid>`. */
export const agentCacheTag = (agentId: string): string => `agent-${agentId}`

/** The cache tag of a ZIP or city page, from its path's segments after /agents/: `area-<zip>` or `area-<state>-<city>`. */
export const areaCacheTag = (segments: readonly string[]): string => `area-${segments.join('-')}`

/**
 * Sets the status and caching headers of an on-demand answer on `response` (Astro.response): 'unavailable' is 503
 * with `Retry-After: 60` and not cached; 'not found' is 404 kept a minute; 'page' is 200 kept a day under `cacheTag`.
 */
export function setOnDemandAnswer(
  response: { status?: number; readonly headers: Headers },
  answer: 'page' | 'not found' | 'unavailable',
  cacheTag?: string,
): void {
  if (answer === 'unavailable') {
    response.status = 503
    response.headers.set('Retry-After', '60')
    response.headers.set('Cache-Control', 'no-store')
    return
  }
  if (answer === 'not found') response.status = 404
  response.headers.set('Cache-Control', onDemandCacheControl(answer))
  if (answer === 'page' && cacheTag) response.headers.set('Cache-Tag', cacheTag)
}
