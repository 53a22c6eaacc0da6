/**
 * Pure rules of the /search-results page: reading the URL, the page title, the result count line and the ranking
 * badge. Kept out of the island so they are unit-tested without a browser.
 * Uses `zod/mini` (tree-shaken, about 2 KiB) rather than `zod` (about 23 KiB gzip) so the results page does not
 * ship the full library: it is the page visitors land on from every search.
 */
import * as z from 'zod/mini'

import type { SearchLocation, SearchType } from '@shared/search-contract.ts'

/** Results per request; "Load more" asks for the next page of the same size. */
export const SEARCH_PAGE_SIZE = 12

const SearchParamsSchema = z.object({
  q: z.catch(z.pipe(z.string(), z.transform((value) => value.trim())), ''),
  type: z.catch(z.enum(['agent', 'zipcode', 'address']), 'agent'),
})

export interface SearchParams {
  /** Trimmed query; '' means "nothing to search for" (the page shows the empty state without loading). */
  q: string
  type: SearchType
}

/** Reads `?q=..&type=..`; a missing or unknown type means an agent-name search. */
export function parseSearchParams(search: string): SearchParams {
  const params = new URLSearchParams(search)
  return SearchParamsSchema.parse({ q: params.get('q') ?? '', type: params.get('type') ?? undefined })
}

/** The heading for a search: 'Agents matching "{q}"', 'Top Agents in {zip}' or 'Agents near {address}'. */
export function searchTitle({ q, type }: SearchParams): string {
  if (type === 'zipcode') return `Top Agents in ${q}`
  if (type === 'address') return `Agents near ${q}`
  return `Agents matching "${q}"`
}

/** "1 agent found" / "12 agents found", plus " in {city}, {state}" when the search resolved to a place. */
export function resultCountText(total: number, location: SearchLocation | null): string {
  const count = `${total} ${total === 1 ? 'agent' : 'agents'} found`
  const place = [location?.city, location?.state].filter(Boolean).join(', ')
  return place ? `${count} in ${place}` : count
}

export type BadgeTone = 'green' | 'blue' | 'gray'

export interface RankingBadge {
  /** "Top 5%" */
  label: string
  tone: BadgeTone
}

/**
 * The "Top N%" badge from an agent's rank in their primary ZIP: N = ceil(local_ranking / total_agents_in_area * 100),
 * at least 1; below the top half (N > 50) the label is "Ranked #n of N" instead. Colour bands: top 10 % or better green, top 25 % or better blue, everyone else gray.
 * Null when the agent has no ranking (fewer than 5 sales; the card then shows no badge).
 */
export function rankingBadge(localRanking: number | null, totalAgentsInArea: number | null): RankingBadge | null {
  if (!localRanking || !totalAgentsInArea || localRanking < 1 || totalAgentsInArea < 1) return null
  const percent = Math.max(1, Math.ceil((localRanking / totalAgentsInArea) * 100))
  const tone: BadgeTone = percent <= 10 ? 'green' : percent <= 25 ? 'blue' : 'gray'
  // "Top 100%" would read as praise for the last-ranked agent: below the top half the badge states the rank
  if (percent > 50) return { label: `Ranked #${localRanking} of ${totalAgentsInArea}`, tone }
  return { label: `Top ${percent}%`, tone }
}

/** The first two service areas and how many more there are: (["02139","02140","02141"]) → {shown: [...2], more: 1}. */
export function serviceAreaSummary(areas: readonly string[]): { shown: string[]; more: number } {
  return { shown: areas.slice(0, 2), more: Math.max(0, areas.length - 2) }
}
