-- Ranking guard per ZIP: an agent is ranked in their primary ZIP only with at least 5 closed sales THERE in the
-- window. Before, the guard counted all of the agent's sales, so 2 local sales plus 40 elsewhere showed "#29 of 31".
-- refresh_agent_metrics() is otherwise unchanged (same signature, figures and agent_zip_sales refresh); existing
-- figures follow on the next refresh, which this migration runs once for a database that has been refreshed before.

/**
 * Recomputes the performance columns of every agent from the closed sales they listed
 * (properties.agent_id = agent, standard_status = 'Closed', sale_price = ClosePrice > 0).
 *
 * Window: the `window_months` months ending at `window_end` (default: the latest close date among closed sales),
 * i.e. close dates in (window_end - window_months months, window_end]. metrics_window_start is the first day counted.
 *
 *   total_sales                   n closed sales in the window
 *   average/median_sale_to_list   ClosePrice / ListPrice * 100 (PERCENT); sales without a list price are left out,
 *                                 sale_to_list_sample_size says how many remain
 *   average/median_days_on_market DaysOnMarket in days; days_on_market_sample_size as above
 *   price_range_min/max           lowest / highest ClosePrice, USD
 *   primary_zip_code              ZIP with most of the agent's sales (ties: higher volume, then lowest ZIP)
 *   service_areas                 the agent's ZIPs, most sales first (same tie-breaks)
 *   total_agents_in_area          listing agents with a closed sale in the primary ZIP
 *   local_ranking                 rank by sales in the primary ZIP, ties by volume there (equal on both = equal rank);
 *                                 null with ranking_note unless the agent has at least 5 closed sales IN THAT ZIP in
 *                                 the window (ranking guard, issue "data integrity" #8: a rank on 2 local sales out of
 *                                 40 elsewhere says nothing about the ZIP; the About page states the same rule)
 *   market_share                  agent's sales in the primary ZIP / all closed sales there * 100 (PERCENT)
 *
 * An agent with no sale in the window gets total_sales 0, null figures and a ranking_note.
 * Also stores the window's closed sales per (ZIP, agent) in public.agent_zip_sales (refresh_agent_zip_sales()),
 * which the ZIP and address searches rank by.
 * Returns the window used and the number of agents whose row changed.
 */
