/**
 * Pure rules of the /search-results page: reading the URL, the page title, the result count line and the ranking
 * badge. Kept out of the island so they are unit-tested without a browser.
 * Plain code, no zod: the results page is where visitors land from every search, and zod's core alone would add
 * about 14 KiB gzip to it for two URL parameters (the JS budgets in budgets.json).
 */
import type { SearchLocation, SearchType } from '@shared/search-contract.ts'

/** Results per request; "Load more" asks for the next page of the same size. */
export const SEARCH_PAGE_SIZE = 12

const SEARCH_TYPES: readonly SearchType[] = ['agent', 'zipcode', 'address']

export interface SearchParams {
  /** Trimmed query; '' means "nothing to search for" (the page shows the empty state without loading). */
  q: string
  type: SearchType
}

/** Reads `?q=..&type=..`; a missing or unknown type means an agent-name search. */
export function parseSearchParams(search: string): SearchParams {
  const params = new URLSearchParams(search)
  const type = params.get('type')
  return {
    q: (params.get('q') ?? '').trim(),
    type: SEARCH_TYPES.find((known) => known === type) ?? 'agent',
  }
}

/** The heading for a search: 'Agents matching "{q}"', 'Top agents in {zip}' or 'Agents near {address}'. */
export function searchTitle({ q, type }: SearchParams): string {
  if (type === 'zipcode') return `Top agents in ${q}`
  if (type === 'address') return `Agents near ${q}`
  return `Agents matching "${q}"`
}

/** "1 agent found" / "12 agents found", plus " in {city}, {state}" when the search resolved to a place. */
export function resultCountText(total: number, location: SearchLocation | null): string {
  const count = `${total} ${total === 1 ? 'agent' : 'agents'} found`
  const place = [location?.city, location?.state].filter(Boolean).join(', ')
  return place ? `${count} in ${place}` : count
}

export type BadgeTone = 'green' | 'blue' | 'yellow' | 'gray'

export interface RankingBadge {
  /** "Top 5%" for the top half; "Ranked #31 of 40" below it, where "Top 78%" would read as praise. */
  label: string
  tone: BadgeTone
}

/** Empty results text. */
export function noResultsText(q: string): string {
  return `We couldn't find any agents matching "${q}". Try adjusting your search.`
}

/** Raised when the function answers 200 without a body. */
export const NO_DATA_MESSAGE = 'No data returned from search function'
/** A function error without a message of its own. */
export const FUNCTION_FAILED_MESSAGE = 'Search function failed'

/**
 * The local ranking badge from an agent's rank in their primary ZIP: N = round(local_ranking /
 * total_agents_in_area * 100), at least 1, shown as "Top N%" with colour bands 10 % or less green, 25 or less blue,
 * 50 or less yellow. Below the top half the badge reads "Ranked #n of N" in gray instead ("Top 100%" for
 * the last agent would read as praise). Null when the agent has no ranking (fewer than 5 sales; the card then shows none).
 */
export function rankingBadge(localRanking: number | null, totalAgentsInArea: number | null): RankingBadge | null {
  if (!localRanking || !totalAgentsInArea || localRanking < 1 || totalAgentsInArea < 1) return null
  const percent = Math.max(1, Math.round((localRanking / totalAgentsInArea) * 100))
  if (percent > 50) return { label: `Ranked #${localRanking} of ${totalAgentsInArea}`, tone: 'gray' }
  const tone: BadgeTone = percent <= 10 ? 'green' : percent <= 25 ? 'blue' : 'yellow'
  return { label: `Top ${percent}%`, tone }
}

/** The first two service areas and how many more there are: (["02139","02140","02141"]) → {shown: [...2], more: 1}. */
export function serviceAreaSummary(areas: readonly string[]): { shown: string[]; more: number } {
  return { shown: areas.slice(0, 2), more: Math.max(0, areas.length - 2) }
}
