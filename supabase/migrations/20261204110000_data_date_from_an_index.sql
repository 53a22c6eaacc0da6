-- The data date from an index: the latest close date no longer reads every sale.
--
-- Why: every metrics refresh starts by finding the data date, the latest close date of the closed sales as accepted
-- corrections say (private.effective_sales). That max() read every sale through the view: 0.45 s of a 7 s daily
-- refresh at 100,000 agents / 1,200,000 sales and 11.8 s of one at 1,000,000 / 12,000,000, on the path to live,
-- every day.
-- What:
--   * properties_closed_sale_date_idx: the closed sales with a price (the sales the figures count) by close date
--     (as sale_date + 0, below); 8.6 MB at 1,200,000 sales (dates repeat, so the B-tree deduplicates them).
--   * private.latest_close_date(): the later of the newest uncorrected sale (the index read backwards to its first
--     sale without an accepted correction) and the newest corrected one (the corrections, a few rows); the same value
--     as max(sale_date) over private.effective_sales, 1.3 ms instead of 450 at 100,000 agents.
--   * refresh_agent_metrics_work takes the data date from it. And an incremental refresh's ZIP coverage reads the
--     noted ZIPs' sales by the ZIP index when they are few: the ZIPs reach the plan as an array value, where the
--     subquery made it read every sale in the window (a 1 % day at 100,000 agents: 1,015 ZIPs, 896 -> 100 ms). At
--     national size a 1 % day notes about a third of the ZIPs, and the plan still reads every sale once.

-- Indexed on sale_date + 0, an expression only private.latest_close_date() orders by: the searches and the refresh
-- filter their sales by sale_date, and an index on sale_date itself is one their plans could pick (a generic plan of
-- the area search over an index like this one was the suspect of a 76 s address search at 1,000,000 agents, when an
-- earlier version of this index existed); the planner matches an expression index only to that expression.
create index if not exists properties_closed_sale_date_idx on public.properties ((sale_date + 0))
  where standard_status = 'Closed' and sale_price > 0 and sale_date is not null;

/**
 * The latest close date of the closed sales with a price, as accepted corrections say (the max of sale_date over
 * private.effective_sales where StandardStatus is Closed and ClosePrice > 0), or null without any: the data date of a
 * metrics refresh. Reads the newest rows of properties_closed_sale_date_idx and the corrections only.
 */
create or replace function private.latest_close_date()
returns date
language sql
stable
set search_path = ''
as $$
  select greatest(
    (select p.sale_date
       from public.properties p
      where p.standard_status = 'Closed' and p.sale_price > 0 and p.sale_date is not null
        and not exists (select 1 from private.agent_sale_overrides o where o.property_id = p.id)
      order by p.sale_date + 0 desc
      limit 1),
    (select max(coalesce(o.close_date, p.sale_date))
       from private.agent_sale_overrides o
       join public.properties p on p.id = o.property_id
      where p.standard_status = 'Closed' and coalesce(o.close_price, p.sale_price) > 0)
  )
$$;
revoke all on function private.latest_close_date() from public, anon, authenticated, service_role;
comment on function private.latest_close_date() is 'The latest close date of the closed sales with a price as accepted corrections say (max sale_date over private.effective_sales), or null: a metrics refresh''s data date. Reads properties_closed_sale_date_idx backwards and the corrections.';

