-- "The sales behind this figure": public.agent_figure_sales(agent_id, metric, max_rows) returns, for one agent and one
-- figure, the stored value, its n, interval and window, the formula in words and the exact sales it is computed from
-- (address, close date, role, credit, list and close price, days on market, source and source record id).
--
-- Decisions:
--   * One crediting rule for the refresh and this function: private.credited_sides(window_start, window_end,
--     only_agent) credits the closed sales of a window from private.effective_transaction_sides (where accepted
--     corrections will apply). refresh_agent_metrics() is redefined to read it (same figures as before).
--   * The figures' definitions (label, unit, which sales, sample-size and interval columns, formula in words) live in
--     private.figure_metrics(), mirroring supabase/functions/_shared/methodology.ts; a test compares the two.
--   * Anyone may call it (security definer: properties and transaction_sides stay closed to visitors), but only for
--     one agent and one figure at a time and at most 2,000 rows, newest first; `truncated` says when there are more.
--   * The value comes from public.agent_figures in the same snapshot as the rows, so the two always agree even while
--     a refresh runs.
--   * The shrinkage weight k is now a whole number of sales, so a small import does not move every agent's shrunk
--     sale-to-list.

-- the exact sum behind a ZIP's mean sale-to-list, so an area of several ZIPs can be averaged without rounding, and
-- the property types sold there (what the search can filter by)
alter table public.zip_sales_coverage
  add column sale_to_list_sum numeric not null default 0,
  add column property_types text[] not null default '{}';
comment on column public.zip_sales_coverage.sale_to_list_sum is
  'Sum of ClosePrice / ListPrice x 100 over the sales with a list price (PERCENT points): an area''s mean is its sum over its n.';
comment on column public.zip_sales_coverage.property_types is 'The PropertyType values of those sales, sorted.';

/**
 * The credited sides of the closed sales (StandardStatus Closed, ClosePrice > 0) whose CloseDate lies in
 * [window_start, window_end]: one row per sale, side and known agent, with the sale's figures. The parties of a side
 * share it equally (credit 1 / parties; a party we cannot name still counts); an agent named twice on one side counts
 * once, in their first role (list before co_list, buyer before co_buyer); an agent on both sides of a sale is marked
 * dual_agency on both rows. only_agent: that agent's rows only (crediting still sees every party of their sales);
 * only_zip_codes: the sales in those ZIPs only (the area search); both null: every agent, every ZIP. ratio = ClosePrice / ListPrice x 100 (PERCENT), null without a list price; credited_volume =
 * ClosePrice x credit rounded to the cent (USD).
 */
