-- Searches plan once per connection, not once per call (for throughput: 50 clients through the gateway).
--
-- Where the time went: PostgreSQL was the bottleneck under load (about 4.5 ms of CPU per search on 2 cores), and
-- much of that was planning. A LANGUAGE sql function with a SET clause is neither inlined nor plan-cached: every call
-- parsed and planned its whole query again. search_agents_in_area() (every ZIP and address search) was one (so were
-- the name matcher and its deletion strings; migration 20261125200000, not yet deployed, now creates them as plpgsql).
-- plpgsql caches each statement's plan per connection, and search-agents keeps its connections (a pool per
-- isolate), so this migration:
-- 1. rewrites search_agents_in_area() as plpgsql, with the same queries and answers;
-- 2. gives search_agents_in_area() a path of its own for one ZIP with refreshed metrics (every ZIP search, and an
--    address without nearby ZIPs): agent_zip_sales has one row per (ZIP, agent), so there is nothing to add up; the
--    agents are read in rank order and the scan stops after the requested page (rank() and row_number() need only
--    the rows before them), and totalResults is a count over the primary key;
-- 3. makes search_agents() use generic plans (plan_cache_mode), see the last statement.
--
-- Same answers: bench:load's data (100,000 agents, 400,000 sales): all 900 bench queries through search_agents(),
-- pages 1 and 2, byte-identical before and after; search_agents_in_area() alone identical in 4,407 calls (366 ZIPs,
-- pages 1, 2 and 21, four-ZIP sets, unknown, empty, repeated and out-of-range arguments); the deletion strings of all
-- 1,159 dictionary tokens at 0, 1 and 2 deletions identical.
--
-- Measured there, one connection, each call a top-level statement as search-agents sends it:
-- search_agents_in_area() for one ZIP 4.4-4.8 -> 2.4-2.9 ms; for four ZIPs 7.8 -> 7.8 ms (execution-bound: about
-- 1,900 rows to add up and rank); search_name_token_matches() 2.2 -> 1.4 ms. Under load (50 connections x 15 s
-- through the gateway, the old and new definitions swapped in turn on one stack, 4 pairs): 275 -> 377 req/s.
--
-- Ranking rule unchanged: closed sales in the area in the metrics window, ties by sales volume (rank() gives tied
-- agents the same area_rank), then agent id for a stable page order. Caps unchanged: 1-50 rows, offset 0-10000.

create or replace function public.search_agents_in_area(zip_codes text[], result_limit integer, result_offset integer)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  -- the same caps as search_agents(): 1-50 rows, offset 0-10000, whatever the caller asks
  v_limit integer := least(greatest(coalesce(result_limit, 20), 1), 50);
  v_offset integer := least(greatest(coalesce(result_offset, 0), 0), 10000);
  -- agent_zip_sales is filled by refresh_agent_metrics(); before the first refresh the sales are counted directly
  v_refreshed boolean := exists (
    select 1 from public.agents a where a.metrics_refreshed_at is not null and a.metrics_window_end is not null
  );
begin
  if pg_catalog.cardinality(zip_codes) = 1 and v_refreshed then
    return pg_catalog.jsonb_build_object(
      'agents', coalesce((
        select pg_catalog.jsonb_agg(public.search_agent_json(a, p.sales, p.area_rank, null) order by p.ord)
        from (
          select r.* from (
            select s.agent_id, s.closed_sales as sales,
                   rank() over (order by s.closed_sales desc, s.sales_volume desc)::integer as area_rank,
                   row_number() over (order by s.closed_sales desc, s.sales_volume desc, s.agent_id) as ord
            from public.agent_zip_sales s
            where s.zip_code = zip_codes[1]
            order by s.closed_sales desc, s.sales_volume desc, s.agent_id
            limit v_limit + v_offset
          ) r
          offset v_offset
        ) p
        join public.agents a on a.id = p.agent_id
      ), '[]'::jsonb),
      'totalResults', (select count(*) from public.agent_zip_sales s where s.zip_code = zip_codes[1])
    );
  end if;

  return (
    with sales as (
      select s.agent_id, sum(s.closed_sales)::integer as sales, sum(s.sales_volume) as volume
      from public.agent_zip_sales s
      where v_refreshed
        and s.zip_code = any(zip_codes)
      group by s.agent_id
      union all
      select p.agent_id, count(*)::integer as sales, sum(p.sale_price) as volume
      from public.properties p
      cross join public.search_metrics_window() w
      where not v_refreshed
        and p.zip_code = any(zip_codes)
        and p.standard_status = 'Closed'
        and p.sale_price > 0
        and p.sale_date between w.window_start and w.window_end
        and p.agent_id is not null
      group by p.agent_id
    ),
    ranked as (
      select s.*, rank() over (order by s.sales desc, s.volume desc)::integer as area_rank,
             row_number() over (order by s.sales desc, s.volume desc, s.agent_id) as ord
      from sales s
    ),
    page as (
      select * from ranked r order by r.ord
      limit v_limit offset v_offset
    )
    select pg_catalog.jsonb_build_object(
      'agents', coalesce((
        select pg_catalog.jsonb_agg(public.search_agent_json(a, p.sales, p.area_rank, null) order by p.ord)
        from page p join public.agents a on a.id = p.agent_id
      ), '[]'::jsonb),
      'totalResults', (select count(*) from sales)
    )
  );
end;
$$;

-- Generic plans for everything a search runs. plpgsql caches a statement's plan, but by default it plans the first
-- five executions with the actual values and then keeps planning per call when the generic plan's estimate looks
-- worse; for these statements it was not worse in fact: the same answers for all 900 bench queries, pages 1 and 2,
-- and 12 % less time per search (one connection, old and new settings alternating per query). The setting holds for
-- everything search_agents() calls (name, ZIP and address paths; search_agents_logged() goes through it).
alter function public.search_agents(text, text, integer, integer) set plan_cache_mode = 'force_generic_plan';
