/**
 * search-agents: the public site's agent search (spec section 7). POST {query, type?, limit?, offset?} ->
 * {agents, totalResults, location, limit, offset, message?}; contract in @shared/search-contract.ts.
 *
 * The body is validated here (400 with a visitor-facing message); the search itself is one call of the SQL
 * function public.search_agents() (migration 20261121003100), which only the service role may execute (migration
 * 20261123100000 revoked it and its helpers from anon/authenticated, and caps result_limit in SQL as well). Every
 * valid search is then logged to public.search_queries; a failed log is reported server-side and never fails the
 * search. Anything unexpected answers 500 {error: 'Search function failed'}. Request shell: @shared/http.ts.
 * verify_jwt = false (supabase/config.toml): visitors call it with the anon key only.
 */
import { serveFunction } from '@shared/http.ts';
import { platformEnv, serviceClient } from '@shared/supabase.ts';
import { z } from 'zod';

import {
  NOT_JSON_MESSAGE,
  SEARCH_FAILED_MESSAGE,
  SearchSqlResultSchema,
  type SearchQueryLogRow,
  parseSearchRequest,
  searchLogRow,
  toSearchResponse,
} from '@shared/search-request.ts';

// Validated at start-up (URL and keys, new or legacy) so a missing platform variable fails the boot.
platformEnv();

/** The search RPC and the search_queries insert (neither is open to anon). */
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

serveFunction({
  name: 'search-agents',
  cors: 'public',
  failureMessage: SEARCH_FAILED_MESSAGE,
  invalidBodyMessage: NOT_JSON_MESSAGE,
  async handle({ body, json }) {
    const parsed = parseSearchRequest(body);
    if (!parsed.ok) return json({ error: parsed.error }, 400);
    const input = parsed.input;

    const { data, error } = await admin.rpc('search_agents', {
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
  },
});