create or replace function public.refresh_agent_metrics(window_months integer default 24, window_end date default null)
returns table (metrics_window_start date, metrics_window_end date, agents_updated integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_end date;
  v_start date;
  v_updated integer;
begin
  if window_months is null or window_months < 1 or window_months > 600 then
    raise exception 'window_months must be between 1 and 600, got %', window_months using errcode = '22023';
  end if;

  -- two refreshes at once would update the same agents in different orders and could deadlock; run one at a time
  perform pg_advisory_xact_lock(hashtext('public.refresh_agent_metrics'));

  v_end := coalesce(
    window_end,
    (select max(p.sale_date) from public.properties p where p.standard_status = 'Closed' and p.sale_price > 0)
  );
  v_start := case when v_end is null then null else (v_end - make_interval(months => window_months))::date + 1 end;

  -- the search's per-(ZIP, agent) summary first: the agent figures below read their ZIP ranking from it
  perform public.refresh_agent_zip_sales(v_start, v_end);

  with closed as (
    select p.agent_id, p.zip_code, p.sale_price, p.list_price, p.days_on_market
    from public.properties p
    where p.standard_status = 'Closed'
      and p.sale_price > 0
      and p.sale_date between v_start and v_end
  ),
  per_agent as (
    select
      c.agent_id,
      count(*)::integer as total_sales,
      round(avg(c.sale_price / c.list_price * 100), 2) as avg_ratio,
      round((percentile_cont(0.5) within group (order by c.sale_price / c.list_price * 100))::numeric, 2) as median_ratio,
      count(c.list_price)::integer as ratio_n,
      round(avg(c.days_on_market), 1) as avg_dom,
      round((percentile_cont(0.5) within group (order by c.days_on_market))::numeric, 1) as median_dom,
      count(c.days_on_market)::integer as dom_n,
      min(c.sale_price) as price_min,
      max(c.sale_price) as price_max
    from closed c
    where c.agent_id is not null
    group by c.agent_id
  ),
  -- the per-(ZIP, agent) figures were just stored for this window by refresh_agent_zip_sales(): read them back
  -- instead of grouping the closed sales a second time
  agent_zip as (
    select s.agent_id, s.zip_code, s.closed_sales as sales, s.sales_volume as volume
    from public.agent_zip_sales s
  ),
  zip_totals as (
    select c.zip_code, count(*)::integer as sales
    from closed c
    where c.zip_code is not null
    group by c.zip_code
  ),
  ranked as (
    select
      az.*,
      rank() over (partition by az.zip_code order by az.sales desc, az.volume desc) as zip_rank,
      count(*) over (partition by az.zip_code)::integer as agents_in_zip,
      row_number() over (partition by az.agent_id order by az.sales desc, az.volume desc, az.zip_code) as zip_order
    from agent_zip az
  ),
  areas as (
    select r.agent_id, array_agg(r.zip_code order by r.zip_order) as zips
    from ranked r
    group by r.agent_id
  ),
  computed as (
    select
      a.id as agent_id,
      coalesce(pa.total_sales, 0) as total_sales,
      case when pa.ratio_n > 0 then pa.avg_ratio end as avg_ratio,
      case when pa.ratio_n > 0 then pa.median_ratio end as median_ratio,
      coalesce(pa.ratio_n, 0) as ratio_n,
      pa.avg_dom,
      pa.median_dom,
      coalesce(pa.dom_n, 0) as dom_n,
      pa.price_min,
      pa.price_max,
      pz.zip_code as primary_zip,
      pz.agents_in_zip,
      case when pz.sales >= 5 then pz.zip_rank::integer end as local_ranking,
      round(pz.sales * 100.0 / zt.sales, 2) as market_share,
      coalesce(ar.zips, '{}') as service_areas,
      case
        when pa.total_sales is null then 'No closed sales in the window'
        when pz.zip_code is null then 'No ZIP code on the closed sales in the window'
        when pz.sales < 5 then format('Fewer than 5 closed sales in %s in the window (%s there)', pz.zip_code, pz.sales)
      end as ranking_note
    from public.agents a
    left join per_agent pa on pa.agent_id = a.id
    left join ranked pz on pz.agent_id = a.id and pz.zip_order = 1
    left join zip_totals zt on zt.zip_code = pz.zip_code
    left join areas ar on ar.agent_id = a.id
  )
  update public.agents a
  set
    total_sales = c.total_sales,
    average_sale_to_list_ratio = c.avg_ratio,
    median_sale_to_list_ratio = c.median_ratio,
    sale_to_list_sample_size = c.ratio_n,
    average_days_on_market = c.avg_dom,
    median_days_on_market = c.median_dom,
    days_on_market_sample_size = c.dom_n,
    price_range_min = c.price_min,
    price_range_max = c.price_max,
    primary_zip_code = c.primary_zip,
    total_agents_in_area = c.agents_in_zip,
    local_ranking = c.local_ranking,
    market_share = c.market_share,
    service_areas = c.service_areas,
    ranking_note = c.ranking_note,
    metrics_window_start = v_start,
    metrics_window_end = v_end,
    metrics_refreshed_at = now()
  from computed c
  where a.id = c.agent_id
    and (
      a.total_sales, a.average_sale_to_list_ratio, a.median_sale_to_list_ratio, a.sale_to_list_sample_size,
      a.average_days_on_market, a.median_days_on_market, a.days_on_market_sample_size, a.price_range_min,
      a.price_range_max, a.primary_zip_code, a.total_agents_in_area, a.local_ranking, a.market_share,
      a.service_areas, a.ranking_note, a.metrics_window_start, a.metrics_window_end
    ) is distinct from (
      c.total_sales, c.avg_ratio, c.median_ratio, c.ratio_n, c.avg_dom, c.median_dom, c.dom_n, c.price_min,
      c.price_max, c.primary_zip, c.agents_in_zip, c.local_ranking, c.market_share, c.service_areas,
      c.ranking_note, v_start, v_end
    );
  get diagnostics v_updated = row_count;

  return query select v_start, v_end, v_updated;
end;
$$;

comment on function public.refresh_agent_metrics(integer, date) is
  'Recomputes every agent''s performance columns from closed sales in the window (default 24 months ending at the latest close date). service_role only (importer).';

revoke execute on function public.refresh_agent_metrics(integer, date) from public, anon, authenticated;
grant execute on function public.refresh_agent_metrics(integer, date) to service_role;


-- a database refreshed before: apply the guard to the stored figures now, over the same window
select public.refresh_agent_metrics(
  greatest(1, least(600, (extract(year from age(w.window_end + 1, w.window_start)) * 12 + extract(month from age(w.window_end + 1, w.window_start)))::integer)),
  w.window_end
)
from public.search_metrics_window() w
where exists (select 1 from public.agents a where a.metrics_refreshed_at is not null and a.metrics_window_end is not null);
