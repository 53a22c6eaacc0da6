-- search_agents_logged(): the search and its search_queries row in one call (performance issue, "Throughput").
--
-- Before, the search-agents function made two PostgREST round trips per visitor search: the search_agents() RPC,
-- then an insert into search_queries. Under 50 concurrent clients the PostgREST side was the bottleneck
-- (docs/performance.md, "Search throughput"), so the log row is now written by the same database call, on local and
-- hosted stacks alike.
--
-- Decisions:
--   * The answer is exactly search_agents()'s; the insert runs in its own subtransaction and a failure is raised as a
--     WARNING (PostgreSQL log) and never fails the search, as the function's own logging did.
--   * What may be stored of the query is still decided by the function (log_query: house numbers of addresses
--     redacted, @shared/search-request.ts); the resolved place and the count come from the answer here, kept only
--     when they fit the table's checks (5-digit ZIP, 2-letter state), as searchLogRow() did.
--   * Service role only, like search_agents().

/**
 * Runs public.search_agents(search_query, search_type, result_limit, result_offset) and stores
 * {query: log_query, search_type, resolved_zip_code, resolved_city, resolved_state, results_count: totalResults} in
 * public.search_queries. Returns search_agents()'s answer unchanged; its errors (SQLSTATE 22023) pass through.
 */
create function public.search_agents_logged(search_query text, search_type text, result_limit integer, result_offset integer,
  log_query text)
returns jsonb
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_result jsonb := public.search_agents(search_query, search_type, result_limit, result_offset);
  v_zip text := v_result #>> '{location,zipCode}';
  v_state text := v_result #>> '{location,state}';
begin
  begin
    insert into public.search_queries (query, search_type, resolved_zip_code, resolved_city, resolved_state, results_count)
    values (
      log_query, search_agents_logged.search_type,
      case when v_zip ~ '^[0-9]{5}$' then v_zip end,
      v_result #>> '{location,city}',
      case when v_state ~ '^[A-Z]{2}$' then v_state end,
      coalesce((v_result ->> 'totalResults')::integer, 0)
    );
  exception when others then
    raise warning 'search_agents_logged: could not log the search: % (SQLSTATE %)', sqlerrm, sqlstate;
  end;
  return v_result;
end;
$$;

comment on function public.search_agents_logged(text, text, integer, integer, text) is
  'search_agents() plus its public.search_queries row (log_query as given, resolved place and count from the answer) in one call; a failed insert is a WARNING, never a failed search. Service role only.';

revoke execute on function public.search_agents_logged(text, text, integer, integer, text) from public, anon, authenticated;
grant execute on function public.search_agents_logged(text, text, integer, integer, text) to service_role;
