/**
 * The contract of the `search-agents` edge function ({query, type} plus paging), shared by the function (Deno)
 * and the public site's search-results island (browser). Types only: no imports, so both runtimes can load it.
 *
 * Request: POST /functions/v1/search-agents with JSON {query, type?, limit?, offset?}.
 * - query: 1-200 characters after trimming.
 * - type: 'agent' (default when missing), 'zipcode' or 'address'.
 * - limit: 1-50, default 20; offset: >= 0, default 0.
 * Errors: 400 {error: string} for bad input (the message is shown to the visitor as is); 500
 * {error: 'Search function failed'} for anything else.
 */

/** How the query is interpreted. */
export type SearchType = 'agent' | 'zipcode' | 'address'

export interface SearchAgentsRequest {
  query: string
  type?: SearchType
  /** Page size, 1-50 (default 20). */
  limit?: number
  /** Rows to skip, >= 0 (default 0). */
  offset?: number
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
  /** For zipcode/address searches: the agent's closed sales in the searched ZIP(s); otherwise null. */
  sales_in_area: number | null
  /**
   * For zipcode/address searches: rank by sales_in_area (ties: sales volume there; equal on both = equal rank),
   * 1 is best; otherwise null. Optional so existing fixtures stay valid; the function always sends it.
   */
  area_rank?: number | null
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
}

/** The body of every non-2xx answer. */
export interface SearchAgentsError {
  error: string
}
