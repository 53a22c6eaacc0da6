-- The agent page's ZIP benchmark in the same round trip as its other reads: an agent page (prerendered in batches of
-- up to 100 agents, or rendered on demand for one) read its benchmark only after the agent row had named the primary
-- ZIP, a second round trip on every on-demand answer. This function takes the agent ids, like agent_page_sales and
-- agent_page_quarters, so the four reads of a page run at once.

/*
 * The Redfin benchmarks of the primary ZIPs of the agents in agent_ids (each ZIP once; agents without a primary ZIP or
 * whose ZIP has no benchmark add nothing). 22023 for more than 100 agents.
 */
create function public.agent_page_benchmarks(agent_ids uuid[])
returns setof public.zip_market_benchmarks
language plpgsql
stable
set search_path = ''
as $$
begin
  if agent_ids is null or cardinality(agent_ids) > 100 then
    raise exception 'agent_ids must name at most 100 agents' using errcode = '22023';
  end if;
  return query
    select b.*
      from public.zip_market_benchmarks b
     where b.zip_code in (select a.primary_zip_code from public.agents a where a.id = any (agent_ids));
end;
$$;

comment on function public.agent_page_benchmarks(uuid[]) is
  'The ZIP benchmarks of the primary ZIPs of up to 100 agents (the agent page''s market comparison). Anyone may call it; it reads only what anyone may read.';

revoke execute on function public.agent_page_benchmarks(uuid[]) from public;
grant execute on function public.agent_page_benchmarks(uuid[]) to anon, authenticated, service_role;
