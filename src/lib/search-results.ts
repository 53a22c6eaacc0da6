/**
 * Pure rules of the /search-results page: reading the URL, the page title, the result count line and the ranking
 * badge. Kept out of the island so they are unit-tested without a browser.
 * Plain code, no zod: the results page is where visitors land from every search, and zod's core alone would add
 * about 14 KiB gzip to it for two URL parameters (the JS budgets in budgets.json).
 */
import type { SearchLocation, SearchSide, SearchSort, SearchType } from '@shared/search-contract.ts'

/** Results per request; "Load more" asks for the next page of the same size. */
export const SEARCH_PAGE_SIZE = 12

const SEARCH_TYPES: readonly SearchType[] = ['agent', 'zipcode', 'address']

/** The orders of a ZIP or address search, with the words of the sort menu; the first is the default. */
export const SEARCH_SORT_OPTIONS: readonly [SearchSort, string][] = [
  ['sides', 'Most sides (listing and buyer)'],
  ['listing_sales', 'Most listing sales'],
  ['buyer_sales', 'Most buyer sales'],
  ['volume', 'Highest volume'],
  ['sale_to_list', 'Highest sale-to-list'],
]

/** Which side of a sale counts, with the words of the filter; the first is the default. */
export const SEARCH_SIDE_OPTIONS: readonly [SearchSide, string][] = [
  ['any', 'Both sides'],
  ['listing', 'Listing side only'],
  ['buyer', 'Buyer side only'],
]

/** The price bands of the filter (sale price, USD, ends included; null = open end). */
export const PRICE_BANDS: readonly { min: number | null; max: number | null; label: string }[] = [
  { min: null, max: 299_999, label: 'Under $300K' },
  { min: 300_000, max: 499_999, label: '$300K to $500K' },
  { min: 500_000, max: 749_999, label: '$500K to $750K' },
  { min: 750_000, max: 999_999, label: '$750K to $1M' },
  { min: 1_000_000, max: null, label: '$1M and up' },
]

export interface SearchParams {
  /** Trimmed query; '' means "nothing to search for" (the page shows the empty state without loading). */
  q: string
  type: SearchType
  /** ZIP and address searches only: the order (default 'sides'). */
  sort?: SearchSort
  /** ZIP and address searches only: count only this side. */
  side?: SearchSide
  /** ZIP and address searches only: the sale price band, USD, ends included. */
  minPrice?: number
  maxPrice?: number
  /** ZIP and address searches only: count only sales of this PropertyType. */
  propertyType?: string
}

const SEARCH_SORTS = SEARCH_SORT_OPTIONS.map(([sort]) => sort)
const SEARCH_SIDES = SEARCH_SIDE_OPTIONS.map(([side]) => side)

/** A whole number of dollars from the URL, or undefined for anything else. */
function price(value: string | null): number | undefined {
  if (value === null || !/^\d{1,9}$/.test(value.trim())) return undefined
  return Number(value)
}

/**
 * Reads `?q=..&type=..[&sort=..&side=..&minPrice=..&maxPrice=..&propertyType=..]`; a missing or unknown type means an
 * agent-name search. The sort and filters are read for ZIP and address searches only (a name search has none); an
 * unknown sort or side and a price that is not a whole number of dollars are left out, the defaults are not kept.
 */
export function parseSearchParams(search: string): SearchParams {
  const params = new URLSearchParams(search)
  const type = SEARCH_TYPES.find((known) => known === params.get('type')) ?? 'agent'
  const parsed: SearchParams = { q: (params.get('q') ?? '').trim(), type }
  if (type === 'agent') return parsed
  const sort = SEARCH_SORTS.find((known) => known === params.get('sort'))
  if (sort && sort !== 'sides') parsed.sort = sort
  const side = SEARCH_SIDES.find((known) => known === params.get('side'))
  if (side && side !== 'any') parsed.side = side
  const minPrice = price(params.get('minPrice'))
  if (minPrice !== undefined) parsed.minPrice = minPrice
  const maxPrice = price(params.get('maxPrice'))
  if (maxPrice !== undefined) parsed.maxPrice = maxPrice
  const propertyType = (params.get('propertyType') ?? '').trim().slice(0, 100)
  if (propertyType) parsed.propertyType = propertyType
  return parsed
}

/** The results URL of `params` (what parseSearchParams reads back), defaults left out. */
export function searchResultsUrl(params: SearchParams): string {
  const query = new URLSearchParams({ q: params.q, type: params.type })
  if (params.type !== 'agent') {
    if (params.sort && params.sort !== 'sides') query.set('sort', params.sort)
    if (params.side && params.side !== 'any') query.set('side', params.side)
    if (params.minPrice !== undefined) query.set('minPrice', String(params.minPrice))
    if (params.maxPrice !== undefined) query.set('maxPrice', String(params.maxPrice))
    if (params.propertyType) query.set('propertyType', params.propertyType)
  }
  return `/search-results?${query.toString().replace(/\+/g, '%20')}`
}

/** Whether a search narrows what counts (side, price band or property type). */
export function hasFilters(params: SearchParams): boolean {
  return (
    params.side !== undefined ||
    params.minPrice !== undefined ||
    params.maxPrice !== undefined ||
    params.propertyType !== undefined
  )
}

/** The request body of one page of `params` (the sort and filters go only with ZIP and address searches). */
export function searchRequestBody(params: SearchParams, limit: number, offset: number): Record<string, unknown> {
  const { q, type, ...areaOptions } = params
  return { query: q, type, limit, offset, ...(type === 'agent' ? {} : areaOptions) }
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
 * The local ranking badge from an agent's rank in their primary ZIP (agent_figures.zip_rank among zip_agents, by
 * sides): N = round(rank / agents ranked there * 100), at least 1, shown as "Top N%" with colour bands 10 % or less green, 25 or less blue,
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
