/**
 * The build-cache keys (Astro's `cacheKey` in getStaticPaths) of the data-driven pages: a page is rendered again
 * exactly when its key differs from the one its cached copy was rendered with. The keys are the versions of the page
 * data that the page-version tables hold (public.agent_page_versions, public.zip_page_versions; a new template
 * renders every page anyway). Also used by the local builder's patch (scripts/lib/site-patch.ts), which records the
 * pages it re-rendered under these keys so the next static build reuses them. No imports: it runs in the build, the
 * worker and Node scripts alike.
 */

/** The build-cache key of an agent page: its data's version. */
export const agentPageCacheKey = (page: { version: number }): string => `agent:${page.version}`

/** The build-cache key of a ZIP page: its data's version. */
export const zipPageCacheKey = (page: { version: number }): string => `zip:${page.version}`

/** The build-cache key of a city page: SHA-256 (hex) of its name and its ZIP pages' versions. */
export async function cityPageCacheKey(page: {
  state: string
  city: string
  zips: readonly { zip: string; version: number }[]
}): Promise<string> {
  const text = JSON.stringify([page.state, page.city, page.zips.map((zip) => [zip.zip, zip.version])])
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return `city:${[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`
}
