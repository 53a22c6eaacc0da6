-- agent_zip_sales: closed sales per (ZIP, agent) in the metrics window, so the ZIP and address searches rank a few
-- hundred summary rows per ZIP instead of grouping every closed sale of the area on each search.
--
-- Decisions:
--   * Maintained by refresh_agent_metrics() (redefined below with the same signature and figures), in the same
--     transaction that stamps agents.metrics_window_start/end, so the summary always belongs to the window the
--     search reports. Like the agent figures, it changes only when the importer refreshes; sales written since the
--     last refresh count from the next one on.
--   * Before the very first refresh (no agent carries a metrics window) search_agents_in_area() keeps grouping the
--     closed sales live, as it did, so a fresh database still answers.
--   * Updated in place (changed rows only, vanished pairs deleted) rather than truncated: searches keep reading the
--     old rows until the refresh commits and no ACCESS EXCLUSIVE lock ever blocks them.
--   * Derived, public data (sums of anon-readable sales): anyone reads it, only service_role and the refresh write.

create table public.agent_zip_sales (
  zip_code text not null,
  agent_id uuid not null references public.agents (id) on delete cascade,
  closed_sales integer not null check (closed_sales > 0),
  sales_volume numeric(16, 2) not null check (sales_volume > 0),
  last_close_date date not null,
  -- the area search reads (zip_code = any(...)) -> agent_id, closed_sales, sales_volume from the index alone
  primary key (zip_code, agent_id) include (closed_sales, sales_volume)
);

comment on table public.agent_zip_sales is
  'Closed sales per ZIP and listing agent in the metrics window of the latest refresh_agent_metrics() run (search ranking). Anyone reads; refresh_agent_metrics() writes.';
comment on column public.agent_zip_sales.zip_code is 'properties.zip_code as stored (five-digit ZIP or ZIP+4).';
comment on column public.agent_zip_sales.closed_sales is 'Closed sales (standard_status Closed, ClosePrice > 0) of the agent in the ZIP inside the window.';
comment on column public.agent_zip_sales.sales_volume is 'Sum of their ClosePrice, USD.';
comment on column public.agent_zip_sales.last_close_date is 'Latest CloseDate among them.';

-- the agent_id foreign key (on delete cascade) and "where is this agent active"
create index agent_zip_sales_agent_id_idx on public.agent_zip_sales (agent_id);

alter table public.agent_zip_sales enable row level security;

revoke all on public.agent_zip_sales from anon, authenticated;
grant select on public.agent_zip_sales to anon, authenticated;
grant all on public.agent_zip_sales to service_role;

create policy "Agent ZIP sales are readable by anyone" on public.agent_zip_sales
  for select to anon, authenticated
  using (true);


/**
 * Brings public.agent_zip_sales in line with the closed sales (standard_status = 'Closed', sale_price > 0, an agent
 * and a ZIP) whose close date lies in [window_start, window_end] (both inclusive; null bounds empty the table):
 * inserts new (ZIP, agent) pairs, updates changed ones, deletes pairs without a sale left. Returns the number of
 * rows inserted, updated or deleted. Called by refresh_agent_metrics(); service_role only.
 */
create function public.refresh_agent_zip_sales(window_start date, window_end date)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_changed integer;
begin
  with fresh as (
    select p.zip_code, p.agent_id, count(*)::integer as closed_sales, sum(p.sale_price) as sales_volume,
           max(p.sale_date) as last_close_date
    from public.properties p
    where p.standard_status = 'Closed'
      and p.sale_price > 0
      and p.sale_date between refresh_agent_zip_sales.window_start and refresh_agent_zip_sales.window_end
      and p.agent_id is not null
      and p.zip_code is not null
    group by p.zip_code, p.agent_id
  ),
  removed as (
    delete from public.agent_zip_sales s
    where not exists (select 1 from fresh f where f.zip_code = s.zip_code and f.agent_id = s.agent_id)
    returning 1
  ),
  upserted as (
    insert into public.agent_zip_sales as s (zip_code, agent_id, closed_sales, sales_volume, last_close_date)
    select f.zip_code, f.agent_id, f.closed_sales, f.sales_volume, f.last_close_date
    from fresh f
    on conflict (zip_code, agent_id) do update
      set closed_sales = excluded.closed_sales, sales_volume = excluded.sales_volume, last_close_date = excluded.last_close_date
      where (s.closed_sales, s.sales_volume, s.last_close_date)
        is distinct from (excluded.closed_sales, excluded.sales_volume, excluded.last_close_date)
    returning 1
  )
  select (select count(*) from removed) + (select count(*) from upserted) into v_changed;
  return v_changed;
