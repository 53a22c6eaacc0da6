/**
 * search-agents: the public site's agent search (spec section 7). POST {query, type?, limit?, offset?} ->
 * {agents, totalResults, location, limit, offset, message?}; contract in ../_shared/search-contract.ts.
 *
 * The body is validated here (400 with a visitor-facing message); the search itself is one call of the SQL
 * function public.search_agents() (migration 20261121003100) with the anon key, so it runs with a visitor's
 * rights. Every valid search is then logged to public.search_queries with the service role; a failed log is
 * reported server-side and never fails the search. Anything unexpected answers 500 {error: 'Search function failed'}.
 * verify_jwt = false (supabase/config.toml): visitors call it with the anon key only.
 */
import { callerClient, platformEnv, serviceClient } from '@shared/supabase.ts';
import { z } from 'zod';

import {
  NOT_JSON_MESSAGE,
  SEARCH_FAILED_MESSAGE,
  SearchSqlResultSchema,
  type SearchQueryLogRow,
  parseSearchRequest,
  searchCorsHeaders,
  searchLogRow,
  toSearchResponse,
} from '@shared/search-request.ts';

// Validated at start-up (URL and keys, new or legacy) so a missing platform variable fails the boot.
platformEnv();

/** Searches run with the anon key: the SQL functions are security invoker over anon-readable tables. */
const visitor = callerClient();
/** Only for the search_queries insert (anon has no privilege on that table). */
const admin = serviceClient();

/** Stores the search in public.search_queries; a failure is logged here and never reaches the visitor. */
async function logSearch(row: SearchQueryLogRow): Promise<void> {
  try {
    const { error } = await admin.from('search_queries').insert(row);
    if (error) throw new Error(`${error.code ?? ''} ${error.message}`);
  } catch (error) {
    console.error(`search-agents: could not log the search: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const json = (body: unknown, status: number) => Response.json(body, { status, headers: searchCorsHeaders });

Deno.serve(async (request) => {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: searchCorsHeaders });
  if (request.method !== 'POST') return json({ error: 'Use POST with a JSON body.' }, 405);

  const text = await request.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return json({ error: NOT_JSON_MESSAGE }, 400);
  }
  const parsed = parseSearchRequest(body);
  if (!parsed.ok) return json({ error: parsed.error }, 400);
  const input = parsed.input;

  try {
    const { data, error } = await visitor.rpc('search_agents', {
      search_query: input.query,
      search_type: input.type,
      result_limit: input.limit,
      result_offset: input.offset,
    });
    if (error) throw new Error(`search_agents failed: ${error.code ?? ''} ${error.message}`);
    const result = SearchSqlResultSchema.safeParse(data);
    if (!result.success) throw new Error(`search_agents returned an unexpected shape: ${z.prettifyError(result.error)}`);
    const response = toSearchResponse(result.data, input);

    await logSearch(searchLogRow(input, response));
    return json(response, 200);
  } catch (error) {
    console.error('search-agents:', error instanceof Error ? (error.stack ?? error.message) : error);
    return json({ error: SEARCH_FAILED_MESSAGE }, 500);
  }
});
