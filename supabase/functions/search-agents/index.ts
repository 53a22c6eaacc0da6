/**
 * search-agents: the public site's agent search. POST {query, type?, limit?, offset?, sort?, side?, minPrice?, maxPrice?,
 * propertyType?} -> {agents, totalResults, location, limit, offset, message?, sort?, facets?}; contract in
 * @shared/search-contract.ts.
 *
 * The body is validated here (400 with a visitor-facing message); the search and its public.search_queries row
 * are one call of the SQL function public.search_agents_logged() (migration 20261124030100: search_agents() plus the
 * log insert, one PostgREST round trip per search; a failed insert is a database WARNING and never fails the
 * search). Only the service role may execute it (migration 20261123100000 for search_agents(), which caps
 * result_limit in SQL as well). Anything unexpected answers 500 {error: 'Search function failed'}. Request shell:
 * @shared/http.ts. verify_jwt = false (supabase/config.toml): visitors call it with the anon key only.
 * A client IP (the gateway's hop, never a header the client writes) may search SEARCH_IP_LIMIT_PER_MINUTE times a
 * minute (@shared/public-limits.ts; SEARCH_RATE_LIMIT_PER_MINUTE overrides it), then gets 429 with Retry-After;
 * the count is one more statement on the same pool, before the search.
 *
 * Database path (for throughput): when SUPABASE_DB_URL is set (hosted Supabase sets it for every function;
 * the local stand-in passes its database URL the same way) the search goes straight to Postgres with postgres.js,
 * one small pool per isolate (module scope, max 4 connections, `prepare: false` so it also works through the
 * Supavisor pooler in transaction mode). Each search is one statement that runs as service_role, so grants and RLS
 * are those the RPC path had (searchAgentsLoggedAsServiceRole in @shared/search-sql.ts says how and why). Without
 * SUPABASE_DB_URL the supabase-js RPC path below is used (one client per process, module scope, so its HTTP
 * connections are reused across requests).
 */
import { parseBody, serveFunction } from '@shared/http.ts'
import {
  limitFromEnv,
  SEARCH_IP_LIMIT_PER_MINUTE,
  SEARCH_IP_LIMIT_VARIABLE,
  SEARCH_RATE_LIMIT_MESSAGE,
} from '@shared/public-limits.ts'
import { enforceRateLimits, type HitCounter, ipValue, rateLimitSecret } from '@shared/rate-limit.ts'
import { platformEnv, serviceClient } from '@shared/supabase.ts'
import postgres from 'postgres'
import { z } from 'zod'

import {
  NOT_JSON_MESSAGE,
  SEARCH_FAILED_MESSAGE,
  SearchAgentsRequestSchema,
  SearchSqlResultSchema,
  searchAreaOptions,
  searchLogQuery,
  toSearchResponse,
} from '@shared/search-request.ts'
import { type SearchAgentsLoggedArgs, searchAgentsLoggedAsServiceRole } from '@shared/search-sql.ts'

// Validated at start-up (URL and keys, new or legacy) so a missing platform variable fails the boot.
platformEnv()
const hmacSecret = rateLimitSecret(Deno.env.get('REPORT_REQUEST_HMAC_SECRET'))
const searchesPerMinute = limitFromEnv(
  SEARCH_IP_LIMIT_VARIABLE,
  Deno.env.get(SEARCH_IP_LIMIT_VARIABLE),
  SEARCH_IP_LIMIT_PER_MINUTE,
)

/** The search RPC (not open to anon): the fallback when SUPABASE_DB_URL is absent. */
const admin = serviceClient()

const databaseUrl = Deno.env.get('SUPABASE_DB_URL')
/** One postgres.js pool per isolate, or null (then the RPC path). Connections open lazily on first use. */
const sql = databaseUrl
  ? postgres(databaseUrl, { max: 4, prepare: false, idle_timeout: 20, connect_timeout: 10 })
  : null

/** The per-IP count on the same pool when there is one (one statement), else through PostgREST. */
const hitCounter: HitCounter | typeof admin = sql
  ? async (keyHashes, windowSeconds) =>
      // keys are hex and windows whole numbers, so a comma-joined text parameter carries each array
      await sql<{ key_hash: string; hits: number }[]>`
        select key_hash, hits
          from public.hit_rate_limits(string_to_array(${keyHashes.join(',')}, ','),
                                      string_to_array(${windowSeconds.join(',')}, ',')::integer[])`
  : admin

/**
 * Runs search_agents_logged() as service_role (the role the RPC path used), straight on Postgres or through the RPC.
 * @returns the function's jsonb answer as parsed JSON; throws on any database error (the shell answers 500).
 */
async function searchAgentsLogged(args: SearchAgentsLoggedArgs): Promise<unknown> {
  if (sql) return await searchAgentsLoggedAsServiceRole(sql, args)
  const { data, error } = await admin.rpc('search_agents_logged', args)
  if (error) throw new Error(`search_agents_logged failed: ${error.code ?? ''} ${error.message}`)
  return data
}

serveFunction({
  name: 'search-agents',
  cors: 'public',
  failureMessage: SEARCH_FAILED_MESSAGE,
  invalidBodyMessage: NOT_JSON_MESSAGE,
  async handle({ request, body, json }) {
    const input = parseBody(SearchAgentsRequestSchema, body)
    await enforceRateLimits(
      hitCounter,
      hmacSecret,
      [{ kind: 'search-ip-minute', value: ipValue(request), limit: searchesPerMinute, windowSeconds: 60 }],
      SEARCH_RATE_LIMIT_MESSAGE,
    )

    const data = await searchAgentsLogged({
      search_query: input.query,
      search_type: input.type,
      result_limit: input.limit,
      result_offset: input.offset,
      log_query: searchLogQuery(input),
      area_options: searchAreaOptions(input),
    })
    const result = SearchSqlResultSchema.safeParse(data)
    if (!result.success)
      throw new Error(`search_agents_logged returned an unexpected shape: ${z.prettifyError(result.error)}`)
    return json(toSearchResponse(result.data, input), 200)
  },
})
