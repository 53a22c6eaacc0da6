/**
 * The public site's URL paths, built in one place for the site, the admin, the functions (emails, sitemaps) and the
 * tests. Every path segment is percent-encoded, so a slug or id can never break out of its segment.
 * Import-free (types only) so Node, Vite and Deno all load it.
 */
import type { SearchType } from './search-contract.ts'

const segment = (value: string) => encodeURIComponent(value)

/** `/blog/<slug>`: a blog article. */
export function postUrl(slug: string): string {
  return `/blog/${segment(slug)}`
}

/** `/blog/category/<slug>`: a blog category's list of articles. */
export function categoryUrl(slug: string): string {
  return `/blog/category/${segment(slug)}`
}

/**
 * Whether `value` is a uuid as PostgreSQL's uuid type writes it (8-4-4-4-12 hex digits, any case). Checked before a
 * URL's id is sent to the database, so a bad link is "not found" rather than a 22P02 error.
 */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
}

/** `/agent/<id>`: an agent's profile (id is the agents.id uuid). */
export function agentUrl(id: string): string {
  return `/agent/${segment(id)}`
}

/** `/methodology`: how every agent figure is computed (formulas, window, exclusions, crediting, version). */
export const METHODOLOGY_PATH = '/methodology'

/**
 * `/figure-sales?agent=<id>&figure=<metric>`: "the sales behind this figure", the exact sales one figure of an agent
 * is computed from, its formula in words and a CSV download. `metric` is a column of public.agent_figures
 * (FIGURE_METRICS of methodology.ts).
 */
export function figureSalesUrl(agentId: string, metric: string): string {
  return `/figure-sales?agent=${encodeURIComponent(agentId)}&figure=${encodeURIComponent(metric)}`
}

/** `/agents/<zip>`: the ranked agents of a five-digit US ZIP code. */
export function zipUrl(zip: string): string {
  return `/agents/${segment(zip)}`
}

/**
 * `/agents/<state>/<city>`: the ranked agents of a city. `state` is the two-letter code (lower-cased here), `citySlug`
 * the city name through slugify() of slug.ts (e.g. 'Austin' -> 'austin', 'St. Louis' -> 'st-louis').
 */
export function cityUrl(state: string, citySlug: string): string {
  return `/agents/${segment(state.toLowerCase())}/${segment(citySlug)}`
}

/** The most agents /compare shows side by side. */
export const COMPARE_MAX_AGENTS = 4

/** `/compare?agents=<id1>,<id2>`: agents side by side (ids are agents.id uuids, order kept). */
export function compareUrl(ids: readonly string[]): string {
  return `/compare?agents=${ids.map(segment).join(',')}`
}

/** `/search-results?q=<trimmed, encoded text>&type=<agent|zipcode|address>`: the results page for a search. */
export function searchUrl(query: string, type: SearchType): string {
  return `/search-results?q=${encodeURIComponent(query.trim())}&type=${type}`
}

/** An absolute URL for a site path (canonical URLs, feeds, sitemaps, emails); `site` is the site's origin. */
export function absoluteUrl(path: string, site: string | URL): string {
  return new URL(path, site).href
}