end;
$$;

comment on function public.refresh_agent_zip_sales(date, date) is
  'Recomputes agent_zip_sales for a close-date window (inclusive); returns rows changed. Called by refresh_agent_metrics(); service_role only.';

revoke execute on function public.refresh_agent_zip_sales(date, date) from public, anon, authenticated;
grant execute on function public.refresh_agent_zip_sales(date, date) to service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- refresh_agent_metrics(): unchanged figures; it now refreshes agent_zip_sales first and ranks ZIPs from it
-- ---------------------------------------------------------------------------------------------------------------

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
 *                                 null with ranking_note when the agent has fewer than 5 sales
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
      case when pa.total_sales >= 5 then pz.zip_rank::integer end as local_ranking,
      round(pz.sales * 100.0 / zt.sales, 2) as market_share,
      coalesce(ar.zips, '{}') as service_areas,
      case
        when pa.total_sales is null then 'No closed sales in the window'
        when pz.zip_code is null then 'No ZIP code on the closed sales in the window'
        when pa.total_sales < 5 then 'Fewer than 5 closed sales in the window'
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


-- ---------------------------------------------------------------------------------------------------------------
-- search_agents_in_area(): same ranking and shape, read from agent_zip_sales once a refresh has run
-- ---------------------------------------------------------------------------------------------------------------

/**
 * Agents with closed sales in any of `zip_codes` inside the metrics window, ranked by those sales (desc), ties by
 * sales volume (USD, desc), then id. sales_in_area = closed sales in the ZIPs, area_rank = rank() in the area.
 * Returns {agents, totalResults}. Reads agent_zip_sales (a few hundred rows per ZIP, index-only) once
 * refresh_agent_metrics() has run; before the first refresh it groups the closed sales live.
 */
create or replace function public.search_agents_in_area(zip_codes text[], result_limit integer, result_offset integer)
returns jsonb
language sql
stable
set search_path = ''
as $$
  with refreshed as (
    select exists (
      select 1 from public.agents a where a.metrics_refreshed_at is not null and a.metrics_window_end is not null
    ) as done
  ),
  sales as (
    select s.agent_id, sum(s.closed_sales)::integer as sales, sum(s.sales_volume) as volume
    from public.agent_zip_sales s
    where (select r.done from refreshed r)
      and s.zip_code = any(zip_codes)
    group by s.agent_id
    union all
    select p.agent_id, count(*)::integer as sales, sum(p.sale_price) as volume
    from public.properties p
    cross join public.search_metrics_window() w
    where not (select r.done from refreshed r)
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
    select * from ranked r order by r.ord limit result_limit offset result_offset
  )
  select jsonb_build_object(
    'agents', coalesce((
      select jsonb_agg(public.search_agent_json(a, p.sales, p.area_rank, null) order by p.ord)
      from page p join public.agents a on a.id = p.agent_id
    ), '[]'::jsonb),
    'totalResults', (select count(*) from sales)
  );
$$;

comment on function public.search_agents_in_area(text[], integer, integer) is
  'Agents ranked by closed sales in the given ZIPs (metrics window, from agent_zip_sales), ties by volume. Returns {agents, totalResults}.';


-- a database refreshed before this migration: fill the summary for the window of its latest refresh
select public.refresh_agent_zip_sales(w.window_start, w.window_end)
from public.search_metrics_window() w
where exists (select 1 from public.agents a where a.metrics_refreshed_at is not null and a.metrics_window_end is not null);
