/**
 * The search query rules of the `search-agents` function (contract: ./search-contract.ts) without zod, so the hero
 * search island can check a query before leaving the page with the function's own messages and without shipping a
 * validation library. ./search-request.ts builds the function's schema from these same constants and messages.
 */
import type { SearchType } from './search-contract.ts'

/** Longest query, in characters after trimming. */
export const SEARCH_QUERY_MAX_LENGTH = 200

/** US ZIP code: 5 digits, optionally ZIP+4 (USPS Publication 28). */
export const ZIP_CODE_PATTERN = /^\d{5}(-\d{4})?$/

export const EMPTY_QUERY_MESSAGE = 'Enter a name, ZIP code or address to search for.'
export const QUERY_TOO_LONG_MESSAGE = `Your search is too long: use at most ${SEARCH_QUERY_MAX_LENGTH} characters.`
export const BAD_ZIP_CODE_MESSAGE = 'Enter a 5-digit ZIP code, for example 02139.'

/**
 * The first problem with a query (checked after trimming), as the visitor-facing message the function would answer
 * with HTTP 400, or null when the function accepts it.
 */
export function searchQueryProblem(query: string, type: SearchType): string | null {
  const trimmed = query.trim()
  if (trimmed === '') return EMPTY_QUERY_MESSAGE
  if (trimmed.length > SEARCH_QUERY_MAX_LENGTH) return QUERY_TOO_LONG_MESSAGE
  if (type === 'zipcode' && !ZIP_CODE_PATTERN.test(trimmed)) return BAD_ZIP_CODE_MESSAGE
  return null
}