create function private.credited_sides(
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
      from public.properties p
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
        from public.properties p
        where p.id = any(v_ids)
          and p.standard_status = 'Closed' and p.sale_price > 0
          and p.sale_date between credited_sides.window_start and credited_sides.window_end
          and (only_zip_codes is null or p.zip_code = any(only_zip_codes)));
    else
      v_ids := array(
        select p.id
        from public.properties p
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
    join public.properties c on c.id = cr.property_id
    where cr.agent_id is not null
      and (only_agent is null or cr.agent_id = only_agent);
  end if;
end;
$$;

comment on function private.credited_sides(date, date, uuid, text[]) is
  'The credited sides of the closed sales in a window (one row per sale, side and known agent): the one crediting rule of the metrics refresh and the per-agent sales function.';
revoke execute on function private.credited_sides(date, date, uuid, text[]) from public, anon, authenticated;

/** The figures an agent has and how each is computed: the SQL twin of METRICS in supabase/functions/_shared/methodology.ts. */
create function private.figure_metrics()
returns table (
  ordinal integer,
  metric text,
  label text,
  side text,
  unit text,
  decimals integer,
  rowset text,
  sample_column text,
  low_column text,
  high_column text,
  interval_method text,
  formula text
)
language sql
immutable
set search_path = ''
as $$
  select * from (values
    (1, 'listing_sales', 'Listing-side sales', 'listing', 'sales', 0, 'listing', null, null, null, null,
     'Number of closed sales in the window where the agent was the list agent or co-list agent.'),
    (2, 'listing_sides', 'Listing sides', 'listing', 'sides', 2, 'listing', 'listing_sales', null, null, null,
     'Sum of the credit over the listing-side sales: 1 per sale, 0.5 when shared with a co-list agent.'),
    (3, 'listing_volume', 'Listing-side volume', 'listing', 'usd', 2, 'listing', 'listing_sales', null, null, null,
     'Sum over the listing-side sales of sale price × credit, each rounded to the cent.'),
    (4, 'listing_price_min', 'Lowest listing-side sale price', 'listing', 'usd', 2, 'listing', 'listing_sales', null, null, null,
     'The lowest sale price among the listing-side sales.'),
    (5, 'listing_price_max', 'Highest listing-side sale price', 'listing', 'usd', 2, 'listing', 'listing_sales', null, null, null,
     'The highest sale price among the listing-side sales.'),
    (6, 'sale_to_list_median', 'Sale-to-list (median)', 'listing', 'percent', 2, 'listing-with-list-price', 'sale_to_list_n', 'sale_to_list_median_low', 'sale_to_list_median_high', 'order-statistic',
     'Median of sale price ÷ list price × 100 over the listing-side sales with a list price (the mean of the two middle values when their number is even).'),
    (7, 'sale_to_list_mean', 'Sale-to-list (mean)', 'listing', 'percent', 2, 'listing-with-list-price', 'sale_to_list_n', 'sale_to_list_mean_low', 'sale_to_list_mean_high', 'student-t',
     'Mean of sale price ÷ list price × 100 over the listing-side sales with a list price.'),
    (8, 'sale_to_list_shrunk', 'Sale-to-list (adjusted for sample size)', 'listing', 'percent', 2, 'listing-with-list-price', 'sale_to_list_n', null, null, null,
     '(Sum of sale price ÷ list price × 100 over the listing-side sales with a list price + k × the primary ZIP''s mean sale-to-list) ÷ (their number + k).'),
    (9, 'days_on_market_median', 'Days on market (median)', 'listing', 'days', 1, 'listing-with-days-on-market', 'days_on_market_n', 'days_on_market_median_low', 'days_on_market_median_high', 'order-statistic',
     'Median of DaysOnMarket over the listing-side sales that have it.'),
    (10, 'days_on_market_mean', 'Days on market (mean)', 'listing', 'days', 1, 'listing-with-days-on-market', 'days_on_market_n', 'days_on_market_mean_low', 'days_on_market_mean_high', 'student-t',
     'Mean of DaysOnMarket over the listing-side sales that have it.'),
    (11, 'buyer_sales', 'Buyer-side sales', 'buyer', 'sales', 0, 'buyer', null, null, null, null,
     'Number of closed sales in the window where the agent was the buyer agent or co-buyer agent.'),
    (12, 'buyer_sides', 'Buyer sides', 'buyer', 'sides', 2, 'buyer', 'buyer_sales', null, null, null,
     'Sum of the credit over the buyer-side sales: 1 per sale, 0.5 when shared with a co-buyer agent.'),
    (13, 'buyer_volume', 'Buyer-side volume', 'buyer', 'usd', 2, 'buyer', 'buyer_sales', null, null, null,
     'Sum over the buyer-side sales of sale price × credit, each rounded to the cent.'),
    (14, 'buyer_price_min', 'Lowest buyer-side sale price', 'buyer', 'usd', 2, 'buyer', 'buyer_sales', null, null, null,
     'The lowest sale price among the buyer-side sales.'),
    (15, 'buyer_price_max', 'Highest buyer-side sale price', 'buyer', 'usd', 2, 'buyer', 'buyer_sales', null, null, null,
     'The highest sale price among the buyer-side sales.'),
    (16, 'buyer_paid_to_list_median', 'Buyers paid vs list (median)', 'buyer', 'percent', 2, 'buyer-with-list-price', 'buyer_paid_to_list_n', 'buyer_paid_to_list_median_low', 'buyer_paid_to_list_median_high', 'order-statistic',
     'Median of sale price ÷ list price × 100 over the buyer-side sales with a list price: what the agent''s buyers paid against the asking price.'),
    (17, 'buyer_paid_to_list_mean', 'Buyers paid vs list (mean)', 'buyer', 'percent', 2, 'buyer-with-list-price', 'buyer_paid_to_list_n', 'buyer_paid_to_list_mean_low', 'buyer_paid_to_list_mean_high', 'student-t',
     'Mean of sale price ÷ list price × 100 over the buyer-side sales with a list price.'),
    (18, 'total_sales', 'Sales (both sides)', 'total', 'sales', 0, 'all', null, null, null, null,
     'Number of distinct closed sales in the window where the agent had either side (a dual-agency sale counts once).'),
    (19, 'total_sides', 'Sides (both sides)', 'total', 'sides', 2, 'all', 'total_sales', null, null, null,
     'Listing sides + buyer sides: the sum of the credit over every side the agent had.'),
    (20, 'total_volume', 'Volume (both sides)', 'total', 'usd', 2, 'all', 'total_sales', null, null, null,
     'Listing-side volume + buyer-side volume: the sum of sale price × credit over every side, each rounded to the cent.'),
    (21, 'dual_agency_sales', 'Dual-agency sales', 'total', 'sales', 0, 'dual-agency', null, null, null, null,
     'Number of sales where the agent had both the listing side and the buyer side.'),
    (22, 'zip_sides', 'Sides in the primary ZIP', 'zip', 'sides', 2, 'primary-zip', 'zip_sales', null, null, null,
     'Sum of the credit over every side the agent had in their primary ZIP (the ZIP with most of their sides); the ZIP ranking orders agents by it, ties by volume there.'),
    (23, 'zip_market_share', 'Share of the ZIP’s sides', 'zip', 'percent', 2, 'primary-zip', 'zip_sales', null, null, null,
     'Sides in the primary ZIP ÷ (2 × all closed sales in that ZIP in the window) × 100: the agent''s share of the ZIP''s transaction sides, every sale having two.')

  ) as m (ordinal, metric, label, side, unit, decimals, rowset, sample_column, low_column, high_column, interval_method, formula)
  order by 1;
$$;

comment on function private.figure_metrics() is
  'Every agent figure: label, side, unit, decimals, which sales it is computed from, its sample-size and interval columns in agent_figures and its formula in words (the twin of METRICS in _shared/methodology.ts).';
revoke execute on function private.figure_metrics() from public, anon, authenticated;


/**
 * "The sales behind this figure" for one agent and one figure (a FIGURE_METRICS key, e.g. 'sale_to_list_median'):
 * jsonb {agent_id, metric, label, unit, formula, methodology_version, value, n, interval_low, interval_high,
 * window_start, window_end, zip_code, prior, shrink_k, zip_closed_sales, total_rows, truncated, rows}. value, n and
 * the interval are the stored figures (public.agent_figures, same snapshot as the rows; null / 0 for an agent without
 * counted sales); rows are the sales the figure is computed from, newest first, at most max_rows (1-2,000): property_id,
 * address, city, state, zip_code, close_date, role, side, credit, dual_agency, list_price, close_price,
 * credited_volume (USD), sale_to_list (PERCENT, 4 decimals), days_on_market, property_type, source, source_record_id.
 * prior and shrink_k come with sale_to_list_shrunk, zip_closed_sales with the ZIP figures.
 * Errors: 22023 for an unknown metric or max_rows outside 1-2,000 (the message lists the metrics); P0002 when no agent
 * has the id. Anyone may call it; it reads sales visitors cannot read directly, one agent at a time.
 */
create function public.agent_figure_sales(agent_id uuid, metric text, max_rows integer default 2000)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_def record;
  v_figures jsonb;
  v_start date;
  v_end date;
  v_zip text;
  v_result jsonb;
begin
  if agent_figure_sales.max_rows is null or agent_figure_sales.max_rows < 1 or agent_figure_sales.max_rows > 2000 then
    raise exception 'max_rows must be between 1 and 2000, got %', agent_figure_sales.max_rows using errcode = '22023';
  end if;
  select * into v_def from private.figure_metrics() m where m.metric = agent_figure_sales.metric;
  if not found then
    raise exception 'metric must be one of: %',
      (select string_agg(m.metric, ', ' order by m.ordinal) from private.figure_metrics() m)
      using errcode = '22023';
  end if;
  if agent_figure_sales.agent_id is null
     or not exists (select 1 from public.agents a where a.id = agent_figure_sales.agent_id) then
    raise exception 'No agent has the id %', coalesce(agent_figure_sales.agent_id::text, 'null') using errcode = 'P0002';
  end if;

  select to_jsonb(f) into v_figures from public.agent_figures f where f.agent_id = agent_figure_sales.agent_id;
  if v_figures is not null then
    v_start := (v_figures ->> 'window_start')::date;
    v_end := (v_figures ->> 'window_end')::date;
    v_zip := v_figures ->> 'primary_zip_code';
  else
    select r.window_start, r.window_end into v_start, v_end
    from public.figures_refreshes r order by r.refreshed_at desc, r.id desc limit 1;
  end if;

  with behind as (
    select cs.*, p.address, p.city, p.state, p.source_record_id,
           row_number() over (order by cs.sale_date desc, cs.property_id, cs.side) as row_number
    from private.credited_sides(v_start, v_end, agent_figure_sales.agent_id) cs
    join public.properties p on p.id = cs.property_id
    where case v_def.rowset
      when 'listing' then cs.side = 'listing'
      when 'listing-with-list-price' then cs.side = 'listing' and cs.ratio is not null
      when 'listing-with-days-on-market' then cs.side = 'listing' and cs.days_on_market is not null
      when 'buyer' then cs.side = 'buyer'
      when 'buyer-with-list-price' then cs.side = 'buyer' and cs.ratio is not null
      when 'all' then true
      when 'dual-agency' then cs.side = 'listing' and cs.dual_agency
      when 'primary-zip' then cs.zip_code = v_zip
    end
  )
  select jsonb_build_object(
    'agent_id', agent_figure_sales.agent_id,
    'metric', v_def.metric,
    'label', v_def.label,
    'unit', v_def.unit,
    'formula', v_def.formula,
    'methodology_version', private.methodology_version(),
    'value', (v_figures ->> v_def.metric)::numeric,
    'n', coalesce((v_figures ->> coalesce(v_def.sample_column, v_def.metric))::integer, 0),
    'interval_low', (v_figures ->> v_def.low_column)::numeric,
    'interval_high', (v_figures ->> v_def.high_column)::numeric,
    'window_start', v_start,
    'window_end', v_end,
    'zip_code', v_zip,
    'prior', case when v_def.metric = 'sale_to_list_shrunk' then (v_figures ->> 'sale_to_list_prior')::numeric end,
    'shrink_k', case when v_def.metric = 'sale_to_list_shrunk' then (v_figures ->> 'sale_to_list_shrink_k')::numeric end,
    'zip_closed_sales', case when v_def.rowset = 'primary-zip' then (v_figures ->> 'zip_closed_sales')::integer end,
    'total_rows', (select count(*) from behind),
    'truncated', (select count(*) from behind) > agent_figure_sales.max_rows,
    'rows', coalesce((
      select jsonb_agg(jsonb_build_object(
        'property_id', b.property_id,
        'address', b.address,
        'city', b.city,
        'state', b.state,
        'zip_code', b.zip_code,
        'close_date', b.sale_date,
        'role', b.role,
        'side', b.side,
        'credit', round(b.credit, 6),
        'dual_agency', b.dual_agency,
        'list_price', b.list_price,
        'close_price', b.sale_price,
        'credited_volume', b.credited_volume,
        'sale_to_list', round(b.ratio, 4),
        'days_on_market', b.days_on_market,
        'property_type', b.property_type,
        'source', b.source,
        'source_record_id', b.source_record_id
      ) order by b.row_number)
      from behind b
      where b.row_number <= agent_figure_sales.max_rows
    ), '[]'::jsonb)
  ) into v_result;
  return v_result;
end;
$$;

comment on function public.agent_figure_sales(uuid, text, integer) is
  'The sales behind one figure of one agent (at most 2,000, newest first) with the stored value, n, interval, window and formula in words. Anyone may call it.';
revoke execute on function public.agent_figure_sales(uuid, text, integer) from public;
grant execute on function public.agent_figure_sales(uuid, text, integer) to anon, authenticated, service_role;


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
    (select max(p.sale_date) from public.properties p where p.standard_status = 'Closed' and p.sale_price > 0)
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
    from public.properties p
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
  from public.properties p
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

comment on function public.refresh_agent_metrics(integer, date) is
  'Recomputes every agent''s figures (agent_figures, both sides; the listing-side columns of agents), agent_zip_sales, zip_sales_coverage and a figures_refreshes row from the closed sales in the window (default 24 months ending at the latest close date). service_role only (importer).';

revoke execute on function public.refresh_agent_metrics(integer, date) from public, anon, authenticated;
grant execute on function public.refresh_agent_metrics(integer, date) to service_role;


-- the figures again, now credited through private.credited_sides() (the same rule, so nothing should change)
select public.refresh_agent_metrics(
  greatest(1, least(600, (extract(year from age(w.window_end + 1, w.window_start)) * 12 + extract(month from age(w.window_end + 1, w.window_start)))::integer)),
  w.window_end
)
from public.search_metrics_window() w
where exists (select 1 from public.agents a where a.metrics_refreshed_at is not null and a.metrics_window_end is not null);
