-- An accepted "wrong price or date" correction changes the figures, the sales behind each figure and the agent page's
-- recent sales and quarters, as an accepted side correction already does; the raw listing stays as the feed sent it.
--
-- Decisions:
--   * private.effective_sales is the sale as the figures see it: public.properties with the ClosePrice, CloseDate and
--     ListPrice of an accepted correction (private.agent_sale_overrides) over the feed's values. Built like
--     private.effective_transaction_sides: the rows no correction touches, then the corrected ones (a small table), so
--     a filter on close date, ZIP or id still uses the indexes of public.properties.
--   * A corrected price or date is a fact of the sale, not of one agent: every agent with a side of it (and the ZIP's
--     totals, the shrinkage prior, the overall mean) sees the corrected values. One accepted price/date correction per
--     sale, as before.
--   * Every reader of close prices and dates behind a figure reads the overlay: private.credited_sides (the metrics
--     refresh and the sales behind a figure), the ZIP totals and the window end in public.refresh_agent_metrics, and
--     the agent page's public.agent_page_sales and public.agent_page_quarters. Their bodies are otherwise unchanged
--     (the previous definitions: 20261127000300, 20261128100000).
--   * A correction may carry the right ListPrice too (agent_corrections.list_price, kept beside what our data said in
--     recorded_list_price); a price correction may give any of the three values.
--   * The pages of every agent with a side of a sale follow when its override is written or removed (their recent
--     sales print the price even when the sale is outside the figures' window).
--   * public.agent_sale_corrections also answers the list price given and the one our data had (its return type
--     changes, so it is dropped and created again, same grants).

alter table public.agent_corrections
  add column list_price numeric(14, 2) check (list_price > 0 and list_price < 10000000000),
  add column recorded_list_price numeric(14, 2);

comment on column public.agent_corrections.list_price is 'wrong_price_date: the right ListPrice, USD (optional).';
comment on column public.agent_corrections.recorded_list_price is 'The ListPrice in our data when the correction was filed, USD.';

alter table public.agent_corrections drop constraint agent_corrections_check2;
alter table public.agent_corrections add constraint agent_corrections_price_date_check
  check (kind <> 'wrong_price_date'
         or (listing_number is not null and (close_price is not null or close_date is not null or list_price is not null)));

grant insert (list_price) on public.agent_corrections to authenticated;

alter table private.agent_sale_overrides
  add column list_price numeric(14, 2) check (list_price > 0);
alter table private.agent_sale_overrides drop constraint agent_sale_overrides_check;
alter table private.agent_sale_overrides add constraint agent_sale_overrides_values_check
  check (close_price is not null or close_date is not null or list_price is not null);

comment on table private.agent_sale_overrides is
  'The ClosePrice, CloseDate and ListPrice of a sale as an accepted correction says (null: the feed''s value stands), one per sale. private.effective_sales applies them; every figure, the sales behind it and the agent page read sales through it.';


-- ---------------------------------------------------------------------------------------------------------------
-- the sale as the figures see it
-- ---------------------------------------------------------------------------------------------------------------

create view private.effective_sales as
  select p.id, p.address, p.city, p.state, p.zip_code, p.property_type, p.standard_status, p.days_on_market,
         p.source, p.source_record_id, p.list_price, p.sale_price, p.sale_date,
         p.sale_price as close_price, p.sale_date as close_date, false as corrected
    from public.properties p
   where not exists (select 1 from private.agent_sale_overrides o where o.property_id = p.id)
  union all
  select p.id, p.address, p.city, p.state, p.zip_code, p.property_type, p.standard_status, p.days_on_market,
         p.source, p.source_record_id, coalesce(o.list_price, p.list_price), coalesce(o.close_price, p.sale_price),
         coalesce(o.close_date, p.sale_date), coalesce(o.close_price, p.sale_price),
         coalesce(o.close_date, p.sale_date), true
    from private.agent_sale_overrides o
    join public.properties p on p.id = o.property_id;

comment on view private.effective_sales is
  'The sales the figures count: public.properties with accepted price and date corrections applied (private.agent_sale_overrides: ClosePrice, CloseDate, ListPrice; sale_price/close_price and sale_date/close_date carry the same value). corrected: an override applies. Read by the metrics refresh, the sales behind a figure and the agent page functions only.';
revoke all on private.effective_sales from public, anon, authenticated;

/**
 * The credited sides of the closed sales (StandardStatus Closed, ClosePrice > 0) whose CloseDate lies in
 * [window_start, window_end]: one row per sale, side and known agent, with the sale's figures. The parties of a side
 * share it equally (credit 1 / parties; a party we cannot name still counts); an agent named twice on one side counts
 * once, in their first role (list before co_list, buyer before co_buyer); an agent on both sides of a sale is marked
 * dual_agency on both rows. only_agent: that agent's rows only (crediting still sees every party of their sales);
 * only_zip_codes: the sales in those ZIPs only (the area search); both null: every agent, every ZIP. ratio = ClosePrice / ListPrice x 100 (PERCENT), null without a list price; credited_volume =
 * ClosePrice x credit rounded to the cent (USD). ClosePrice, CloseDate and ListPrice are the sale's as accepted
 * corrections say (private.effective_sales).
 */
create or replace function private.credited_sides(
  window_start date,
  window_end date,
  only_agent uuid default null,
  only_zip_codes text[] default null
)
returns table (
  property_id uuid,
  agent_id uuid,
  side text,
  role text,
  credit numeric,
  dual_agency boolean,
  zip_code text,
  property_type text,
  sale_price numeric,
  list_price numeric,
  days_on_market integer,
  sale_date date,
  source text,
  ratio numeric,
  credited_volume numeric
)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_ids uuid[];
begin
  if only_agent is null and only_zip_codes is null then
    return query
    with closed as (
      select p.id, p.zip_code, p.property_type, p.sale_price, p.list_price, p.days_on_market, p.sale_date, p.source
      from private.effective_sales p
      where p.standard_status = 'Closed' and p.sale_price > 0
        and p.sale_date between credited_sides.window_start and credited_sides.window_end
        and (only_zip_codes is null or p.zip_code = any(only_zip_codes))
    ),
    parties as (
      select e.property_id, e.side, e.agent_id,
             coalesce(e.agent_id::text, 'key:' || e.agent_key, 'mls:' || e.agent_mls_id, 'row:' || e.id::text) as party,
             min(array_position(array['list', 'co_list', 'buyer', 'co_buyer'], e.role)) as role_order
      from private.effective_transaction_sides e
      join closed c on c.id = e.property_id
      group by e.property_id, e.side, e.agent_id,
               coalesce(e.agent_id::text, 'key:' || e.agent_key, 'mls:' || e.agent_mls_id, 'row:' || e.id::text)
    ),
    credited as (
      select pa.property_id, pa.side, pa.agent_id, pa.role_order,
             1.0 / count(*) over (partition by pa.property_id, pa.side) as credit,
             count(*) over (partition by pa.property_id, pa.party) > 1 as dual_agency
      from parties pa
    )
    select cr.property_id, cr.agent_id, cr.side, (array['list', 'co_list', 'buyer', 'co_buyer'])[cr.role_order],
           cr.credit, cr.dual_agency, c.zip_code, c.property_type, c.sale_price, c.list_price, c.days_on_market, c.sale_date, c.source,
           case when c.list_price > 0 then c.sale_price / c.list_price * 100 end,
           round(c.sale_price * cr.credit, 2)
    from credited cr
    join closed c on c.id = cr.property_id
    where cr.agent_id is not null;
  else
    -- the same over a few sales (an agent's, or an area's): their ids first, through the agent's index or the ZIP's,
    -- then every party of just those sales, so the plan never depends on how fresh the table statistics are
    if only_agent is not null then
      v_ids := array(select distinct x.property_id from private.effective_transaction_sides x where x.agent_id = only_agent);
      v_ids := array(
        select p.id
        from private.effective_sales p
        where p.id = any(v_ids)
          and p.standard_status = 'Closed' and p.sale_price > 0
          and p.sale_date between credited_sides.window_start and credited_sides.window_end
          and (only_zip_codes is null or p.zip_code = any(only_zip_codes)));
    else
      v_ids := array(
        select p.id
        from private.effective_sales p
        where p.zip_code = any(only_zip_codes)
          and p.standard_status = 'Closed' and p.sale_price > 0
          and p.sale_date between credited_sides.window_start and credited_sides.window_end);
    end if;
    return query
    with parties as (
      select e.property_id, e.side, e.agent_id,
             coalesce(e.agent_id::text, 'key:' || e.agent_key, 'mls:' || e.agent_mls_id, 'row:' || e.id::text) as party,
             min(array_position(array['list', 'co_list', 'buyer', 'co_buyer'], e.role)) as role_order
      from private.effective_transaction_sides e
      where e.property_id = any(v_ids)
      group by e.property_id, e.side, e.agent_id,
               coalesce(e.agent_id::text, 'key:' || e.agent_key, 'mls:' || e.agent_mls_id, 'row:' || e.id::text)
    ),
    credited as (
      select pa.property_id, pa.side, pa.agent_id, pa.role_order,
             1.0 / count(*) over (partition by pa.property_id, pa.side) as credit,
             count(*) over (partition by pa.property_id, pa.party) > 1 as dual_agency
      from parties pa
    )
    select cr.property_id, cr.agent_id, cr.side, (array['list', 'co_list', 'buyer', 'co_buyer'])[cr.role_order],
           cr.credit, cr.dual_agency, c.zip_code, c.property_type, c.sale_price, c.list_price, c.days_on_market,
           c.sale_date, c.source,
           case when c.list_price > 0 then c.sale_price / c.list_price * 100 end,
           round(c.sale_price * cr.credit, 2)
    from credited cr
    join private.effective_sales c on c.id = cr.property_id
    where cr.agent_id is not null
      and (only_agent is null or cr.agent_id = only_agent);
  end if;
end;
$$;

/**
 * Recomputes every agent's figures from the closed sales in the window (default 24 months ending at the latest close
 * date), as migration 20261127000100 describes, the sides credited by private.credited_sides(): public.agent_figures (both sides), public.agent_zip_sales,
 * public.zip_sales_coverage, a public.figures_refreshes row, and the listing-side columns of public.agents
 * (total_sales, average/median_sale_to_list_ratio, average/median_days_on_market and their sample sizes,
 * price_range_min/max, primary_zip_code, service_areas, local_ranking by listing sales in the primary ZIP with at
 * least 5 there, total_agents_in_area, market_share = listing sales there / all closed sales there x 100,
 * ranking_note). Unchanged rows are not written. Returns the window and the number of agents rows changed.
 * One refresh at a time (advisory lock). service_role only.
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
  v_k numeric;
  v_overall numeric;
begin
  if window_months is null or window_months < 1 or window_months > 600 then
    raise exception 'window_months must be between 1 and 600, got %', window_months using errcode = '22023';
  end if;

  -- two refreshes at once would update the same agents in different orders and could deadlock; run one at a time
  perform pg_advisory_xact_lock(hashtext('public.refresh_agent_metrics'));

  v_end := coalesce(
    window_end,
    (select max(p.sale_date) from private.effective_sales p where p.standard_status = 'Closed' and p.sale_price > 0)
  );
  v_start := case when v_end is null then null else (v_end - make_interval(months => window_months))::date + 1 end;

  -- every credited side of a counted sale, with the sale's figures: read by every step below
  drop table if exists pg_temp.refresh_closed_sides;
  create temp table refresh_closed_sides on commit drop as
  select * from private.credited_sides(v_start, v_end);
  analyze pg_temp.refresh_closed_sides;

  -- what each ZIP's figures rest on
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
    group by p.zip_code
  ),
  removed as (
    delete from public.zip_sales_coverage z
    where not exists (select 1 from fresh f where f.zip_code = z.zip_code)
    returning 1
  )
  insert into public.zip_sales_coverage as z
    (zip_code, closed_sales, first_close_date, last_close_date, sources, sale_to_list_n, sale_to_list_sum,
     sale_to_list_mean, property_types, window_start, window_end)
  select f.zip_code, f.closed_sales, f.first_close_date, f.last_close_date, f.sources, f.sale_to_list_n,
         f.sale_to_list_sum, f.sale_to_list_mean, f.property_types, v_start, v_end
  from fresh f
  on conflict (zip_code) do update set
    closed_sales = excluded.closed_sales, first_close_date = excluded.first_close_date,
    last_close_date = excluded.last_close_date, sources = excluded.sources, sale_to_list_n = excluded.sale_to_list_n,
    sale_to_list_sum = excluded.sale_to_list_sum, sale_to_list_mean = excluded.sale_to_list_mean,
    property_types = excluded.property_types, window_start = excluded.window_start, window_end = excluded.window_end,
    updated_at = now()
  where (z.closed_sales, z.first_close_date, z.last_close_date, z.sources, z.sale_to_list_n, z.sale_to_list_sum,
         z.sale_to_list_mean, z.property_types, z.window_start, z.window_end)
    is distinct from (excluded.closed_sales, excluded.first_close_date, excluded.last_close_date, excluded.sources,
                      excluded.sale_to_list_n, excluded.sale_to_list_sum, excluded.sale_to_list_mean,
                      excluded.property_types, excluded.window_start, excluded.window_end);

  -- per (ZIP, agent): the search's summary, and the ZIP ranking below
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
    from (
      select s.agent_id, count(s.ratio) as n, avg(s.ratio) as mean, stddev_samp(s.ratio) as sd
      from pg_temp.refresh_closed_sides s
      where s.side = 'listing' and s.ratio is not null
      group by s.agent_id
      having count(s.ratio) >= 2
    ) a
  ) m;
  select round(avg(p.sale_price / p.list_price * 100), 2) into v_overall
  from private.effective_sales p
  where p.standard_status = 'Closed' and p.sale_price > 0 and p.list_price > 0
    and p.sale_date between v_start and v_end;

  -- the figures
  drop table if exists pg_temp.refresh_figures;
  create temp table refresh_figures on commit drop as
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
  ),
  zip_ranked as (
    select z.agent_id, z.zip_code, z.total_sales, z.sides, z.volume,
           rank() over (partition by z.zip_code order by z.sides desc, z.volume desc)::integer as zip_rank,
           count(*) over (partition by z.zip_code)::integer as zip_agents,
           row_number() over (partition by z.agent_id order by z.sides desc, z.volume desc, z.zip_code) as zip_order
    from pg_temp.refresh_zip_sales z
  )
  select pa.agent_id, v_start as window_start, v_end as window_end, pa.last_close_date, pa.sources,
         coalesce(l.sales, 0) as listing_sales,
         coalesce(round(l.sides, 2), 0) as listing_sides,
         coalesce(l.volume, 0) as listing_volume,
         l.price_min as listing_price_min,
         l.price_max as listing_price_max,
         coalesce(l.ratio_n, 0) as sale_to_list_n,
         round(l.ratio_median, 2) as sale_to_list_median,
         round(l.ratio_median_low, 2) as sale_to_list_median_low,
         round(l.ratio_median_high, 2) as sale_to_list_median_high,
         round(l.ratio_mean, 2) as sale_to_list_mean,
         round(l.ratio_mean - l.ratio_margin, 2) as sale_to_list_mean_low,
         round(l.ratio_mean + l.ratio_margin, 2) as sale_to_list_mean_high,
         case when l.ratio_n > 0 then coalesce(zc.sale_to_list_mean, v_overall) end as sale_to_list_prior,
         case when l.ratio_n > 0 then v_k end as sale_to_list_shrink_k,
         case when l.ratio_n > 0 then
           round((l.ratio_sum + v_k * coalesce(zc.sale_to_list_mean, v_overall)) / (l.ratio_n + v_k), 2)
         end as sale_to_list_shrunk,
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
         pa.dual_agency_sales,
         pz.zip_code as primary_zip_code,
         coalesce(pz.total_sales, 0) as zip_sales,
         coalesce(pz.sides, 0) as zip_sides,
         coalesce(pz.volume, 0) as zip_volume,
         case when pz.total_sales >= 5 then pz.zip_rank end as zip_rank,
         pz.zip_agents,
         zc.closed_sales as zip_closed_sales,
         round(pz.sides * 100 / (2 * zc.closed_sales), 2) as zip_market_share,
         case
           when pz.zip_code is null then 'Too few sales to rank: no ZIP code on the closed sales in the window'
           when pz.total_sales < 5 then
             format('Too few sales to rank: %s closed %s in %s in the window, fewer than the 5 needed',
                    pz.total_sales, case when pz.total_sales = 1 then 'sale' else 'sales' end, pz.zip_code)
         end as ranking_note,
         zb.period_end as zip_benchmark_period_end,
         zb.avg_sale_to_list_percent as zip_sale_to_list_percent,
         zb.median_dom as zip_median_days_on_market,
         round(l.ratio_mean, 2) - zb.avg_sale_to_list_percent as sale_to_list_vs_zip,
         round(l.dom_median, 1) - zb.median_dom as days_on_market_vs_zip,
         round(b.ratio_mean, 2) - zb.avg_sale_to_list_percent as buyer_paid_to_list_vs_zip
  from per_agent pa
  left join stats l on l.agent_id = pa.agent_id and l.side = 'listing'
  left join stats b on b.agent_id = pa.agent_id and b.side = 'buyer'
  left join zip_ranked pz on pz.agent_id = pa.agent_id and pz.zip_order = 1
  left join public.zip_sales_coverage zc on zc.zip_code = pz.zip_code
  left join public.zip_market_benchmarks zb on zb.zip_code = pz.zip_code;

  -- the listing-side columns of agents, with their meaning unchanged ("as listing agent"). agents first, then the
  -- tables that reference them: deleting an agent locks in that order too, so the two cannot deadlock
  with listing_zip as (
    select z.agent_id, z.zip_code, z.closed_sales as sales, z.sales_volume as volume
    from pg_temp.refresh_zip_sales z
    where z.closed_sales > 0
  ),
  ranked as (
    select lz.*,
           rank() over (partition by lz.zip_code order by lz.sales desc, lz.volume desc) as zip_rank,
           count(*) over (partition by lz.zip_code)::integer as agents_in_zip,
           row_number() over (partition by lz.agent_id order by lz.sales desc, lz.volume desc, lz.zip_code) as zip_order
    from listing_zip lz
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
      round(pz.sales * 100.0 / zc.closed_sales, 2) as market_share,
      coalesce(ar.zips, '{}') as service_areas,
      case
        when coalesce(f.listing_sales, 0) = 0 then 'No closed sales in the window'
        when pz.zip_code is null then 'No ZIP code on the closed sales in the window'
        when pz.sales < 5 then format('Fewer than 5 closed sales in %s in the window (%s there)', pz.zip_code, pz.sales)
      end as ranking_note
    from public.agents a
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

  -- the search's per-(ZIP, agent) summary
  with removed as (
    delete from public.agent_zip_sales s
    where not exists (select 1 from pg_temp.refresh_zip_sales f where f.zip_code = s.zip_code and f.agent_id = s.agent_id)
    returning 1
  )
  insert into public.agent_zip_sales as s
    (zip_code, agent_id, closed_sales, sales_volume, last_close_date, buyer_sales, total_sales, listing_sides,
     buyer_sides, sides, volume, sale_to_list_sum, sale_to_list_n)
  select f.zip_code, f.agent_id, f.closed_sales, f.sales_volume, f.last_close_date, f.buyer_sales, f.total_sales,
         f.listing_sides, f.buyer_sides, f.sides, f.volume, f.sale_to_list_sum, f.sale_to_list_n
  from pg_temp.refresh_zip_sales f
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
                      excluded.volume, excluded.sale_to_list_sum, excluded.sale_to_list_n);

  delete from public.agent_figures f
  where not exists (select 1 from pg_temp.refresh_figures r where r.agent_id = f.agent_id);

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
    primary_zip_code, zip_sales, zip_sides, zip_volume, zip_rank, zip_agents, zip_closed_sales, zip_market_share,
    ranking_note, zip_benchmark_period_end, zip_sale_to_list_percent, zip_median_days_on_market,
    sale_to_list_vs_zip, days_on_market_vs_zip, buyer_paid_to_list_vs_zip
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
    r.primary_zip_code, r.zip_sales, r.zip_sides, r.zip_volume, r.zip_rank, r.zip_agents, r.zip_closed_sales, r.zip_market_share,
    r.ranking_note, r.zip_benchmark_period_end, r.zip_sale_to_list_percent, r.zip_median_days_on_market,
    r.sale_to_list_vs_zip, r.days_on_market_vs_zip, r.buyer_paid_to_list_vs_zip
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
     primary_zip_code, zip_sales, zip_sides, zip_volume, zip_rank, zip_agents, zip_closed_sales, zip_market_share,
     ranking_note, zip_benchmark_period_end, zip_sale_to_list_percent, zip_median_days_on_market,
     sale_to_list_vs_zip, days_on_market_vs_zip, buyer_paid_to_list_vs_zip, updated_at)
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
     excluded.primary_zip_code, excluded.zip_sales, excluded.zip_sides, excluded.zip_volume, excluded.zip_rank, excluded.zip_agents, excluded.zip_closed_sales, excluded.zip_market_share,
     excluded.ranking_note, excluded.zip_benchmark_period_end, excluded.zip_sale_to_list_percent, excluded.zip_median_days_on_market,
     excluded.sale_to_list_vs_zip, excluded.days_on_market_vs_zip, excluded.buyer_paid_to_list_vs_zip, now())
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
     f.primary_zip_code, f.zip_sales, f.zip_sides, f.zip_volume, f.zip_rank, f.zip_agents, f.zip_closed_sales, f.zip_market_share,
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
     excluded.primary_zip_code, excluded.zip_sales, excluded.zip_sides, excluded.zip_volume, excluded.zip_rank, excluded.zip_agents, excluded.zip_closed_sales, excluded.zip_market_share,
     excluded.ranking_note, excluded.zip_benchmark_period_end, excluded.zip_sale_to_list_percent, excluded.zip_median_days_on_market,
     excluded.sale_to_list_vs_zip, excluded.days_on_market_vs_zip, excluded.buyer_paid_to_list_vs_zip);

  insert into public.figures_refreshes
    (window_start, window_end, methodology_version, closed_sales, sources, sale_to_list_shrink_k)
  select v_start, v_end, private.methodology_version(), coalesce(sum(z.closed_sales), 0)::integer,
         coalesce((select array_agg(distinct u.source order by u.source)
                   from public.zip_sales_coverage c cross join unnest(c.sources) as u(source)), '{}'),
         v_k
  from public.zip_sales_coverage z;


  return query select v_start, v_end, v_updated;
end;
$$;

/**
 * The newest closed sales of up to 100 agents (at most max_per_agent, 1-10, each), either side, with the columns the
 * agent page prints and the agent's role on each (list, co_list, buyer, co_buyer) and its side (listing, buyer).
 * Errors: 22023 for more than 100 agents or max_per_agent outside 1-10. Anyone may call it.
 */
create or replace function public.agent_page_sales(agent_ids uuid[], max_per_agent integer default 10)
returns table (
  agent_id uuid,
  id uuid,
  address text,
  city text,
  state text,
  zip_code text,
  close_date date,
  list_price numeric,
  close_price numeric,
  days_on_market integer,
  source text,
  role text,
  side text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if agent_ids is null or cardinality(agent_ids) > 100 then
    raise exception 'agent_ids must name at most 100 agents' using errcode = '22023';
  end if;
  if max_per_agent is null or max_per_agent < 1 or max_per_agent > 10 then
    raise exception 'max_per_agent must be 1 to 10' using errcode = '22023';
  end if;
  return query
    select s.agent_id, s.id, s.address, s.city, s.state, s.zip_code, s.close_date, s.list_price, s.close_price,
           s.days_on_market, s.source, s.role, s.side
      from unnest(agent_ids) as a (agent_id)
      cross join lateral (
        select a.agent_id, p.id, p.address, p.city, p.state, p.zip_code, p.close_date, p.list_price, p.close_price,
               p.days_on_market, p.source,
               (array['list', 'co_list', 'buyer', 'co_buyer'])[e.role_order] as role, e.side
          from (
            select x.property_id, x.side,
                   min(array_position(array['list', 'co_list', 'buyer', 'co_buyer'], x.role)) as role_order
              from private.effective_transaction_sides x
             where x.agent_id = a.agent_id
             group by x.property_id, x.side
          ) e
          join private.effective_sales p on p.id = e.property_id
         where p.standard_status = 'Closed' and p.close_price is not null
         order by p.sale_date desc nulls last, p.id, e.side desc
         limit max_per_agent
      ) s
     order by s.agent_id, s.close_date desc nulls last, s.id, s.side desc;
end;
$$;

/**
 * Closed sales per calendar quarter (quarter_start = its first day) inside each agent's metrics window, for up to 100
 * agents: distinct sales with either side (closed_sales), and those with the listing side and the buyer side (a
 * dual-agency sale is in both and once in closed_sales). Counted as the figures count (Closed, ClosePrice > 0), so
 * the quarters add up to agent_figures.total_sales. Errors: 22023 for more than 100 agents. Anyone may call it.
 */
create or replace function public.agent_page_quarters(agent_ids uuid[])
returns table (agent_id uuid, quarter_start date, closed_sales integer, listing_sales integer, buyer_sales integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if agent_ids is null or cardinality(agent_ids) > 100 then
    raise exception 'agent_ids must name at most 100 agents' using errcode = '22023';
  end if;
  return query
    select e.agent_id, date_trunc('quarter', p.sale_date)::date,
           count(distinct p.id)::integer,
           (count(distinct p.id) filter (where e.side = 'listing'))::integer,
           (count(distinct p.id) filter (where e.side = 'buyer'))::integer
      from private.effective_transaction_sides e
      join public.agent_figures f on f.agent_id = e.agent_id
      join private.effective_sales p on p.id = e.property_id
     where e.agent_id = any (agent_ids)
       and p.standard_status = 'Closed' and p.sale_price > 0
       and p.sale_date between f.window_start and f.window_end
     group by e.agent_id, date_trunc('quarter', p.sale_date)
     order by e.agent_id, 2;
end;
$$;


-- ---------------------------------------------------------------------------------------------------------------
-- filing and deciding a price correction with a list price
-- ---------------------------------------------------------------------------------------------------------------

/*
 * BEFORE INSERT of a correction through the API: the filer must own the profile (RLS checks it too), the sale (by
 * property_id, or by its MLS number) must be credited to the agent (not_my_sale, wrong_side, wrong_price_date) or not yet on the named side (missing_sale),
 * each kind's fields (a wrong price or date: the right ClosePrice, CloseDate and/or ListPrice) are checked with messages naming them, texts become plain text, the same pending correction is
 * refused, a filer files at most 20 a day, and the sale as our data has it is kept in recorded_*.
 */
create or replace function private.prepare_agent_correction()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_property public.properties%rowtype;
  v_sides text[];
  v_roles text[];
begin
  new.user_id := (select auth.uid());
  new.status := 'pending';
  new.decided_by := null;
  new.decided_at := null;
  new.decision_reason := null;
  if not private.owns_agent(new.user_id, new.agent_id) then
    raise exception 'Only the agent who claimed this profile can file corrections of its record.' using errcode = 'PT403';
  end if;
  new.explanation := private.plain_text(new.explanation, true);
  new.address := private.plain_text(new.address);
  new.listing_number := private.plain_text(new.listing_number);
  if pg_catalog.char_length(new.explanation) > 1000 then
    raise exception 'explanation: Keep the explanation to 1,000 characters.' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(new.listing_number) > 100 then
    raise exception 'listingNumber: An MLS number has at most 100 characters.' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(new.address) > 300 then
    raise exception 'address: Keep the address to 300 characters.' using errcode = 'PT400';
  end if;

  if new.kind = 'missing_sale' then
    if new.listing_number is null then
      raise exception 'listingNumber: Give the MLS number of the sale.' using errcode = 'PT400';
    end if;
    if new.address is null then
      raise exception 'address: Give the address of the sale.' using errcode = 'PT400';
    end if;
    if new.side is null then
      raise exception 'side: Say which side of the sale you had.' using errcode = 'PT400';
    end if;
    new.property_id := private.listing_by_mls_number(new.listing_number);
    new.close_price := null;
    new.close_date := null;
    new.list_price := null;
    if new.property_id is not null and exists (
      select 1 from private.effective_transaction_sides e
       where e.property_id = new.property_id and e.agent_id = new.agent_id and e.side = new.side) then
      raise exception 'This sale is already credited to you on the % side.', new.side using errcode = 'PT409';
    end if;
  else
    if new.property_id is null and new.listing_number is not null then
      new.property_id := private.listing_by_mls_number(new.listing_number);
      if new.property_id is null then
        raise exception 'listingNumber: No sale with this MLS number is in our data.' using errcode = 'PT400';
      end if;
    end if;
    if new.property_id is null then
      raise exception 'listingNumber: Pick the sale from your sales, or give its MLS number.' using errcode = 'PT400';
    end if;
    select array_agg(e.side order by e.role), array_agg(e.role order by array_position(array['list', 'co_list', 'buyer', 'co_buyer'], e.role))
      into v_sides, v_roles
      from private.effective_transaction_sides e
     where e.property_id = new.property_id and e.agent_id = new.agent_id;
    if v_roles is null then
      raise exception 'This sale is not credited to you, so there is nothing to correct.' using errcode = 'PT400';
    end if;
    new.recorded_role := v_roles[1];
    if new.kind = 'wrong_side' then
      if new.side is null then
        raise exception 'side: Say which side of the sale you had.' using errcode = 'PT400';
      end if;
      if new.side = all (v_sides) then
        raise exception 'side: You are credited with the % side already; pick the side you had.', new.side using errcode = 'PT400';
      end if;
    else
      new.side := null;
    end if;
    if new.kind <> 'wrong_price_date' then
      new.close_price := null;
      new.close_date := null;
      new.list_price := null;
    end if;
  end if;

  if new.property_id is not null then
    select * into v_property from public.properties p where p.id = new.property_id;
    new.recorded_close_price := v_property.sale_price;
    new.recorded_close_date := v_property.sale_date;
    new.recorded_list_price := v_property.list_price;
    new.address := coalesce(new.address, v_property.address);
    new.listing_number := coalesce(new.listing_number, v_property.source_record_id);
  end if;

  if new.kind = 'wrong_price_date' then
    if new.listing_number is null then
      raise exception 'listingNumber: Give the MLS number of the sale.' using errcode = 'PT400';
    end if;
    if new.close_price is null and new.close_date is null and new.list_price is null then
      raise exception 'closePrice: Give the right close price, close date or list price.' using errcode = 'PT400';
    end if;
    if new.close_date > current_date then
      raise exception 'closeDate: A close date cannot be in the future.' using errcode = 'PT400';
    end if;
    if new.close_price is not distinct from new.recorded_close_price then
      new.close_price := null;
    end if;
    if new.close_date is not distinct from new.recorded_close_date then
      new.close_date := null;
    end if;
    if new.list_price is not distinct from new.recorded_list_price then
      new.list_price := null;
    end if;
    if new.close_price is null and new.close_date is null and new.list_price is null then
      raise exception 'closePrice: That is the close price, close date and list price we have already.' using errcode = 'PT400';
    end if;
  end if;

  if exists (
    select 1 from public.agent_corrections c
     where c.agent_id = new.agent_id and c.kind = new.kind and c.status = 'pending'
       and (c.property_id = new.property_id
            or (new.property_id is null and pg_catalog.lower(c.listing_number) = pg_catalog.lower(new.listing_number)))) then
    raise exception 'You have already filed this correction; it is waiting for review.' using errcode = 'PT409';
  end if;
  perform private.enforce_agent_rate_limit('correction', new.user_id, 20, 86400,
    'You have filed 20 corrections today. Please wait until tomorrow to file more.');
  return new;
end;
$$;

/**
 * An administrator's decision on a pending correction, mailed to the agent with the reason:
 *   'accept': the correction applies (overrides, see private.apply_side_correction and agent_sale_overrides) and the
 *     figures are recomputed at once (refresh_agent_metrics over the window shown); the raw record is not touched;
 *   'reject': it does not apply (reason required).
 * Errors: 42501 not an administrator at aal2; PT404 unknown correction; PT409 not pending, or nothing in our data it
 * can apply to (the message says what); PT400 a missing reason. Returns the correction as stored.
 */
create or replace function public.decide_agent_correction(correction uuid, decision text, reason text default null)
returns public.agent_corrections
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_correction public.agent_corrections%rowtype;
  v_reason text := nullif(pg_catalog.btrim(coalesce(reason, '')), '');
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators decide corrections.' using errcode = '42501';
  end if;
  if decision is null or decision not in ('accept', 'reject') then
    raise exception 'decision must be accept or reject' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(v_reason) > 1000 then
    raise exception 'reason: Keep the reason to 1,000 characters.' using errcode = 'PT400';
  end if;
  select * into v_correction from public.agent_corrections c where c.id = correction for update;
  if not found then
    raise exception 'No correction has this id.' using errcode = 'PT404';
  end if;
  if v_correction.status <> 'pending' then
    raise exception 'Only a pending correction can be decided; this one is %.', v_correction.status using errcode = 'PT409';
  end if;
  if decision = 'reject' then
    if v_reason is null then
      raise exception 'reason: Give a reason: it is mailed to the agent.' using errcode = 'PT400';
    end if;
    update public.agent_corrections c
       set status = 'rejected', decided_by = (select auth.uid()), decided_at = now(), decision_reason = v_reason
     where c.id = correction
    returning * into v_correction;
    perform private.add_agent_notice(v_correction.user_id, 'correction_rejected', v_correction.agent_id, correction, v_reason,
      jsonb_build_object('kind', v_correction.kind, 'address', v_correction.address, 'listing_number', v_correction.listing_number));
    return v_correction;
  end if;

  -- a missing sale whose listing arrived since it was filed
  if v_correction.kind = 'missing_sale' and v_correction.property_id is null then
    v_correction.property_id := private.listing_by_mls_number(v_correction.listing_number);
  end if;
  if v_correction.kind <> 'missing_sale' and v_correction.property_id is null then
    raise exception 'The sale is no longer in our data, so the correction cannot apply.' using errcode = 'PT409';
  end if;
  if v_correction.kind = 'wrong_price_date' then
    if exists (select 1 from private.agent_sale_overrides o
                where o.property_id = v_correction.property_id and o.correction_id <> v_correction.id) then
      raise exception 'Another accepted correction already sets the price and date of this sale.' using errcode = 'PT409';
    end if;
    insert into private.agent_sale_overrides (correction_id, property_id, close_price, close_date, list_price)
    values (v_correction.id, v_correction.property_id, v_correction.close_price, v_correction.close_date,
            v_correction.list_price);
  else
    perform private.apply_side_correction(v_correction);
  end if;
  update public.agent_corrections c
     set status = 'accepted', property_id = v_correction.property_id, decided_by = (select auth.uid()),
         decided_at = now(), decision_reason = v_reason
   where c.id = correction
  returning * into v_correction;
  perform private.refresh_figures_for_correction();
  perform private.add_agent_notice(v_correction.user_id, 'correction_accepted', v_correction.agent_id, correction, v_reason,
    jsonb_build_object('kind', v_correction.kind, 'address', v_correction.address, 'listing_number', v_correction.listing_number));
  return v_correction;
end;
$$;

drop function public.agent_sale_corrections(uuid[]);

/**
 * The accepted corrections of an agent's record, newest decision first, as visitors see them beside the sales: the
 * sale (property_id, address, MLS number), the kind, the side the agent had (wrong_side, missing_sale), the close
 * price, date and list price (USD) the correction gives (wrong_price_date) next to the ones our data had, and when it was
 * accepted. Nothing the agent or the administrator wrote. Anyone may call it; at most 100 agents a call.
 */
create function public.agent_sale_corrections(agent_ids uuid[])
returns table (
  agent_id uuid,
  correction_id uuid,
  property_id uuid,
  kind text,
  address text,
  listing_number text,
  side text,
  close_price numeric,
  close_date date,
  recorded_close_price numeric,
  recorded_close_date date,
  accepted_at timestamptz,
  list_price numeric,
  recorded_list_price numeric
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if agent_ids is null or pg_catalog.cardinality(agent_ids) > 100 then
    raise exception 'agent_ids must name at most 100 agents' using errcode = '22023';
  end if;
  return query
    select c.agent_id, c.id, c.property_id, c.kind, c.address, c.listing_number, c.side, c.close_price, c.close_date,
           c.recorded_close_price, c.recorded_close_date, c.decided_at, c.list_price, c.recorded_list_price
      from public.agent_corrections c
     where c.agent_id = any (agent_ids) and c.status = 'accepted'
     order by c.agent_id, c.decided_at desc, c.id;
end;
$$;

comment on function public.agent_sale_corrections(uuid[]) is
  'Accepted corrections of agents'' records (sale, kind, corrected values, when accepted) for the profile and the sales behind a figure; anyone, at most 100 agents a call.';
revoke execute on function public.agent_sale_corrections(uuid[]) from public;
grant execute on function public.agent_sale_corrections(uuid[]) to anon, authenticated, service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- the pages that print the sale
-- ---------------------------------------------------------------------------------------------------------------

/* New versions for the pages of every agent with a side of a sale whose accepted price or date changed. */
create function private.track_sale_override_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.bump_agent_pages(array(
      select distinct e.agent_id from private.effective_transaction_sides e
       where e.property_id in (select n.property_id from new_rows n) and e.agent_id is not null));
  else
    perform private.bump_agent_pages(array(
      select distinct e.agent_id from private.effective_transaction_sides e
       where e.property_id in (select o.property_id from old_rows o) and e.agent_id is not null));
  end if;
  return null;
end;
$$;

revoke execute on function private.track_sale_override_pages() from public, anon, authenticated;

create trigger agent_sale_overrides_track_pages_insert after insert on private.agent_sale_overrides
  referencing new table as new_rows for each statement execute function private.track_sale_override_pages();
create trigger agent_sale_overrides_track_pages_delete after delete on private.agent_sale_overrides
  referencing old table as old_rows for each statement execute function private.track_sale_override_pages();
