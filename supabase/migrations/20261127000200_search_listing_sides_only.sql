-- agent_zip_sales now also holds agents with buyer sides only in a ZIP (closed_sales = 0, their listing-side count).
-- Until the search ranks by sides, the ZIP and address searches keep ranking the listing agents of the area as before:
-- rows without a listing-side sale are left out of the ranking and of totalResults. Otherwise unchanged.

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
            where s.zip_code = zip_codes[1] and s.closed_sales > 0
            order by s.closed_sales desc, s.sales_volume desc, s.agent_id
            limit v_limit + v_offset
          ) r
          offset v_offset
        ) p
        join public.agents a on a.id = p.agent_id
      ), '[]'::jsonb),
      'totalResults', (select count(*) from public.agent_zip_sales s where s.zip_code = zip_codes[1] and s.closed_sales > 0)
    );
  end if;

  return (
    with sales as (
      select s.agent_id, sum(s.closed_sales)::integer as sales, sum(s.sales_volume) as volume
      from public.agent_zip_sales s
      where v_refreshed
        and s.zip_code = any(zip_codes) and s.closed_sales > 0
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
