/**
 * Pure request/response rules of the `search-agents` edge function (contract: ./search-contract.ts): body
 * validation with visitor-facing messages, the shape check of the SQL answer and what is logged to
 * public.search_queries. No Deno APIs, so vitest unit-tests it in Node.
 */
import { z } from 'zod'

import type {
  AgentSearchResult,
  SearchAgentsRequest,
  SearchAgentsResponse,
  SearchLocation,
  SearchSide,
  SearchSort,
  SearchType,
} from './search-contract.ts'
import {
  BAD_ZIP_CODE_MESSAGE,
  EMPTY_QUERY_MESSAGE,
  QUERY_TOO_LONG_MESSAGE,
  SEARCH_QUERY_MAX_LENGTH,
  ZIP_CODE_PATTERN,
} from './search-query-rules.ts'

export { SEARCH_QUERY_MAX_LENGTH }
/** Largest page (search-contract.ts). */
export const SEARCH_LIMIT_MAX = 50
export const SEARCH_LIMIT_DEFAULT = 20
/** Deepest page start; deeper paging is refused so a request cannot make the database rank endlessly. */
export const SEARCH_OFFSET_MAX = 10_000

export const SEARCH_TYPES = ['agent', 'zipcode', 'address'] as const satisfies readonly SearchType[]
export const SEARCH_SORTS = [
  'sides',
  'listing_sales',
  'buyer_sales',
  'volume',
  'sale_to_list',
] as const satisfies readonly SearchSort[]
export const SEARCH_SIDES = ['any', 'listing', 'buyer'] as const satisfies readonly SearchSide[]
/** Highest price a band may name, USD (the importer's plausible maximum). */
export const SEARCH_PRICE_MAX = 500_000_000

export const AREA_ONLY_MESSAGE = 'Sorting and filters apply to ZIP code and address searches.'
export const PRICE_BAND_MESSAGE = 'The lowest price must not be above the highest price.'

/** The generic answer to anything unexpected (the real cause is logged server-side). */
export const SEARCH_FAILED_MESSAGE = 'Search function failed'
export const NOT_JSON_MESSAGE =
  'The request body must be a JSON object: {"query": "...", "type": "agent" | "zipcode" | "address"}.'