CREATE OR REPLACE FUNCTION private.refresh_agent_metrics_work(window_months integer DEFAULT 24, window_end date DEFAULT NULL::date, full_refresh boolean DEFAULT false)
 RETURNS TABLE(metrics_window_start date, metrics_window_end date, agents_updated integer, refresh_kind text, agents_recomputed integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
 SET work_mem TO '64MB'
AS $function$
declare
  v_end date;
  v_start date;
  v_data_date date;
  v_updated integer;
  v_k numeric;
  v_overall numeric;
  v_state private.figures_refresh_state;
  v_incremental boolean;
  v_agents uuid[];
  v_zips text[];
  v_recomputed integer;
  v_zip_list text[];
begin
  if window_months is null or window_months < 1 or window_months > 600 then
    raise exception 'window_months must be between 1 and 600, got %', window_months using errcode = '22023';
  end if;

  -- two refreshes at once would update the same agents in different orders and could deadlock; run one at a time
  perform pg_advisory_xact_lock(hashtext('public.refresh_agent_metrics'));

  -- the data date: the latest close date in the data (or the one given); the window: the window_months calendar
  -- months ending with the data date's month, so it moves once a month and the other days' refreshes stay incremental
  v_data_date := coalesce(window_end, private.latest_close_date());
  v_end := (date_trunc('month', v_data_date) + interval '1 month' - interval '1 day')::date;
  v_start := (date_trunc('month', v_data_date) - make_interval(months => window_months - 1))::date;

  -- what changed since the last refresh: taken now (a change committed later stays noted for the next refresh)
  select * into v_state from private.figures_refresh_state for update;
  update private.figures_refresh_state set full_needed = false;
  drop table if exists pg_temp.refresh_pending_sales;
  create temp table refresh_pending_sales (property_id uuid primary key) on commit drop;
  with taken as (delete from private.figures_pending_sales returning property_id)
  insert into pg_temp.refresh_pending_sales select distinct t.property_id from taken t;
  with taken as (delete from private.figures_pending_agents returning agent_id)
  select coalesce(array_agg(distinct t.agent_id), '{}') into v_agents from taken t;
  with taken as (delete from private.figures_pending_zips returning zip_code)
  select coalesce(array_agg(distinct t.zip_code), '{}') into v_zips from taken t;

  -- (coalesce: without closed sales the window is null, and a null here would read as neither path below)
  v_incremental := coalesce(
    not coalesce(full_refresh, false)
      and not v_state.full_needed
      and v_state.window_start = v_start and v_state.window_end = v_end
      and v_state.methodology_version = private.methodology_version(),
    false);

  drop table if exists pg_temp.refresh_dirty_agents;
  create temp table refresh_dirty_agents (agent_id uuid primary key) on commit drop;
  drop table if exists pg_temp.refresh_zips;
  create temp table refresh_zips (zip_code text primary key) on commit drop;
  if v_incremental then
    -- the changed agents: every agent on a noted sale (a side's credit is shared), and the noted agents
    insert into pg_temp.refresh_dirty_agents
    select u.agent_id from unnest(v_agents) as u(agent_id) join public.agents a on a.id = u.agent_id
    union
    -- (the noted sales as an array: the condition reaches into the view's branches and uses the property index)
    select e.agent_id
    from private.effective_transaction_sides e
    join public.agents a on a.id = e.agent_id
    where e.property_id = any (array(select t.property_id from pg_temp.refresh_pending_sales t));
    -- the noted ZIPs and the ZIPs of the noted sales (their ranks move with the sides)
    insert into pg_temp.refresh_zips
    select z.zip_code from unnest(v_zips) as z(zip_code) where z.zip_code is not null
    union
    select p.zip_code
    from private.effective_sales p
    where p.id = any (array(select t.property_id from pg_temp.refresh_pending_sales t)) and p.zip_code is not null;
    -- the same ZIPs as a value: the coverage below reads their sales through the ZIP index when they are few
    v_zip_list := array(select z.zip_code from pg_temp.refresh_zips z);
    -- more than a fifth of the agents changed: the full refresh reads less
    if (select count(*) from pg_temp.refresh_dirty_agents) * 5 > (select count(*) from public.agents) then
      v_incremental := false;
    end if;
  end if;

  <<attempt>>
  loop
    -- the credited sides the figures rest on: every agent's, or the changed agents' (all their sales)
    drop table if exists pg_temp.refresh_closed_sides;
    if v_incremental then
      create temp table refresh_closed_sides on commit drop as
      select * from private.credited_sides(v_start, v_end, null, null,
                                           array(select d.agent_id from pg_temp.refresh_dirty_agents d));
    else
      create temp table refresh_closed_sides on commit drop as
      select * from private.credited_sides(v_start, v_end);
    end if;
    analyze pg_temp.refresh_closed_sides;

    -- what each ZIP's figures rest on (every ZIP, or the noted ones)
    with fresh as (
      select p.zip_code, count(*)::integer as closed_sales, min(p.sale_date) as first_close_date,
             max(p.sale_date) as last_close_date,
             coalesce(array_agg(distinct p.source order by p.source) filter (where p.source is not null), '{}') as sources,
             count(*) filter (where p.list_price > 0)::integer as sale_to_list_n,
             coalesce(sum(p.sale_price / p.list_price * 100) filter (where p.list_price > 0), 0) as sale_to_list_sum,
             coalesce(array_agg(distinct p.property_type order by p.property_type) filter (where p.property_type is not null), '{}') as property_types,
             round(avg(p.sale_price / p.list_price * 100) filter (where p.list_price > 0), 2) as sale_to_list_mean
      from private.effective_sales p
      where p.standard_status = 'Closed' and p.sale_price > 0 and p.sale_date between v_start and v_end
        and p.zip_code is not null
        -- (an array value: the plan sees how many ZIPs, and reads their sales by the ZIP index when they are few, every
        -- sale once when they are many)
        and (not v_incremental or p.zip_code = any (v_zip_list))
      group by p.zip_code
    ),
    removed as (
      delete from public.zip_sales_coverage z
      where not exists (select 1 from fresh f where f.zip_code = z.zip_code)
        and (not v_incremental or z.zip_code in (select r.zip_code from pg_temp.refresh_zips r))
      returning 1
    )
    insert into public.zip_sales_coverage as z
      (zip_code, closed_sales, first_close_date, last_close_date, sources, sale_to_list_n, sale_to_list_sum,
       sale_to_list_mean, property_types, window_start, window_end, data_date)
    select f.zip_code, f.closed_sales, f.first_close_date, f.last_close_date, f.sources, f.sale_to_list_n,
           f.sale_to_list_sum, f.sale_to_list_mean, f.property_types, v_start, v_end, v_data_date
    from fresh f
    on conflict (zip_code) do update set
      closed_sales = excluded.closed_sales, first_close_date = excluded.first_close_date,
      last_close_date = excluded.last_close_date, sources = excluded.sources, sale_to_list_n = excluded.sale_to_list_n,
      sale_to_list_sum = excluded.sale_to_list_sum, sale_to_list_mean = excluded.sale_to_list_mean,
      property_types = excluded.property_types, window_start = excluded.window_start, window_end = excluded.window_end,
      -- (the data date is written with a change, not compared: a day that leaves the ZIP's figures as they were
      -- leaves its row and its page alone)
      data_date = excluded.data_date, updated_at = now()
    where (z.closed_sales, z.first_close_date, z.last_close_date, z.sources, z.sale_to_list_n, z.sale_to_list_sum,
           z.sale_to_list_mean, z.property_types, z.window_start, z.window_end)
      is distinct from (excluded.closed_sales, excluded.first_close_date, excluded.last_close_date, excluded.sources,
                        excluded.sale_to_list_n, excluded.sale_to_list_sum, excluded.sale_to_list_mean,
                        excluded.property_types, excluded.window_start, excluded.window_end);

    -- per (ZIP, agent) of the agents recomputed: the search's summary, and the ZIP ranking below
    drop table if exists pg_temp.refresh_zip_sales;
    create temp table refresh_zip_sales on commit drop as
    select s.zip_code, s.agent_id,
           count(*) filter (where s.side = 'listing')::integer as closed_sales,
           coalesce(sum(s.sale_price) filter (where s.side = 'listing'), 0) as sales_volume,
           max(s.sale_date) as last_close_date,
           count(*) filter (where s.side = 'buyer')::integer as buyer_sales,
           -- one row per sale, agent and side: a sale is there twice only when the agent had both sides
           (count(*) - count(*) filter (where s.dual_agency and s.side = 'buyer'))::integer as total_sales,
           coalesce(sum(s.credit) filter (where s.side = 'listing'), 0) as listing_sides,
           coalesce(sum(s.credit) filter (where s.side = 'buyer'), 0) as buyer_sides,
           sum(s.credit) as sides,
           sum(s.credited_volume) as volume,
           coalesce(sum(s.ratio) filter (where s.side = 'listing'), 0) as sale_to_list_sum,
           count(s.ratio) filter (where s.side = 'listing')::integer as sale_to_list_n
    from pg_temp.refresh_closed_sides s
    where s.zip_code is not null
    group by s.zip_code, s.agent_id;

    -- each agent's listing-side ratios: count, exact sum, mean, standard deviation
    if v_incremental then
      delete from private.agent_listing_ratios r
      where r.agent_id in (select d.agent_id from pg_temp.refresh_dirty_agents d);
    else
      delete from private.agent_listing_ratios;
    end if;
    insert into private.agent_listing_ratios (agent_id, n, ratio_sum, mean, sd)
    select s.agent_id, count(s.ratio), sum(s.ratio), avg(s.ratio), stddev_samp(s.ratio)
    from pg_temp.refresh_closed_sides s
    where s.side = 'listing' and s.ratio is not null
    group by s.agent_id;

    -- shrinkage weight k = within-agent variance / between-agent variance of the listing-side sale-to-list
    -- (method of moments over agents with 2+ ratios), kept within 1..100; 10 when fewer than 10 agents qualify.
    -- Rounded to a whole number of sales: an import that moves the estimate a little does not change every agent's
    -- shrunk figure (and page)
    select case
             when m.agents < 10 or m.within is null then 10
             when m.var_means - m.within * m.inv_n <= 0 then 100
             else round(least(100, greatest(1, m.within / (m.var_means - m.within * m.inv_n))))
           end
    into v_k
    from (
      select count(*) as agents,
             sum((a.n - 1) * a.sd ^ 2) / nullif(sum(a.n - 1), 0) as within,
             var_samp(a.mean) as var_means,
             avg(1.0 / a.n) as inv_n
      from private.agent_listing_ratios a
      where a.n >= 2
    ) m;
    -- k moved: every agent with a ratio has a new shrunk figure, which is the full refresh
    if v_incremental and v_k is distinct from v_state.shrink_k then
      v_incremental := false;
      continue attempt;
    end if;
    exit attempt;
  end loop;

  -- Incremental: the changed agents' stored per-(ZIP, agent) rows, read once, and what their new rows change. The
  -- write below compares with them (one probe of the table per row read its pages at random: 56 s of a 1 % day at
  -- 1,000,000 agents on a cold cache), and the ranks below are recomputed only in the ZIPs where a row changed and
  -- in the primary ZIPs of the agents written, instead of every ZIP where a changed agent has a side (about all of
  -- them at that size).
  drop table if exists pg_temp.refresh_zip_stored;
  drop table if exists pg_temp.refresh_zip_moved;
  if v_incremental then
    create temp table refresh_zip_stored on commit drop as
    select s.zip_code, s.agent_id, s.closed_sales, s.sales_volume, s.last_close_date, s.buyer_sales, s.total_sales,
           s.listing_sides, s.buyer_sides, s.sides, s.volume, s.sale_to_list_sum, s.sale_to_list_n
    from public.agent_zip_sales s
    where s.agent_id in (select d.agent_id from pg_temp.refresh_dirty_agents d);
    analyze pg_temp.refresh_zip_stored;
    analyze pg_temp.refresh_zip_sales;
    -- the ZIPs whose rows change (a row new, gone or different), and each changed agent's new primary ZIP by sides
    -- and by listing sales (the orders of the figures and of the listing columns below)
    create temp table refresh_zip_moved on commit drop as
    select coalesce(f.zip_code, cur.zip_code) as zip_code
    from pg_temp.refresh_zip_sales f
    full join pg_temp.refresh_zip_stored cur on cur.zip_code = f.zip_code and cur.agent_id = f.agent_id
    where (cur.closed_sales, cur.sales_volume, cur.last_close_date, cur.buyer_sales, cur.total_sales,
           cur.listing_sides, cur.buyer_sides, cur.sides, cur.volume, cur.sale_to_list_sum, cur.sale_to_list_n)
          is distinct from (f.closed_sales, f.sales_volume, f.last_close_date, f.buyer_sales, f.total_sales,
                            f.listing_sides, f.buyer_sides, f.sides, f.volume, f.sale_to_list_sum, f.sale_to_list_n)
    union
    (select distinct on (f.agent_id) f.zip_code
     from pg_temp.refresh_zip_sales f
     order by f.agent_id, f.sides desc, f.volume desc, f.zip_code collate "C")
    union
    (select distinct on (f.agent_id) f.zip_code
     from pg_temp.refresh_zip_sales f
     where f.closed_sales > 0
     order by f.agent_id, f.closed_sales desc, f.sales_volume desc, f.zip_code collate "C");
  end if;

  -- the overall mean, the prior of an agent whose primary ZIP has none: the ZIPs' sums and the sales without a ZIP
  select round(sum(t.total) / nullif(sum(t.n), 0), 2) into v_overall
  from (
    select sum(c.sale_to_list_sum) as total, sum(c.sale_to_list_n) as n from public.zip_sales_coverage c
    union all
    select sum(p.sale_price / p.list_price * 100), count(*)
    from private.effective_sales p
    where p.zip_code is null and p.standard_status = 'Closed' and p.sale_price > 0 and p.list_price > 0
      and p.sale_date between v_start and v_end
  ) t;

  -- the agents whose figures are written: every agent, or the changed ones, the agents whose primary ZIP (either
  -- side, or listing side) is a noted ZIP, and, when the overall mean moved, the agents whose prior it is
  drop table if exists pg_temp.refresh_agents;
  create temp table refresh_agents (agent_id uuid primary key) on commit drop;
  if v_incremental then
    insert into pg_temp.refresh_agents
    select d.agent_id from pg_temp.refresh_dirty_agents d
    union
    select f.agent_id from public.agent_figures f where f.primary_zip_code in (select z.zip_code from pg_temp.refresh_zips z)
    union
    select a.id from public.agents a where a.primary_zip_code in (select z.zip_code from pg_temp.refresh_zips z)
    union
    select f.agent_id
    from public.agent_figures f
    left join public.zip_sales_coverage c on c.zip_code = f.primary_zip_code
    where v_overall is distinct from v_state.overall_sale_to_list
      and f.sale_to_list_n > 0 and c.sale_to_list_mean is null;
  else
    insert into pg_temp.refresh_agents select a.id from public.agents a;
  end if;
  analyze pg_temp.refresh_agents;
  select count(*)::integer into v_recomputed from pg_temp.refresh_agents;

  -- the per-(ZIP, agent) rows the ranks read: every row (full), or the changed agents' new rows beside the stored
  -- rows of the other agents, for every ZIP a recomputed agent may rank in and every ZIP of a recomputed agent
  drop table if exists pg_temp.refresh_zip_rows;
  if v_incremental then
    create temp table refresh_zip_rows on commit drop as
    with ranked_zips as (
      select z.zip_code from pg_temp.refresh_zips z
      union
      select m.zip_code from pg_temp.refresh_zip_moved m
      union
      select f.primary_zip_code from public.agent_figures f
      where f.agent_id in (select r.agent_id from pg_temp.refresh_agents r) and f.primary_zip_code is not null
      union
      select a.primary_zip_code from public.agents a
      where a.id in (select r.agent_id from pg_temp.refresh_agents r) and a.primary_zip_code is not null
    )
    -- one scan: a stored row is read when its ZIP is ranked or its agent recomputed (a union of two scans sorted
    -- every row it read to drop the duplicates)
    select s.zip_code, s.agent_id, s.closed_sales, s.sales_volume, s.total_sales, s.sides, s.volume
    from public.agent_zip_sales s
    where (s.zip_code in (select rz.zip_code from ranked_zips rz)
           or s.agent_id in (select r.agent_id from pg_temp.refresh_agents r))
      and s.agent_id not in (select d.agent_id from pg_temp.refresh_dirty_agents d)
    union all
    select s.zip_code, s.agent_id, s.closed_sales, s.sales_volume, s.total_sales, s.sides, s.volume
    from pg_temp.refresh_zip_sales s;
  else
    create temp table refresh_zip_rows on commit drop as
    select s.zip_code, s.agent_id, s.closed_sales, s.sales_volume, s.total_sales, s.sides, s.volume
    from pg_temp.refresh_zip_sales s;
  end if;
  analyze pg_temp.refresh_zip_rows;

  -- the per-agent statistics: computed from the sides of the agents whose sides were read, the stored ones of the
  -- other agents recomputed (their sales did not change)
  drop table if exists pg_temp.refresh_stats;
  create temp table refresh_stats on commit drop as
  with per_side as (
    select s.agent_id, s.side,
           count(*)::integer as sales,
           sum(s.credit) as sides,
           sum(s.credited_volume) as volume,
           min(s.sale_price) as price_min,
           max(s.sale_price) as price_max,
           count(s.ratio)::integer as ratio_n,
           sum(s.ratio) as ratio_sum,
           avg(s.ratio) as ratio_mean,
           stddev_samp(s.ratio) as ratio_sd,
           array_agg(s.ratio order by s.ratio) filter (where s.ratio is not null) as ratios,
           count(s.days_on_market)::integer as dom_n,
           avg(s.days_on_market) as dom_mean,
           stddev_samp(s.days_on_market) as dom_sd,
           array_agg(s.days_on_market::numeric order by s.days_on_market) filter (where s.days_on_market is not null) as doms
    from pg_temp.refresh_closed_sides s
    group by s.agent_id, s.side
  ),
  ranks as (
    select d.n, private.median_interval_rank(d.n) as j
    from (select ps.ratio_n as n from per_side ps union select ps.dom_n from per_side ps) d
  ),
  stats as (
    select ps.*,
           private.sorted_median(ps.ratios) as ratio_median,
           ps.ratios[rr.j] as ratio_median_low,
           ps.ratios[ps.ratio_n + 1 - rr.j] as ratio_median_high,
           private.t_quantile_975(ps.ratio_n - 1) * ps.ratio_sd / sqrt(ps.ratio_n::numeric) as ratio_margin,
           private.sorted_median(ps.doms) as dom_median,
           ps.doms[rd.j] as dom_median_low,
           ps.doms[ps.dom_n + 1 - rd.j] as dom_median_high,
           private.t_quantile_975(ps.dom_n - 1) * ps.dom_sd / sqrt(nullif(ps.dom_n, 0)::numeric) as dom_margin
    from per_side ps
    left join ranks rr on rr.n = ps.ratio_n
    left join ranks rd on rd.n = ps.dom_n
  ),
  per_agent as (
    select s.agent_id,
           (count(*) - count(*) filter (where s.dual_agency and s.side = 'buyer'))::integer as total_sales,
           sum(s.credit) as total_sides,
           sum(s.credited_volume) as total_volume,
           count(*) filter (where s.dual_agency and s.side = 'listing')::integer as dual_agency_sales,
           max(s.sale_date) as last_close_date,
           coalesce(array_agg(distinct s.source order by s.source) filter (where s.source is not null), '{}') as sources
    from pg_temp.refresh_closed_sides s
    group by s.agent_id
  )
  select pa.agent_id, pa.last_close_date, pa.sources,
         coalesce(l.sales, 0) as listing_sales,
         coalesce(round(l.sides, 2), 0) as listing_sides,
         coalesce(l.volume, 0) as listing_volume,
         l.price_min as listing_price_min,
         l.price_max as listing_price_max,
         coalesce(l.ratio_n, 0) as sale_to_list_n,
         l.ratio_sum as sale_to_list_sum,
         round(l.ratio_median, 2) as sale_to_list_median,
         round(l.ratio_median_low, 2) as sale_to_list_median_low,
         round(l.ratio_median_high, 2) as sale_to_list_median_high,
         round(l.ratio_mean, 2) as sale_to_list_mean,
         round(l.ratio_mean - l.ratio_margin, 2) as sale_to_list_mean_low,
         round(l.ratio_mean + l.ratio_margin, 2) as sale_to_list_mean_high,
         coalesce(l.dom_n, 0) as days_on_market_n,
         round(l.dom_median, 1) as days_on_market_median,
         round(l.dom_median_low, 1) as days_on_market_median_low,
         round(l.dom_median_high, 1) as days_on_market_median_high,
         round(l.dom_mean, 1) as days_on_market_mean,
         round(l.dom_mean - l.dom_margin, 1) as days_on_market_mean_low,
         round(l.dom_mean + l.dom_margin, 1) as days_on_market_mean_high,
         coalesce(b.sales, 0) as buyer_sales,
         coalesce(round(b.sides, 2), 0) as buyer_sides,
         coalesce(b.volume, 0) as buyer_volume,
         b.price_min as buyer_price_min,
         b.price_max as buyer_price_max,
         coalesce(b.ratio_n, 0) as buyer_paid_to_list_n,
         round(b.ratio_median, 2) as buyer_paid_to_list_median,
         round(b.ratio_median_low, 2) as buyer_paid_to_list_median_low,
         round(b.ratio_median_high, 2) as buyer_paid_to_list_median_high,
         round(b.ratio_mean, 2) as buyer_paid_to_list_mean,
         round(b.ratio_mean - b.ratio_margin, 2) as buyer_paid_to_list_mean_low,
         round(b.ratio_mean + b.ratio_margin, 2) as buyer_paid_to_list_mean_high,
         pa.total_sales,
         round(pa.total_sides, 2) as total_sides,
         pa.total_volume,
         pa.dual_agency_sales
  from per_agent pa
  left join stats l on l.agent_id = pa.agent_id and l.side = 'listing'
  left join stats b on b.agent_id = pa.agent_id and b.side = 'buyer';

  if v_incremental then
    insert into pg_temp.refresh_stats
    select f.agent_id, f.last_close_date, f.sources,
           f.listing_sales, f.listing_sides, f.listing_volume, f.listing_price_min, f.listing_price_max,
           f.sale_to_list_n, lr.ratio_sum,
           f.sale_to_list_median, f.sale_to_list_median_low, f.sale_to_list_median_high,
           f.sale_to_list_mean, f.sale_to_list_mean_low, f.sale_to_list_mean_high,
           f.days_on_market_n, f.days_on_market_median, f.days_on_market_median_low, f.days_on_market_median_high,
           f.days_on_market_mean, f.days_on_market_mean_low, f.days_on_market_mean_high,
           f.buyer_sales, f.buyer_sides, f.buyer_volume, f.buyer_price_min, f.buyer_price_max,
           f.buyer_paid_to_list_n, f.buyer_paid_to_list_median, f.buyer_paid_to_list_median_low,
           f.buyer_paid_to_list_median_high, f.buyer_paid_to_list_mean, f.buyer_paid_to_list_mean_low,
           f.buyer_paid_to_list_mean_high,
           f.total_sales, f.total_sides, f.total_volume, f.dual_agency_sales
    from public.agent_figures f
    left join private.agent_listing_ratios lr on lr.agent_id = f.agent_id
    where f.agent_id in (select r.agent_id from pg_temp.refresh_agents r)
      and f.agent_id not in (select d.agent_id from pg_temp.refresh_dirty_agents d);
  end if;

  -- the figures: the statistics with the primary ZIP's rank, share, coverage and benchmark, and the shrunk figure
  drop table if exists pg_temp.refresh_figures;
  create temp table refresh_figures on commit drop as
  -- (ZIP codes are digits: sorted as bytes, collate "C", they keep their numeric order and skip the locale's
  -- comparison)
  -- The ranks need every row of a ZIP; the primary ZIP only the rows of the agents written, so their order is taken
  -- after the ranks, over those agents' rows alone.
  with zip_ranked as (
    select z.agent_id, z.zip_code, z.total_sales, z.sides, z.volume,
           rank() over (partition by z.zip_code collate "C" order by z.sides desc, z.volume desc)::integer as zip_rank,
           count(*) over (partition by z.zip_code collate "C")::integer as zip_agents
    from pg_temp.refresh_zip_rows z
  ),
  agent_zips as (
    select zr.*,
           row_number() over (partition by zr.agent_id order by zr.sides desc, zr.volume desc, zr.zip_code collate "C") as zip_order
    from zip_ranked zr
    where zr.agent_id in (select st.agent_id from pg_temp.refresh_stats st)
  )
  select st.agent_id, v_start as window_start, v_end as window_end, st.last_close_date, st.sources,
         st.listing_sales, st.listing_sides, st.listing_volume, st.listing_price_min, st.listing_price_max,
         st.sale_to_list_n, st.sale_to_list_median, st.sale_to_list_median_low, st.sale_to_list_median_high,
         st.sale_to_list_mean, st.sale_to_list_mean_low, st.sale_to_list_mean_high,
         case when st.sale_to_list_n > 0 then round(coalesce(zc.sale_to_list_mean, v_overall), 1) end as sale_to_list_prior,
         case when st.sale_to_list_n > 0 then v_k end as sale_to_list_shrink_k,
         case when st.sale_to_list_n > 0 then
           round((st.sale_to_list_sum + v_k * round(coalesce(zc.sale_to_list_mean, v_overall), 1)) / (st.sale_to_list_n + v_k), 2)
         end as sale_to_list_shrunk,
         st.days_on_market_n, st.days_on_market_median, st.days_on_market_median_low, st.days_on_market_median_high,
         st.days_on_market_mean, st.days_on_market_mean_low, st.days_on_market_mean_high,
         st.buyer_sales, st.buyer_sides, st.buyer_volume, st.buyer_price_min, st.buyer_price_max,
         st.buyer_paid_to_list_n, st.buyer_paid_to_list_median, st.buyer_paid_to_list_median_low,
         st.buyer_paid_to_list_median_high, st.buyer_paid_to_list_mean, st.buyer_paid_to_list_mean_low,
         st.buyer_paid_to_list_mean_high,
         st.total_sales, st.total_sides, st.total_volume, st.dual_agency_sales,
         pz.zip_code as primary_zip_code,
         coalesce(pz.total_sales, 0) as zip_sales,
         coalesce(pz.sides, 0) as zip_sides,
         coalesce(pz.volume, 0) as zip_volume,
         case when pz.total_sales >= 5 then pz.zip_rank end as zip_rank,
         pz.zip_agents,
         round(pz.sides * 100 / (2 * zc.closed_sales), 1) as zip_market_share,
         case
           when pz.zip_code is null then 'Too few sales to rank: no ZIP code on the closed sales in the window'
           when pz.total_sales < 5 then
             format('Too few sales to rank: %s closed %s in %s in the window, fewer than the 5 needed',
                    pz.total_sales, case when pz.total_sales = 1 then 'sale' else 'sales' end, pz.zip_code)
         end as ranking_note,
         zb.period_end as zip_benchmark_period_end,
         zb.avg_sale_to_list_percent as zip_sale_to_list_percent,
         zb.median_dom as zip_median_days_on_market,
         st.sale_to_list_mean - zb.avg_sale_to_list_percent as sale_to_list_vs_zip,
         st.days_on_market_median - zb.median_dom as days_on_market_vs_zip,
         st.buyer_paid_to_list_mean - zb.avg_sale_to_list_percent as buyer_paid_to_list_vs_zip
  from pg_temp.refresh_stats st
  left join agent_zips pz on pz.agent_id = st.agent_id and pz.zip_order = 1
  left join public.zip_sales_coverage zc on zc.zip_code = pz.zip_code
  left join public.zip_market_benchmarks zb on zb.zip_code = pz.zip_code;
  -- the listing-side columns of agents, with their meaning unchanged ("as listing agent"). agents first, then the
  -- tables that reference them: deleting an agent locks in that order too, so the two cannot deadlock
  with listing_zip as (
    select z.agent_id, z.zip_code, z.closed_sales as sales, z.sales_volume as volume
    from pg_temp.refresh_zip_rows z
    where z.closed_sales > 0
  ),
  -- (as above: the ranks over every row of a ZIP, then each written agent's ZIPs in order, over its rows alone)
  zip_ranked as (
    select lz.*,
           rank() over (partition by lz.zip_code collate "C" order by lz.sales desc, lz.volume desc) as zip_rank,
           count(*) over (partition by lz.zip_code collate "C")::integer as agents_in_zip
    from listing_zip lz
  ),
  ranked as (
    select zr.*,
           row_number() over (partition by zr.agent_id order by zr.sales desc, zr.volume desc, zr.zip_code collate "C") as zip_order
    from zip_ranked zr
    where zr.agent_id in (select ra.agent_id from pg_temp.refresh_agents ra)
  ),
  areas as (
    select r.agent_id, array_agg(r.zip_code order by r.zip_order) as zips
    from ranked r
    group by r.agent_id
  ),
  computed as (
    select
      a.id as agent_id,
      coalesce(f.listing_sales, 0) as total_sales,
      case when f.sale_to_list_n > 0 then f.sale_to_list_mean end as avg_ratio,
      case when f.sale_to_list_n > 0 then f.sale_to_list_median end as median_ratio,
      coalesce(f.sale_to_list_n, 0) as ratio_n,
      case when f.listing_sales > 0 then f.days_on_market_mean end as avg_dom,
      case when f.listing_sales > 0 then f.days_on_market_median end as median_dom,
      coalesce(f.days_on_market_n, 0) as dom_n,
      f.listing_price_min as price_min,
      f.listing_price_max as price_max,
      pz.zip_code as primary_zip,
      pz.agents_in_zip,
      case when pz.sales >= 5 then pz.zip_rank::integer end as local_ranking,
      round(pz.sales * 100.0 / zc.closed_sales, 1) as market_share,
      coalesce(ar.zips, '{}') as service_areas,
      case
        when coalesce(f.listing_sales, 0) = 0 then 'No closed sales in the window'
        when pz.zip_code is null then 'No ZIP code on the closed sales in the window'
        when pz.sales < 5 then format('Fewer than 5 closed sales in %s in the window (%s there)', pz.zip_code, pz.sales)
      end as ranking_note
    from public.agents a
    join pg_temp.refresh_agents ra on ra.agent_id = a.id
    left join pg_temp.refresh_figures f on f.agent_id = a.id
    left join ranked pz on pz.agent_id = a.id and pz.zip_order = 1
    left join public.zip_sales_coverage zc on zc.zip_code = pz.zip_code
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

  -- the search's per-(ZIP, agent) summary: the rows gone, then the rows new or changed, found against the changed
  -- agents' stored rows (incremental) or the table (full)
  if v_incremental then
    delete from public.agent_zip_sales s
    using pg_temp.refresh_zip_stored g
    where s.zip_code = g.zip_code and s.agent_id = g.agent_id
      and not exists (select 1 from pg_temp.refresh_zip_sales f where f.zip_code = g.zip_code and f.agent_id = g.agent_id);
  else
    delete from public.agent_zip_sales s
    where not exists (select 1 from pg_temp.refresh_zip_sales f where f.zip_code = s.zip_code and f.agent_id = s.agent_id);
  end if;
  execute format($write$
  insert into public.agent_zip_sales as s
    (zip_code, agent_id, closed_sales, sales_volume, last_close_date, buyer_sales, total_sales, listing_sides,
     buyer_sides, sides, volume, sale_to_list_sum, sale_to_list_n)
  select f.zip_code, f.agent_id, f.closed_sales, f.sales_volume, f.last_close_date, f.buyer_sales, f.total_sales,
         f.listing_sides, f.buyer_sides, f.sides, f.volume, f.sale_to_list_sum, f.sale_to_list_n
  from pg_temp.refresh_zip_sales f
  -- only the rows that are new or changed: one anti-join instead of a conflict check per row (2M rows, of which a
  -- daily refresh changes few)
  where not exists (
    select 1 from %s cur
     where cur.zip_code = f.zip_code and cur.agent_id = f.agent_id
       and (cur.closed_sales, cur.sales_volume, cur.last_close_date, cur.buyer_sales, cur.total_sales,
            cur.listing_sides, cur.buyer_sides, cur.sides, cur.volume, cur.sale_to_list_sum, cur.sale_to_list_n)
           is not distinct from (f.closed_sales, f.sales_volume, f.last_close_date, f.buyer_sales, f.total_sales,
                                 f.listing_sides, f.buyer_sides, f.sides, f.volume, f.sale_to_list_sum,
                                 f.sale_to_list_n))
  on conflict (zip_code, agent_id) do update set
    closed_sales = excluded.closed_sales, sales_volume = excluded.sales_volume,
    last_close_date = excluded.last_close_date, buyer_sales = excluded.buyer_sales,
    total_sales = excluded.total_sales, listing_sides = excluded.listing_sides, buyer_sides = excluded.buyer_sides,
    sides = excluded.sides, volume = excluded.volume, sale_to_list_sum = excluded.sale_to_list_sum,
    sale_to_list_n = excluded.sale_to_list_n
  where (s.closed_sales, s.sales_volume, s.last_close_date, s.buyer_sales, s.total_sales, s.listing_sides,
         s.buyer_sides, s.sides, s.volume, s.sale_to_list_sum, s.sale_to_list_n)
    is distinct from (excluded.closed_sales, excluded.sales_volume, excluded.last_close_date, excluded.buyer_sales,
                      excluded.total_sales, excluded.listing_sides, excluded.buyer_sides, excluded.sides,
                      excluded.volume, excluded.sale_to_list_sum, excluded.sale_to_list_n)
  $write$, case when v_incremental then 'pg_temp.refresh_zip_stored' else 'public.agent_zip_sales' end);

  delete from public.agent_figures f
  where not exists (select 1 from pg_temp.refresh_figures r where r.agent_id = f.agent_id)
    and (not v_incremental or f.agent_id in (select d.agent_id from pg_temp.refresh_dirty_agents d));

  insert into public.agent_figures as f (
    agent_id, window_start, window_end, last_close_date, sources,
    listing_sales, listing_sides, listing_volume, listing_price_min, listing_price_max,
    sale_to_list_n, sale_to_list_median, sale_to_list_median_low, sale_to_list_median_high,
    sale_to_list_mean, sale_to_list_mean_low, sale_to_list_mean_high,
    sale_to_list_prior, sale_to_list_shrink_k, sale_to_list_shrunk,
    days_on_market_n, days_on_market_median, days_on_market_median_low, days_on_market_median_high,
    days_on_market_mean, days_on_market_mean_low, days_on_market_mean_high,
    buyer_sales, buyer_sides, buyer_volume, buyer_price_min, buyer_price_max,
    buyer_paid_to_list_n, buyer_paid_to_list_median, buyer_paid_to_list_median_low, buyer_paid_to_list_median_high,
    buyer_paid_to_list_mean, buyer_paid_to_list_mean_low, buyer_paid_to_list_mean_high,
    total_sales, total_sides, total_volume, dual_agency_sales,
    primary_zip_code, zip_sales, zip_sides, zip_volume, zip_rank, zip_agents, zip_market_share,
    ranking_note, zip_benchmark_period_end, zip_sale_to_list_percent, zip_median_days_on_market,
    sale_to_list_vs_zip, days_on_market_vs_zip, buyer_paid_to_list_vs_zip, data_date
  )
  select r.agent_id, r.window_start, r.window_end, r.last_close_date, r.sources,
    r.listing_sales, r.listing_sides, r.listing_volume, r.listing_price_min, r.listing_price_max,
    r.sale_to_list_n, r.sale_to_list_median, r.sale_to_list_median_low, r.sale_to_list_median_high,
    r.sale_to_list_mean, r.sale_to_list_mean_low, r.sale_to_list_mean_high,
    r.sale_to_list_prior, r.sale_to_list_shrink_k, r.sale_to_list_shrunk,
    r.days_on_market_n, r.days_on_market_median, r.days_on_market_median_low, r.days_on_market_median_high,
    r.days_on_market_mean, r.days_on_market_mean_low, r.days_on_market_mean_high,
    r.buyer_sales, r.buyer_sides, r.buyer_volume, r.buyer_price_min, r.buyer_price_max,
    r.buyer_paid_to_list_n, r.buyer_paid_to_list_median, r.buyer_paid_to_list_median_low, r.buyer_paid_to_list_median_high,
    r.buyer_paid_to_list_mean, r.buyer_paid_to_list_mean_low, r.buyer_paid_to_list_mean_high,
    r.total_sales, r.total_sides, r.total_volume, r.dual_agency_sales,
    r.primary_zip_code, r.zip_sales, r.zip_sides, r.zip_volume, r.zip_rank, r.zip_agents, r.zip_market_share,
    r.ranking_note, r.zip_benchmark_period_end, r.zip_sale_to_list_percent, r.zip_median_days_on_market,
    r.sale_to_list_vs_zip, r.days_on_market_vs_zip, r.buyer_paid_to_list_vs_zip, v_data_date
  from pg_temp.refresh_figures r
  on conflict (agent_id) do update set
    (window_start, window_end, last_close_date, sources,
     listing_sales, listing_sides, listing_volume, listing_price_min, listing_price_max,
     sale_to_list_n, sale_to_list_median, sale_to_list_median_low, sale_to_list_median_high,
     sale_to_list_mean, sale_to_list_mean_low, sale_to_list_mean_high,
     sale_to_list_prior, sale_to_list_shrink_k, sale_to_list_shrunk,
     days_on_market_n, days_on_market_median, days_on_market_median_low, days_on_market_median_high,
     days_on_market_mean, days_on_market_mean_low, days_on_market_mean_high,
     buyer_sales, buyer_sides, buyer_volume, buyer_price_min, buyer_price_max,
     buyer_paid_to_list_n, buyer_paid_to_list_median, buyer_paid_to_list_median_low, buyer_paid_to_list_median_high,
     buyer_paid_to_list_mean, buyer_paid_to_list_mean_low, buyer_paid_to_list_mean_high,
     total_sales, total_sides, total_volume, dual_agency_sales,
     primary_zip_code, zip_sales, zip_sides, zip_volume, zip_rank, zip_agents, zip_market_share,
     ranking_note, zip_benchmark_period_end, zip_sale_to_list_percent, zip_median_days_on_market,
     sale_to_list_vs_zip, days_on_market_vs_zip, buyer_paid_to_list_vs_zip, data_date, updated_at)
    = (excluded.window_start, excluded.window_end, excluded.last_close_date, excluded.sources,
     excluded.listing_sales, excluded.listing_sides, excluded.listing_volume, excluded.listing_price_min, excluded.listing_price_max,
     excluded.sale_to_list_n, excluded.sale_to_list_median, excluded.sale_to_list_median_low, excluded.sale_to_list_median_high,
     excluded.sale_to_list_mean, excluded.sale_to_list_mean_low, excluded.sale_to_list_mean_high,
     excluded.sale_to_list_prior, excluded.sale_to_list_shrink_k, excluded.sale_to_list_shrunk,
     excluded.days_on_market_n, excluded.days_on_market_median, excluded.days_on_market_median_low, excluded.days_on_market_median_high,
     excluded.days_on_market_mean, excluded.days_on_market_mean_low, excluded.days_on_market_mean_high,
     excluded.buyer_sales, excluded.buyer_sides, excluded.buyer_volume, excluded.buyer_price_min, excluded.buyer_price_max,
     excluded.buyer_paid_to_list_n, excluded.buyer_paid_to_list_median, excluded.buyer_paid_to_list_median_low, excluded.buyer_paid_to_list_median_high,
     excluded.buyer_paid_to_list_mean, excluded.buyer_paid_to_list_mean_low, excluded.buyer_paid_to_list_mean_high,
     excluded.total_sales, excluded.total_sides, excluded.total_volume, excluded.dual_agency_sales,
     excluded.primary_zip_code, excluded.zip_sales, excluded.zip_sides, excluded.zip_volume, excluded.zip_rank, excluded.zip_agents, excluded.zip_market_share,
     excluded.ranking_note, excluded.zip_benchmark_period_end, excluded.zip_sale_to_list_percent, excluded.zip_median_days_on_market,
     excluded.sale_to_list_vs_zip, excluded.days_on_market_vs_zip, excluded.buyer_paid_to_list_vs_zip, excluded.data_date, now())
  where (f.window_start, f.window_end, f.last_close_date, f.sources,
     f.listing_sales, f.listing_sides, f.listing_volume, f.listing_price_min, f.listing_price_max,
     f.sale_to_list_n, f.sale_to_list_median, f.sale_to_list_median_low, f.sale_to_list_median_high,
     f.sale_to_list_mean, f.sale_to_list_mean_low, f.sale_to_list_mean_high,
     f.sale_to_list_prior, f.sale_to_list_shrink_k, f.sale_to_list_shrunk,
     f.days_on_market_n, f.days_on_market_median, f.days_on_market_median_low, f.days_on_market_median_high,
     f.days_on_market_mean, f.days_on_market_mean_low, f.days_on_market_mean_high,
     f.buyer_sales, f.buyer_sides, f.buyer_volume, f.buyer_price_min, f.buyer_price_max,
     f.buyer_paid_to_list_n, f.buyer_paid_to_list_median, f.buyer_paid_to_list_median_low, f.buyer_paid_to_list_median_high,
     f.buyer_paid_to_list_mean, f.buyer_paid_to_list_mean_low, f.buyer_paid_to_list_mean_high,
     f.total_sales, f.total_sides, f.total_volume, f.dual_agency_sales,
     f.primary_zip_code, f.zip_sales, f.zip_sides, f.zip_volume, f.zip_rank, f.zip_agents, f.zip_market_share,
     f.ranking_note, f.zip_benchmark_period_end, f.zip_sale_to_list_percent, f.zip_median_days_on_market,
     f.sale_to_list_vs_zip, f.days_on_market_vs_zip, f.buyer_paid_to_list_vs_zip)
    is distinct from (excluded.window_start, excluded.window_end, excluded.last_close_date, excluded.sources,
     excluded.listing_sales, excluded.listing_sides, excluded.listing_volume, excluded.listing_price_min, excluded.listing_price_max,
     excluded.sale_to_list_n, excluded.sale_to_list_median, excluded.sale_to_list_median_low, excluded.sale_to_list_median_high,
     excluded.sale_to_list_mean, excluded.sale_to_list_mean_low, excluded.sale_to_list_mean_high,
     excluded.sale_to_list_prior, excluded.sale_to_list_shrink_k, excluded.sale_to_list_shrunk,
     excluded.days_on_market_n, excluded.days_on_market_median, excluded.days_on_market_median_low, excluded.days_on_market_median_high,
     excluded.days_on_market_mean, excluded.days_on_market_mean_low, excluded.days_on_market_mean_high,
     excluded.buyer_sales, excluded.buyer_sides, excluded.buyer_volume, excluded.buyer_price_min, excluded.buyer_price_max,
     excluded.buyer_paid_to_list_n, excluded.buyer_paid_to_list_median, excluded.buyer_paid_to_list_median_low, excluded.buyer_paid_to_list_median_high,
     excluded.buyer_paid_to_list_mean, excluded.buyer_paid_to_list_mean_low, excluded.buyer_paid_to_list_mean_high,
     excluded.total_sales, excluded.total_sides, excluded.total_volume, excluded.dual_agency_sales,
     excluded.primary_zip_code, excluded.zip_sales, excluded.zip_sides, excluded.zip_volume, excluded.zip_rank, excluded.zip_agents, excluded.zip_market_share,
     excluded.ranking_note, excluded.zip_benchmark_period_end, excluded.zip_sale_to_list_percent, excluded.zip_median_days_on_market,
     excluded.sale_to_list_vs_zip, excluded.days_on_market_vs_zip, excluded.buyer_paid_to_list_vs_zip);

  insert into public.figures_refreshes
    (window_start, window_end, methodology_version, closed_sales, sources, sale_to_list_shrink_k, data_date)
  select v_start, v_end, private.methodology_version(), coalesce(sum(z.closed_sales), 0)::integer,
         coalesce((select array_agg(distinct u.source order by u.source)
                   from public.zip_sales_coverage c cross join unnest(c.sources) as u(source)), '{}'),
         v_k, v_data_date
  from public.zip_sales_coverage z;


  update private.figures_refresh_state
  set window_start = v_start, window_end = v_end, methodology_version = private.methodology_version(),
      shrink_k = v_k, overall_sale_to_list = v_overall, refreshed_at = now();

  return query select v_start, v_end, v_updated,
                      case when v_incremental then 'incremental' else 'full' end, v_recomputed;
end;
$function$;

