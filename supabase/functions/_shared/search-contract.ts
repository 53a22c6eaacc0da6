/**
 * The contract of the `search-agents` edge function ({query, type} plus paging), shared by the function (Deno)
 * and the public site's search-results island (browser). Types only: no imports, so both runtimes can load it.
 *
 * Request: POST /functions/v1/search-agents with JSON {query, type?, limit?, offset?, sort?, side?, minPrice?,
 * maxPrice?, propertyType?}.
 * - query: 1-200 characters after trimming.
 * - type: 'agent' (default when missing), 'zipcode' or 'address'.
 * - limit: 1-50, default 20; offset: >= 0, default 0.
 * - ZIP code and address searches only (an agent search answers 400 to them): sort (default 'sides': sides in the
 *   area, ties by volume), side (count only the listing or the buyer side), minPrice / maxPrice (ClosePrice band,
 *   USD, ends included), propertyType (one of the answer's facets.propertyTypes).
 * Errors: 400 {error: string} for bad input (the message is shown to the visitor as is); 500
 * {error: 'Search function failed'} for anything else.
 */

/** How the query is interpreted. */
export type SearchType = 'agent' | 'zipcode' | 'address'

/**
 * How ZIP and address results are ordered: 'sides' (the agent's sides in the area, a co-listed or co-bought sale
 * counting half; the default), 'listing_sales' (listing sides there), 'buyer_sales' (buyer sides there), 'volume'
 * (ClosePrice x credit there, USD), 'sale_to_list' (the agent's listing-side sale-to-list there, shrunk toward the
 * area's mean; agents with fewer than 5 such sales come after the others). Ties: volume (sides for 'volume').
 */
export type SearchSort = 'sides' | 'listing_sales' | 'buyer_sales' | 'volume' | 'sale_to_list'

/** Which side of a sale counts in a ZIP or address search: both (default), the listing side or the buyer side. */
export type SearchSide = 'any' | 'listing' | 'buyer'

export interface SearchAgentsRequest {
  query: string
  type?: SearchType
  /** Page size, 1-50 (default 20). */
  limit?: number
  /** Rows to skip, >= 0 (default 0). */
  offset?: number
  /** ZIP and address searches: the order (default 'sides'). */
  sort?: SearchSort
  /** ZIP and address searches: count only this side (default 'any'). */
  side?: SearchSide
  /** ZIP and address searches: lowest ClosePrice counted, USD. */
  minPrice?: number
  /** ZIP and address searches: highest ClosePrice counted, USD. */
  maxPrice?: number
  /** ZIP and address searches: count only sales of this PropertyType (case-insensitive). */
  propertyType?: string
}

/**
 * An agent's both-sides figures over the metrics window (public.agent_figures), on every result: what a card shows
 * next to the listing-side columns. Null for an agent without a counted sale.
 */
export interface AgentSidesSummary {
  listing_sales: number
  listing_sides: number
  buyer_sales: number
  buyer_sides: number
  total_sales: number
  total_sides: number
  /** USD. */
  total_volume: number
  /** PERCENT, listing side. */
  sale_to_list_median: number | null
  sale_to_list_n: number
  /** PERCENT, shrunk toward the primary ZIP (see the methodology). */
  sale_to_list_shrunk: number | null
  /** Rank by sides in the primary ZIP; null below 5 sales there (ranking_note says why). */
  zip_rank: number | null
  zip_agents: number | null
  ranking_note: string | null
  /** The agent's latest counted close date (YYYY-MM-DD). */
  last_close_date: string
  window_start: string
  window_end: string
}

/** The agent's figures in the searched area, under the search's filters (ZIP and address searches). */
export interface AreaFigures {
  /** Distinct sales with a side counted (a dual-agency sale once). */
  sales: number
  sides: number
  listing_sides: number
  buyer_sides: number
  /** ClosePrice x credit, USD. */
  volume: number
  /** PERCENT, the listing-side sales with a list price there. */
  sale_to_list_mean: number | null
  sale_to_list_n: number
  /** PERCENT, shrunk toward the area's mean; what sort 'sale_to_list' orders by. */
  sale_to_list_shrunk: number | null
}

/** One agent row as the search returns it: the public `agents` columns the result card and profile need. */
export interface AgentSearchResult {
  id: string
  name: string
  email: string | null
  phone: string | null
  photo_url: string | null
  brokerage: string | null
  license_number: string | null
  years_experience: number | null
  /** 0.0-5.0 */
  rating: number | null
  review_count: number
  /** Closed sales in the metrics window. */
  total_sales: number
  /** PERCENT (98.7 means 98.7 %), null when the agent has no sales with a list price. */
  average_sale_to_list_ratio: number | null
  /** Days. */
  average_days_on_market: number | null
  /** USD. */
  price_range_min: number | null
  /** USD. */
  price_range_max: number | null
  /** PERCENT 0-100 of the primary ZIP's closed sales. */
  market_share: number | null
  /** 1 is best; null when the agent has fewer than 5 sales (see ranking_note). */
  local_ranking: number | null
  total_agents_in_area: number | null
  ranking_note: string | null
  service_areas: string[]
  city: string | null
  state: string | null
  zip_code: string | null
  primary_zip_code: string | null
  /**
   * For zipcode/address searches: the agent's closed sales in the searched ZIP(s) with a side counted (either side
   * unless filtered; a dual-agency sale once); otherwise null.
   */
  sales_in_area: number | null
  /**
   * For zipcode/address searches: rank in the sort asked for (default: sides in the area, ties by volume there;
   * equal on both = equal rank), 1 is best; otherwise null. Optional so existing fixtures stay valid; the function
   * always sends it.
   */
  area_rank?: number | null
  /** Both-sides figures of the agent (window); null when none. Optional so existing fixtures stay valid. */
  sides?: AgentSidesSummary | null
  /** For zipcode/address searches: the agent's figures in the area under the filters. */
  area_figures?: AreaFigures
  /** For agent searches: pg_trgm similarity 0-1 of the name to the query; otherwise null. */
  match_score: number | null
}

/** Where the search resolved to; null for agent-name searches. */
export interface SearchLocation {
  city: string | null
  state: string | null
  zipCode: string | null
}

export interface SearchAgentsResponse {
  agents: AgentSearchResult[]
  /** All matches, not just this page. */
  totalResults: number
  location: SearchLocation | null
  limit: number
  offset: number
  /** A visitor-facing explanation when there are no agents for a reason other than no match (e.g. address not found). */
  message?: string
  /** ZIP and address searches: the order used. */
  sort?: SearchSort
  /** ZIP and address searches: what the filters can take in this area (the PropertyType values sold there). */
  facets?: { propertyTypes: string[] }
}

/** The body of every non-2xx answer. */
export interface SearchAgentsError {
  error: string
}
