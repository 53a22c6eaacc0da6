/**
 * The search-agents function's direct database call (for throughput): public.search_agents_logged() (the
 * search and its public.search_queries row, migration 20261124030100) as ONE statement that runs as service_role.
 *
 * Shape: `searchAgentsLoggedAsServiceRole(sql, args)` -> the function's jsonb answer (postgres.js parses it), or
 * undefined if no row came back. Throws postgres.js's error on any database failure (for example 22023 for a bad
 * argument, 42501 when service_role may not execute the search); the function shell answers 500.
 *
 * Why one statement: a statement outside a transaction block is its own implicit transaction, so it needs one round
 * trip, works through Supavisor's transaction-mode pooler, and anything it sets `local` ends with it. The one-row
 * subquery does `set_config('role', 'service_role', true)` (what PostgREST does for a service-role key); `offset 0`
 * keeps the planner from flattening it, so it is scanned, and the role set, before the select list calls
 * search_agents_logged(). Every query inside the search therefore runs with service_role's grants and RLS, exactly
 * as the RPC path did. It replaced BEGIN / set_config / the call / COMMIT (four round trips): bench:load's function
 * layer went from about 226 to 268 req/s with this alone (docs/performance.md, "Search throughput").
 * Inside an explicit transaction (tests do this) the role stays set until that transaction ends.
 */
import type { Sql, TransactionSql } from 'postgres'

/** search_agents_logged()'s arguments, as PostgREST names them (limit 1-50, offset 0-10000; checked in SQL too). */
export interface SearchAgentsLoggedArgs {
  search_query: string
  search_type: string
  result_limit: number
  result_offset: number
  /** What public.search_queries records for the search (searchLogQuery in search-request.ts). */
  log_query: string
  /** Sort and filters of a ZIP or address search (searchAreaOptions in search-request.ts), or null. */
  area_options?: Record<string, string | number> | null
}

/** Runs the search and its log row as service_role in one statement; see the module comment. */
export async function searchAgentsLoggedAsServiceRole(
  sql: Sql | TransactionSql,
  args: SearchAgentsLoggedArgs,
): Promise<unknown> {
  const rows = await sql`
    select public.search_agents_logged(${args.search_query}, ${args.search_type}, ${args.result_limit}::integer,
                                       ${args.result_offset}::integer, ${args.log_query},
                                       ${args.area_options ? sql.json(args.area_options) : null}::jsonb) as result
    from (select pg_catalog.set_config('role', 'service_role', true)) as as_service_role
    offset 0`
  return rows[0]?.result
}
