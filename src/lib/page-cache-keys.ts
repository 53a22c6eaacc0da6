/**
 * The build-cache keys (Astro's `cacheKey` in getStaticPaths) of the data-driven pages: a page is rendered again
 * exactly when its key differs from the one its cached copy was rendered with. The keys are the versions of the page
 * data that the page-version tables hold (public.agent_page_versions, public.zip_page_versions; a new template
 * renders every page anyway). Also used by the local builder's patch (scripts/lib/site-patch.ts), which records the
 * pages it re-rendered under these keys so the next static build reuses them. It imports only the import-free slug
 * rule: it runs in the build, the worker and Node scripts alike.
 */
import { slugify } from '@shared/slug.ts'

/**
 * A ZIP page: the ZIP, its place (for the city pages), the version of its data and when it changed (ISO timestamp),
 * and the version of what it gives its city page with when that changed. The two move together when the ZIP's ranking
 * or place changes; a printed figure of an agent moves the version where the ZIP page prints the agent and the city
 * version where the city page does (a city page ranks across its ZIPs: it can print an agent its ZIP pages do not,
 * and the other way round).
 */
export interface ZipPageRef {
  zip: string
  city: string | null
  state: string | null
  version: number
  changedAt: string
  cityVersion: number
  cityChangedAt: string
}

/** A city page: its ZIP pages grouped by (state, city slug). */
export interface CityPageRef {
  state: string
  city: string
  /** State, lower-case, and city slug: the URL /agents/<stateSlug>/<citySlug>. */
  stateSlug: string
  citySlug: string
  zips: ZipPageRef[]
}

/** The zip_page_versions columns a ZIP page ref is made of (the select list of every read of them). */
export const ZIP_PAGE_COLUMNS = 'zip_code, city, state, version, changed_at, city_version, city_changed_at'

/** A zip_page_versions row as a ZIP page ref. */
export function zipPageRef(row: {
  zip_code: string
  city: string | null
  state: string | null
  version: number
  changed_at: string
  city_version: number
  city_changed_at: string
}): ZipPageRef {
  return {
    zip: row.zip_code,
    city: row.city,
    state: row.state,
    version: row.version,
    changedAt: row.changed_at,
    cityVersion: row.city_version,
    cityChangedAt: row.city_changed_at,
  }
}

/**
 * City pages from ZIP pages (pure): one per (state, city slug), so spellings that slug alike ("San Tan Valley",
 * "San Tan valley") share a page, named as its first ZIP spells it. ZIPs without a city and state have none. The
 * ZIPs keep the order they come in (the build lists them by ZIP code), which the city page's key depends on.
 */
export function groupCities(zips: readonly ZipPageRef[]): CityPageRef[] {
  const groups = new Map<string, CityPageRef>()
  for (const zip of zips) {
    if (!zip.city || !zip.state) continue
    const stateSlug = zip.state.toLowerCase()
    const citySlug = slugify(zip.city)
    if (!citySlug) continue
    const key = `${stateSlug}/${citySlug}`
    const group = groups.get(key)
    if (group) group.zips.push(zip)
    else groups.set(key, { state: zip.state, city: zip.city, stateSlug, citySlug, zips: [zip] })
  }
  return [...groups.values()].sort(
    (a, b) => a.stateSlug.localeCompare(b.stateSlug) || a.citySlug.localeCompare(b.citySlug),
  )
}

/** The build-cache key of an agent page: its data's version. */
export const agentPageCacheKey = (page: { version: number }): string => `agent:${page.version}`

/** The build-cache key of a ZIP page: its data's version. */
export const zipPageCacheKey = (page: { version: number }): string => `zip:${page.version}`

/**
 * The build-cache key of a city page: SHA-256 (hex) of its name and its ZIPs' city versions (not the ZIP pages' own
 * versions: a city page ranks across its ZIPs, so it can print an agent that none of its ZIP pages prints).
 */
export async function cityPageCacheKey(page: {
  state: string
  city: string
  zips: readonly { zip: string; cityVersion: number }[]
}): Promise<string> {
  const text = JSON.stringify([page.state, page.city, page.zips.map((zip) => [zip.zip, zip.cityVersion])])
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return `city:${[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`
}
