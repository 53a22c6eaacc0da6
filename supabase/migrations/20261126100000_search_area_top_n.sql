-- Address and multi-ZIP searches rank only the agents up to the requested page (target: address p95 < 25 ms at
-- 100,000 agents / 2,000,000 sales).
--
-- Where the time went (bench:search's data, an address with three nearby ZIPs, EXPLAIN ANALYZE): adding up the
-- agents' sales in the four ZIPs (about 4,600 agent_zip_sales rows into 4,559 agents) took about 4 ms; sorting all
-- 4,559 agents by sales and volume (numeric comparisons) and running rank() and row_number() over all of them took
-- about 11 ms more, to return 20. The one-ZIP path (20261126000000) already stops after the page; with several ZIPs
-- the sums have to exist first, but the ranking does not need every agent: a bounded sort keeps the first
-- limit + offset agents (PostgreSQL's top-N heapsort), and the two window functions run over those alone.
--
-- Same answers: rank() gives an agent 1 + the number of agents with more sales, or as many sales and a higher
-- volume; every such agent sorts before it, so it is inside the prefix. row_number() follows the same order. Checked
-- on bench:search's data: 250 resolved addresses' ZIP sets, pages 1 and 2, byte-identical before and after (1,500
-- calls); the page-2 address test in tests/integration/search-agents.test.ts checks area_rank across ZIPs.
--
-- Measured there, one connection, each call a top-level statement, old and new definitions alternating per call
-- (1,000 calls each): search_agents_in_area() p50 15.1 -> 7.7 ms, p95 19.5 -> 9.6 ms.
--
-- Everything else as in 20261126000000: the one-ZIP path, the counts before the first metrics refresh, the caps
-- (1-50 rows, offset 0-10000) and the ranking rule (closed sales in the area in the metrics window, ties by volume,
-- then agent id for a stable page order).

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
      from (
        -- the agents up to the end of the requested page, by a bounded (top-N) sort: rank() and row_number() need
        -- only the agents before them in this order, so computing them on this prefix gives the whole-area values
        select * from sales s
        order by s.sales desc, s.volume desc, s.agent_id
        limit v_limit + v_offset
      ) s
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
