/**
 * search-agents: the public site's agent search (spec section 7). POST {query, type?, limit?, offset?} ->
 * {agents, totalResults, location, limit, offset, message?}; contract in @shared/search-contract.ts.
 *
 * The body is validated here (400 with a visitor-facing message); the search and its public.search_queries row
 * are one call of the SQL function public.search_agents_logged() (migration 20261124030100: search_agents() plus the
 * log insert, one PostgREST round trip per search; a failed insert is a database WARNING and never fails the
 * search). Only the service role may execute it (migration 20261123100000 for search_agents(), which caps
 * result_limit in SQL as well). Anything unexpected answers 500 {error: 'Search function failed'}. Request shell:
 * @shared/http.ts. verify_jwt = false (supabase/config.toml): visitors call it with the anon key only.
 * One supabase-js client per process (module scope), so its HTTP connections are reused across requests.
 */
import { serveFunction } from '@shared/http.ts';
import { platformEnv, serviceClient } from '@shared/supabase.ts';
import { z } from 'zod';

import {
  NOT_JSON_MESSAGE,
  SEARCH_FAILED_MESSAGE,
  SearchSqlResultSchema,
  parseSearchRequest,
  searchLogQuery,
  toSearchResponse,
} from '@shared/search-request.ts';

// Validated at start-up (URL and keys, new or legacy) so a missing platform variable fails the boot.
platformEnv();

/** The search RPC (not open to anon). */
const admin = serviceClient();

serveFunction({
  name: 'search-agents',
  cors: 'public',
  failureMessage: SEARCH_FAILED_MESSAGE,
  invalidBodyMessage: NOT_JSON_MESSAGE,
  async handle({ body, json }) {
    const parsed = parseSearchRequest(body);
    if (!parsed.ok) return json({ error: parsed.error }, 400);
    const input = parsed.input;

    const { data, error } = await admin.rpc('search_agents_logged', {
      search_query: input.query,
      search_type: input.type,
      result_limit: input.limit,
      result_offset: input.offset,
      log_query: searchLogQuery(input),
    });
    if (error) throw new Error(`search_agents_logged failed: ${error.code ?? ''} ${error.message}`);
    const result = SearchSqlResultSchema.safeParse(data);
    if (!result.success) throw new Error(`search_agents_logged returned an unexpected shape: ${z.prettifyError(result.error)}`);
    return json(toSearchResponse(result.data, input), 200);
  },
});