const wholeNumber = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a whole number from ${min} to ${max}.` })
    .int(`${field} must be a whole number from ${min} to ${max}.`)
    .min(min, `${field} must be a whole number from ${min} to ${max}.`)
    .max(max, `${field} must be a whole number from ${min} to ${max}.`)

/** The request body; messages are shown to the visitor as they are. */
export const SearchAgentsRequestSchema = z
  .object({
    query: z
      .string({ error: EMPTY_QUERY_MESSAGE })
      .trim()
      .min(1, EMPTY_QUERY_MESSAGE)
      .max(SEARCH_QUERY_MAX_LENGTH, QUERY_TOO_LONG_MESSAGE),
    type: z
      .enum(SEARCH_TYPES, { error: 'The search type must be agent, zipcode or address.' })
      .nullish()
      .transform((type) => type ?? 'agent'),
    limit: wholeNumber('limit', 1, SEARCH_LIMIT_MAX)
      .nullish()
      .transform((limit) => limit ?? SEARCH_LIMIT_DEFAULT),
    offset: wholeNumber('offset', 0, SEARCH_OFFSET_MAX)
      .nullish()
      .transform((offset) => offset ?? 0),
    sort: z
      .enum(SEARCH_SORTS, { error: 'Sort by sides, listing_sales, buyer_sales, volume or sale_to_list.' })
      .nullish()
      .transform((sort) => sort ?? undefined),
    side: z
      .enum(SEARCH_SIDES, { error: 'side must be any, listing or buyer.' })
      .nullish()
      .transform((side) => side ?? undefined),
    minPrice: wholeNumber('minPrice', 0, SEARCH_PRICE_MAX)
      .nullish()
      .transform((price) => price ?? undefined),
    maxPrice: wholeNumber('maxPrice', 0, SEARCH_PRICE_MAX)
      .nullish()
      .transform((price) => price ?? undefined),
    propertyType: z
      .string({ error: 'propertyType must be text.' })
      .trim()
      .min(1, 'propertyType must not be empty.')
      .max(100, 'propertyType must be at most 100 characters.')
      .nullish()
      .transform((type) => type ?? undefined),
  })
  .superRefine((body, context) => {
    if (body.type === 'zipcode' && !ZIP_CODE_PATTERN.test(body.query)) {
      context.addIssue({ code: 'custom', path: ['query'], message: BAD_ZIP_CODE_MESSAGE })
    }
    const areaOnly = (['sort', 'side', 'minPrice', 'maxPrice', 'propertyType'] as const).find(
      (field) => body[field] !== undefined,
    )
    if (body.type === 'agent' && areaOnly) {
      context.addIssue({ code: 'custom', path: [areaOnly], message: AREA_ONLY_MESSAGE })
    }
    if (body.minPrice !== undefined && body.maxPrice !== undefined && body.minPrice > body.maxPrice) {
      context.addIssue({ code: 'custom', path: ['minPrice'], message: PRICE_BAND_MESSAGE })
    }
  })

export type SearchAgentsInput = Required<Pick<SearchAgentsRequest, 'query' | 'type' | 'limit' | 'offset'>> &
  Pick<SearchAgentsRequest, 'sort' | 'side' | 'minPrice' | 'maxPrice' | 'propertyType'>

/**
 * The sort and filters of a ZIP or address search as public.search_agents() takes them (area_options), or null when
 * the search has none.
 */
export function searchAreaOptions(input: SearchAgentsInput): Record<string, string | number> | null {
  const options: Record<string, string | number> = {}
  if (input.sort !== undefined) options.sort = input.sort
  if (input.side !== undefined) options.side = input.side
  if (input.minPrice !== undefined) options.min_price = input.minPrice
  if (input.maxPrice !== undefined) options.max_price = input.maxPrice
  if (input.propertyType !== undefined) options.property_type = input.propertyType
  return Object.keys(options).length === 0 ? null : options
}

const nullableNumber = z.number().nullable()
const nullableText = z.string().nullable()

/** What public.search_agents() returns; checked so a schema drift becomes a logged 500, not a broken page. */
export const SearchSqlResultSchema = z.object({
  agents: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      email: nullableText,
      phone: nullableText,
      photo_url: nullableText,
      brokerage: nullableText,
      license_number: nullableText,
      years_experience: nullableNumber,
      rating: nullableNumber,
      review_count: z.number(),
      total_sales: z.number(),
      average_sale_to_list_ratio: nullableNumber,
      average_days_on_market: nullableNumber,
      price_range_min: nullableNumber,
      price_range_max: nullableNumber,
      market_share: nullableNumber,
      local_ranking: nullableNumber,
      total_agents_in_area: nullableNumber,
      ranking_note: nullableText,
      service_areas: z.array(z.string()),
      city: nullableText,
      state: nullableText,
      zip_code: nullableText,
      primary_zip_code: nullableText,
      sales_in_area: nullableNumber,
      area_rank: nullableNumber,
      match_score: nullableNumber,
      sides: z.looseObject({ total_sides: z.number(), listing_sales: z.number(), buyer_sales: z.number() }).nullable(),
      area_figures: z.looseObject({ sales: z.number(), sides: z.number(), volume: z.number() }).optional(),
    }),
  ),
  totalResults: z.number().int().min(0),
  location: z.object({ city: nullableText, state: nullableText, zipCode: nullableText }).nullable(),
  message: z.string().optional(),
  sort: z.enum(SEARCH_SORTS).optional(),
  facets: z.object({ propertyTypes: z.array(z.string()) }).optional(),
})

/** The function's 200 answer from the SQL result and the page asked for. */
export function toSearchResponse(
  sql: z.infer<typeof SearchSqlResultSchema>,
  input: SearchAgentsInput,
): SearchAgentsResponse {
  const response: SearchAgentsResponse = {
    agents: sql.agents as AgentSearchResult[],
    totalResults: sql.totalResults,
    location: sql.location as SearchLocation | null,
    limit: input.limit,
    offset: input.offset,
  }
  if (sql.message) response.message = sql.message
  if (sql.sort) response.sort = sql.sort
  if (sql.facets) response.facets = sql.facets
  return response
}

/**
 * What is stored of a search's text in public.search_queries (no personal data). An address can be the visitor's
 * home, so house and unit numbers are replaced by '#' (the street, city, state and ZIP stay, which is what topic
 * discovery needs); names and ZIPs are kept as typed. The resolved place and the count are added by
 * public.search_agents_logged() from the answer (migration 20261124030100).
 */
export function searchLogQuery(input: SearchAgentsInput): string {
  return input.type === 'address' ? redactHouseNumbers(input.query) : input.query
}

/**
 * '12B Main St Apt 4, Boston, MA 02139' -> '# Main St Apt #, Boston, MA 02139': every group of digits (with an
 * attached letter) except a 5-digit ZIP (+4) after the street.
 */
export function redactHouseNumbers(address: string): string {
  if (/^\d{5}(-\d{4})?$/.test(address)) return address
  return address.replace(/\d+[A-Za-z]?(?:-\d{4})?/g, (token: string, offset: number) => {
    const leading = address.slice(0, offset).trim() === ''
    return /^\d{5}(-\d{4})?$/.test(token) && !leading ? token : '#'
  })
}
