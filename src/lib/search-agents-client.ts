/**
 * The results page's calls to the search-agents function, and its first page asked for as early as the page allows.
 *
 * The page's own script calls `startFirstSearch(location.search)` as soon as the HTML is parsed, while React and the
 * island are still downloading; the island takes that request with `takeFirstSearch` when it hydrates instead of
 * sending its own. Before, the request left only once the island had hydrated, so the results (and the heading above
 * them, the page's largest paint) waited for the island's scripts and then for the answer, one after the other.
 */
import type { SearchAgentsError, SearchAgentsResponse } from '@shared/search-contract.ts'
import { callFunction } from './functions-client'
import {
  FUNCTION_FAILED_MESSAGE,
  NO_DATA_MESSAGE,
  SEARCH_PAGE_SIZE,
  parseSearchParams,
  searchRequestBody,
  searchResultsUrl,
  type SearchParams,
} from './search-results'

/** The search function refused the request (HTTP 400); `message` names what to correct. */
export class InvalidSearchError extends Error {}

/**
 * One page of results (SEARCH_PAGE_SIZE agents from `offset`).
 * @throws InvalidSearchError with the function's message for a 400; Error with the function's message (or 'Search
 * function failed') for any other error status, and 'No data returned from search function' for a 2xx without
 * data; TypeError when the request itself fails (offline).
 */
export async function searchAgents(
  params: SearchParams,
  offset: number,
  signal?: AbortSignal,
): Promise<SearchAgentsResponse> {
  const response = await callFunction<SearchAgentsResponse | SearchAgentsError>(
    'search-agents',
    searchRequestBody(params, SEARCH_PAGE_SIZE, offset),
    signal,
  )
  const body = response.body
  if (!response.ok) {
    const message = body && 'error' in body && body.error ? body.error : FUNCTION_FAILED_MESSAGE
    throw response.status === 400 ? new InvalidSearchError(message) : new Error(message)
  }
  if (!body || !('agents' in body)) throw new Error(NO_DATA_MESSAGE)
  return body
}

/** The first page asked for by the page's script, keyed by its results URL; taken (once) by the island. */
let first: { key: string; page: Promise<SearchAgentsResponse> } | undefined

/**
 * Asks for the first page of the search in `search` (a location.search string) now. Nothing for an empty query (the
 * page shows its empty view without searching). A failure is kept for the island to show when it takes the answer.
 */
export function startFirstSearch(search: string): void {
  const params = parseSearchParams(search)
  if (params.q === '') return
  const page = searchAgents(params, 0)
  // handled by whoever takes it; until then, not an unhandled rejection
  page.catch(() => undefined)
  first = { key: searchResultsUrl(params), page }
}

/**
 * The first page started by `startFirstSearch` when it is the page of `params` (same results URL), else undefined.
 * A request is handed out once: a later search for the same URL (Back, a retry) asks the function again.
 */
export function takeFirstSearch(params: SearchParams): Promise<SearchAgentsResponse> | undefined {
  if (!first || first.key !== searchResultsUrl(params)) return undefined
  const { page } = first
  first = undefined
  return page
}
