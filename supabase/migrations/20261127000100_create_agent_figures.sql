-- Figures per side: listing side, buyer side and totals for every agent, with their sample sizes, 95 % intervals,
-- a small-sample-fair (shrunk) sale-to-list, the ZIP's own figures and the agent's data date and sources.
--
-- Decisions (the methodology module supabase/functions/_shared/methodology.ts says the same in words; its version is
-- private.methodology_version()):
--   * A sale counts when standard_status is Closed, ClosePrice > 0 and CloseDate lies in the window (the
--     window_months ending at the latest close date in the data, both ends included).
--   * Sides come from private.effective_transaction_sides. The agents on one side share it equally (an agent and a
--     co-agent get half each); the same agent named twice on one side counts once; an agent on both sides of a sale
--     (dual agency) gets both sides, each counted once, and the sale is marked.
--   * Counts (listing_sales, buyer_sales, total_sales) count sales; sides sum the credit; volume sums ClosePrice x
--     credit, rounded to the cent per side. Rates and medians use every sale of the side whatever its credit.
--   * Medians get a 95 % distribution-free interval from order statistics (the binomial method: the j-th smallest
--     and j-th largest values, j the largest rank with P(Binomial(n, 1/2) < j) <= 2.5 %; none below 6 values);
--     means get a 95 % Student t interval (none below 2 values).
--   * Sale-to-list is also given shrunk toward the agent's primary ZIP (empirical Bayes, normal-normal):
--     (sum of ratios + k x prior) / (n + k), prior = the mean sale-to-list of all closed sales in that ZIP in the
--     window, k = within-agent variance / between-agent variance estimated over all agents with 2+ ratios
--     (method of moments, kept within 1..100; 10 when fewer than 10 agents qualify).
--   * Ranking in the primary ZIP (the ZIP with most of the agent's sides) is by sides there, ties by volume there;
--     an agent with fewer than 5 closed sales in that ZIP is not ranked and ranking_note says why.
--   * "vs ZIP" compares with the ZIP's Redfin benchmark row (zip_market_benchmarks): the agent's mean sale-to-list
--     and mean paid-to-list against the ZIP's average sale-to-list, the agent's median days on market against the
--     ZIP's median days on market.
--   * agents keeps its listing-side columns (total_sales, average_/median_sale_to_list_ratio, ..., local_ranking)
--     with their meaning ("as listing agent"), now counted from the listing sides; agent_zip_sales gains the sides.
--   * Stored, not computed per request: pages are prebuilt, and the refresh runs once per import.

create function private.methodology_version()
returns text
language sql
immutable
set search_path = ''
as $$ select '2' $$;

comment on function private.methodology_version() is
  'The version of the figures methodology the refresh implements (supabase/functions/_shared/methodology.ts METHODOLOGY_VERSION).';
revoke execute on function private.methodology_version() from public, anon, authenticated;


/**
 * The rank j of the 95 % distribution-free interval of a median of n values: the interval runs from the j-th smallest
 * to the j-th largest value. j is the largest rank with P(X <= j - 1) <= 0.025 for X ~ Binomial(n, 1/2), so the
 * interval covers the median with probability >= 95 %. Null below 6 values (even min..max covers less than 95 %).
 * Summed in log space so large n does not underflow.
 */
create function private.median_interval_rank(n integer)
returns integer
language plpgsql
immutable
strict
set search_path = ''
as $$
declare
  v_log_p double precision := -n * ln(2::double precision);
  v_cdf double precision := 0;
  v_k integer := 0;
begin
  if n < 6 then
    return null;
  end if;
  loop
    if v_log_p > -700 then
      v_cdf := v_cdf + exp(v_log_p);
    end if;
    exit when v_cdf > 0.025;
    v_k := v_k + 1;
    v_log_p := v_log_p + ln((n - v_k + 1)::double precision) - ln(v_k::double precision);
  end loop;
  return v_k;
end;
$$;

comment on function private.median_interval_rank(integer) is
  'Rank j of the 95 % order-statistic interval of a median of n values (binomial method); null below 6.';
revoke execute on function private.median_interval_rank(integer) from public, anon, authenticated;


/**
 * The 97.5 % quantile of Student's t distribution with df degrees of freedom (the factor of a two-sided 95 %
 * interval), to three decimals: the printed table for df 1-30, the Cornish-Fisher expansion beyond.
 */
create function private.t_quantile_975(df integer)
returns numeric
language sql
immutable
strict
set search_path = ''
as $$
  -- z = 1.959963984540054, the normal 97.5 % quantile; one expression so the planner inlines it
  select case
    when df < 1 then null
    when df <= 30 then (array[12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                              2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                              2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]::numeric[])[df]
    else round((1.959963984540054::double precision
                + (1.959963984540054::double precision ^ 3 + 1.959963984540054) / (4 * df)
                + (5 * 1.959963984540054::double precision ^ 5 + 16 * 1.959963984540054::double precision ^ 3
                   + 3 * 1.959963984540054) / (96 * df::double precision ^ 2)
                + (3 * 1.959963984540054::double precision ^ 7 + 19 * 1.959963984540054::double precision ^ 5
                   + 17 * 1.959963984540054::double precision ^ 3 - 15 * 1.959963984540054)
                  / (384 * df::double precision ^ 3))::numeric, 3)
  end;
$$;

comment on function private.t_quantile_975(integer) is
  '97.5 % quantile of Student''s t with df degrees of freedom, three decimals (table to 30, Cornish-Fisher beyond).';
revoke execute on function private.t_quantile_975(integer) from public, anon, authenticated;


/** The median of an ascending array (the mean of the two middle values for an even count); null when empty. */
create function private.sorted_median(sorted numeric[])
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case when pg_catalog.cardinality(sorted) > 0
    then (sorted[(pg_catalog.cardinality(sorted) + 1) / 2] + sorted[(pg_catalog.cardinality(sorted) + 2) / 2]) / 2
  end;
$$;

revoke execute on function private.sorted_median(numeric[]) from public, anon, authenticated;


-- agent_zip_sales: the sides next to the listing-side counts it always had
alter table public.agent_zip_sales
  drop constraint agent_zip_sales_closed_sales_check,
  drop constraint agent_zip_sales_sales_volume_check,
  add constraint agent_zip_sales_closed_sales_check check (closed_sales >= 0),
  add constraint agent_zip_sales_sales_volume_check check (sales_volume >= 0),
  add column buyer_sales integer not null default 0 check (buyer_sales >= 0),
  add column total_sales integer not null default 0 check (total_sales >= 0),
  add column listing_sides numeric(10, 2) not null default 0 check (listing_sides >= 0),
  add column buyer_sides numeric(10, 2) not null default 0 check (buyer_sides >= 0),
  add column sides numeric(10, 2) not null default 0 check (sides >= 0),
  add column volume numeric(16, 2) not null default 0 check (volume >= 0),
  add column sale_to_list_sum numeric not null default 0,
  add column sale_to_list_n integer not null default 0 check (sale_to_list_n >= 0);

comment on table public.agent_zip_sales is
  'Closed sales per ZIP and agent in the metrics window of the latest refresh_agent_metrics() run, both sides (search ranking, ZIP pages). Anyone reads; refresh_agent_metrics() writes.';
comment on column public.agent_zip_sales.closed_sales is 'Sales where the agent had the listing side (list or co-list agent) in the ZIP inside the window; 0 for an agent with buyer sides only.';
comment on column public.agent_zip_sales.sales_volume is 'Sum of the ClosePrice of those listing-side sales, USD (not split between co-agents).';
comment on column public.agent_zip_sales.last_close_date is 'Latest CloseDate among the agent''s sales there (either side).';
comment on column public.agent_zip_sales.buyer_sales is 'Sales where the agent had the buyer side (buyer or co-buyer agent).';
comment on column public.agent_zip_sales.total_sales is 'Distinct sales with either side (a dual-agency sale counts once).';
comment on column public.agent_zip_sales.listing_sides is 'Listing sides credited (1 per sale, 0.5 when shared with a co-agent).';
comment on column public.agent_zip_sales.buyer_sides is 'Buyer sides credited.';
comment on column public.agent_zip_sales.sides is 'listing_sides + buyer_sides: what the ZIP and address searches rank by.';
comment on column public.agent_zip_sales.volume is 'Sum of ClosePrice x credit over both sides, USD (ties of sides are broken by it).';
comment on column public.agent_zip_sales.sale_to_list_sum is 'Sum of ClosePrice / ListPrice x 100 over the listing-side sales with a list price (PERCENT points).';
comment on column public.agent_zip_sales.sale_to_list_n is 'How many listing-side sales have a list price.';

drop function public.refresh_agent_zip_sales(date, date);


create table public.agent_figures (
  agent_id uuid primary key references public.agents (id) on delete cascade,
  window_start date not null,
  window_end date not null,
  last_close_date date not null,
  sources text[] not null default '{}',
  listing_sales integer not null default 0 check (listing_sales >= 0),
  listing_sides numeric(10, 2) not null default 0 check (listing_sides >= 0),
  listing_volume numeric(16, 2) not null default 0 check (listing_volume >= 0),
  listing_price_min numeric(14, 2),
  listing_price_max numeric(14, 2),
  sale_to_list_n integer not null default 0 check (sale_to_list_n >= 0),
  sale_to_list_median numeric(7, 2),
  sale_to_list_median_low numeric(7, 2),
  sale_to_list_median_high numeric(7, 2),
  sale_to_list_mean numeric(7, 2),
  sale_to_list_mean_low numeric(7, 2),
  sale_to_list_mean_high numeric(7, 2),
  sale_to_list_prior numeric(7, 2),
  sale_to_list_shrink_k numeric(7, 3),
  sale_to_list_shrunk numeric(7, 2),
  days_on_market_n integer not null default 0 check (days_on_market_n >= 0),
  days_on_market_median numeric(7, 1),
  days_on_market_median_low numeric(7, 1),
  days_on_market_median_high numeric(7, 1),
  days_on_market_mean numeric(7, 1),
  days_on_market_mean_low numeric(7, 1),
  days_on_market_mean_high numeric(7, 1),
  buyer_sales integer not null default 0 check (buyer_sales >= 0),
  buyer_sides numeric(10, 2) not null default 0 check (buyer_sides >= 0),
  buyer_volume numeric(16, 2) not null default 0 check (buyer_volume >= 0),
  buyer_price_min numeric(14, 2),
  buyer_price_max numeric(14, 2),
  buyer_paid_to_list_n integer not null default 0 check (buyer_paid_to_list_n >= 0),
  buyer_paid_to_list_median numeric(7, 2),
  buyer_paid_to_list_median_low numeric(7, 2),
  buyer_paid_to_list_median_high numeric(7, 2),
  buyer_paid_to_list_mean numeric(7, 2),
  buyer_paid_to_list_mean_low numeric(7, 2),
  buyer_paid_to_list_mean_high numeric(7, 2),
  total_sales integer not null check (total_sales > 0),
  total_sides numeric(10, 2) not null check (total_sides > 0),
  total_volume numeric(16, 2) not null check (total_volume >= 0),
  dual_agency_sales integer not null default 0 check (dual_agency_sales >= 0),
  primary_zip_code text,
  zip_sales integer not null default 0 check (zip_sales >= 0),
  zip_sides numeric(10, 2) not null default 0 check (zip_sides >= 0),
  zip_volume numeric(16, 2) not null default 0 check (zip_volume >= 0),
  zip_rank integer check (zip_rank >= 1),
  zip_agents integer check (zip_agents >= 1),
  zip_closed_sales integer check (zip_closed_sales >= 1),
  zip_market_share numeric(5, 2) check (zip_market_share between 0 and 100),
  ranking_note text check (char_length(ranking_note) <= 300),
  zip_benchmark_period_end date,
  zip_sale_to_list_percent numeric(6, 2),
  zip_median_days_on_market numeric(6, 1),
  sale_to_list_vs_zip numeric(7, 2),
  days_on_market_vs_zip numeric(7, 1),
  buyer_paid_to_list_vs_zip numeric(7, 2),
  updated_at timestamptz not null default now(),
  check (window_start <= window_end),
  check (zip_rank <= zip_agents)
);

comment on table public.agent_figures is
  'Every figure of an agent with at least one closed sale (either side) in the metrics window, per side, with sample sizes, 95 % intervals, the shrunk sale-to-list, ZIP rank and the ZIP''s own figures. Written by refresh_agent_metrics(); anyone reads. Units: PERCENT 0-100 for ratios and shares, USD for prices and volumes, days for days on market. The methodology (formulas, exclusions, crediting, small samples) is supabase/functions/_shared/methodology.ts.';
comment on column public.agent_figures.window_start is 'First close date counted (inclusive).';
comment on column public.agent_figures.window_end is 'Last close date counted (inclusive): the latest close date in the data when the refresh ran.';
comment on column public.agent_figures.last_close_date is 'The agent''s latest counted close date: the date their figures are current to.';
comment on column public.agent_figures.sources is 'properties.source of the agent''s counted sales (the feeds the figures come from).';
comment on column public.agent_figures.listing_sales is 'Sales where the agent was list or co-list agent.';
comment on column public.agent_figures.listing_sides is 'Listing sides credited: 1 per sale, 0.5 when shared with a co-list agent.';
comment on column public.agent_figures.listing_volume is 'Sum over listing sides of ClosePrice x credit, each rounded to the cent, USD.';
comment on column public.agent_figures.sale_to_list_n is 'Listing-side sales with a list price (the sample of the sale-to-list figures).';
comment on column public.agent_figures.sale_to_list_median is 'Median of ClosePrice / ListPrice x 100 over those sales, PERCENT.';
comment on column public.agent_figures.sale_to_list_median_low is '95 % order-statistic interval of that median, low end (null below 6 sales).';
comment on column public.agent_figures.sale_to_list_mean is 'Mean of ClosePrice / ListPrice x 100, PERCENT.';
comment on column public.agent_figures.sale_to_list_mean_low is '95 % Student t interval of that mean, low end (null below 2 sales).';
comment on column public.agent_figures.sale_to_list_prior is 'The primary ZIP''s mean sale-to-list over all its closed sales in the window (the shrinkage target), PERCENT.';
comment on column public.agent_figures.sale_to_list_shrink_k is 'Shrinkage weight k (in sales) of the prior, the same for every agent of a refresh.';
comment on column public.agent_figures.sale_to_list_shrunk is '(sum of the ratios + k x prior) / (n + k): sale-to-list pulled toward the ZIP in proportion to how few sales back it, PERCENT. What sorting by sale-to-list uses.';
comment on column public.agent_figures.days_on_market_n is 'Listing-side sales with DaysOnMarket.';
comment on column public.agent_figures.buyer_sales is 'Sales where the agent was buyer or co-buyer agent.';
comment on column public.agent_figures.buyer_paid_to_list_n is 'Buyer-side sales with a list price.';
comment on column public.agent_figures.buyer_paid_to_list_median is 'Median of ClosePrice / ListPrice x 100 over buyer-side sales: what the agent''s buyers paid against list, PERCENT.';
comment on column public.agent_figures.total_sales is 'Distinct sales with either side (a dual-agency sale counts once).';
comment on column public.agent_figures.total_sides is 'listing_sides + buyer_sides.';
comment on column public.agent_figures.total_volume is 'listing_volume + buyer_volume, USD.';
comment on column public.agent_figures.dual_agency_sales is 'Sales where the agent had both sides.';
comment on column public.agent_figures.primary_zip_code is 'The ZIP with most of the agent''s sides (ties: volume, then the lowest ZIP).';
comment on column public.agent_figures.zip_sales is 'The agent''s distinct sales in the primary ZIP.';
comment on column public.agent_figures.zip_sides is 'The agent''s sides in the primary ZIP.';
comment on column public.agent_figures.zip_rank is 'Rank among the agents with a side in the primary ZIP by sides there, ties by volume there (1 is best); null with ranking_note below 5 sales there.';
comment on column public.agent_figures.zip_agents is 'Agents with a side in the primary ZIP.';
comment on column public.agent_figures.zip_closed_sales is 'All closed sales in the primary ZIP in the window (any agent or none).';
comment on column public.agent_figures.zip_market_share is 'zip_sides / (2 x zip_closed_sales) x 100: the share of the ZIP''s transaction sides (every sale has two), PERCENT.';
comment on column public.agent_figures.zip_sale_to_list_percent is 'The primary ZIP''s average sale-to-list from its Redfin benchmark row, PERCENT.';
comment on column public.agent_figures.zip_median_days_on_market is 'The primary ZIP''s median days on market from its Redfin benchmark row.';
comment on column public.agent_figures.sale_to_list_vs_zip is 'sale_to_list_mean - zip_sale_to_list_percent, percentage points.';
comment on column public.agent_figures.days_on_market_vs_zip is 'days_on_market_median - zip_median_days_on_market, days.';
comment on column public.agent_figures.buyer_paid_to_list_vs_zip is 'buyer_paid_to_list_mean - zip_sale_to_list_percent, percentage points.';
comment on column public.agent_figures.updated_at is 'When a figure of the row last changed (a refresh that changes nothing leaves it).';

create index agent_figures_primary_zip_code_idx on public.agent_figures (primary_zip_code);

alter table public.agent_figures enable row level security;
revoke all on public.agent_figures from public, anon, authenticated;
grant select on public.agent_figures to anon, authenticated;
grant all on public.agent_figures to service_role;
create policy "Agent figures are readable by anyone" on public.agent_figures
  for select to anon, authenticated
  using (true);


create table public.zip_sales_coverage (
  zip_code text primary key,
  closed_sales integer not null check (closed_sales > 0),
  first_close_date date not null,
  last_close_date date not null,
  sources text[] not null default '{}',
  sale_to_list_n integer not null default 0 check (sale_to_list_n >= 0),
  sale_to_list_mean numeric(7, 2),
  window_start date not null,
  window_end date not null,
  updated_at timestamptz not null default now(),
  check (first_close_date <= last_close_date)
);

comment on table public.zip_sales_coverage is
  'What our figures of a ZIP rest on: its closed sales in the metrics window, their date range and sources, and their mean sale-to-list (the shrinkage target). Written by refresh_agent_metrics(); anyone reads.';
comment on column public.zip_sales_coverage.closed_sales is 'Closed sales (ClosePrice > 0) in the ZIP in the window, with or without a known agent.';
comment on column public.zip_sales_coverage.sources is 'properties.source of those sales.';
comment on column public.zip_sales_coverage.sale_to_list_mean is 'Mean of ClosePrice / ListPrice x 100 over those with a list price, PERCENT.';

alter table public.zip_sales_coverage enable row level security;
revoke all on public.zip_sales_coverage from public, anon, authenticated;
grant select on public.zip_sales_coverage to anon, authenticated;
grant all on public.zip_sales_coverage to service_role;
create policy "ZIP coverage is readable by anyone" on public.zip_sales_coverage
  for select to anon, authenticated
  using (true);


create table public.figures_refreshes (
  id bigint generated always as identity primary key,
  window_start date,
  window_end date,
  methodology_version text not null,
  closed_sales integer not null default 0 check (closed_sales >= 0),
  sources text[] not null default '{}',
  sale_to_list_shrink_k numeric(7, 3),
  refreshed_at timestamptz not null default now(),
  check (window_start <= window_end)
);

comment on table public.figures_refreshes is
  'One row per refresh_agent_metrics() run: the window, the data date (window_end = the latest close date), the sources and the methodology version of the figures it wrote. The latest row describes the figures now shown. Anyone reads.';
comment on column public.figures_refreshes.closed_sales is 'Closed sales counted in the window, all ZIPs.';
comment on column public.figures_refreshes.sources is 'properties.source of those sales.';

create index figures_refreshes_refreshed_at_idx on public.figures_refreshes (refreshed_at desc);

alter table public.figures_refreshes enable row level security;
revoke all on public.figures_refreshes from public, anon, authenticated;
grant select on public.figures_refreshes to anon, authenticated;
grant all on public.figures_refreshes to service_role;
create policy "Figure refreshes are readable by anyone" on public.figures_refreshes
  for select to anon, authenticated
  using (true);


/**
 * Recomputes every agent's figures from the closed sales in the window (default 24 months ending at the latest close
 * date), as the migration's header describes: public.agent_figures (both sides), public.agent_zip_sales,
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
  with closed as (
    select p.id, p.zip_code, p.sale_price, p.list_price, p.days_on_market, p.sale_date, p.source
    from public.properties p
    where p.standard_status = 'Closed'
      and p.sale_price > 0
      and p.sale_date between v_start and v_end
  ),
  parties as (
    -- one row per sale, side and party: an agent named twice on one side counts once, in their first role
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
  select cr.property_id, cr.agent_id, cr.side, (array['list', 'co_list', 'buyer', 'co_buyer'])[cr.role_order] as role,
         cr.credit, cr.dual_agency, c.zip_code, c.sale_price, c.list_price, c.days_on_market, c.sale_date, c.source,
         case when c.list_price > 0 then c.sale_price / c.list_price * 100 end as ratio,
         round(c.sale_price * cr.credit, 2) as credited_volume
  from credited cr
  join closed c on c.id = cr.property_id
  where cr.agent_id is not null;
  analyze pg_temp.refresh_closed_sides;

  -- what each ZIP's figures rest on
  with fresh as (
    select p.zip_code, count(*)::integer as closed_sales, min(p.sale_date) as first_close_date,
           max(p.sale_date) as last_close_date,
           coalesce(array_agg(distinct p.source order by p.source) filter (where p.source is not null), '{}') as sources,
           count(*) filter (where p.list_price > 0)::integer as sale_to_list_n,
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
    (zip_code, closed_sales, first_close_date, last_close_date, sources, sale_to_list_n, sale_to_list_mean, window_start, window_end)
  select f.zip_code, f.closed_sales, f.first_close_date, f.last_close_date, f.sources, f.sale_to_list_n,
         f.sale_to_list_mean, v_start, v_end
  from fresh f
  on conflict (zip_code) do update set
    closed_sales = excluded.closed_sales, first_close_date = excluded.first_close_date,
    last_close_date = excluded.last_close_date, sources = excluded.sources, sale_to_list_n = excluded.sale_to_list_n,
    sale_to_list_mean = excluded.sale_to_list_mean, window_start = excluded.window_start,
    window_end = excluded.window_end, updated_at = now()
  where (z.closed_sales, z.first_close_date, z.last_close_date, z.sources, z.sale_to_list_n, z.sale_to_list_mean,
         z.window_start, z.window_end)
    is distinct from (excluded.closed_sales, excluded.first_close_date, excluded.last_close_date, excluded.sources,
                      excluded.sale_to_list_n, excluded.sale_to_list_mean, excluded.window_start, excluded.window_end);

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
  -- (method of moments over agents with 2+ ratios), kept within 1..100; 10 when fewer than 10 agents qualify
  select case
           when m.agents < 10 or m.within is null then 10
           when m.var_means - m.within * m.inv_n <= 0 then 100
           else round(least(100, greatest(1, m.within / (m.var_means - m.within * m.inv_n))), 3)
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


-- a database refreshed before: compute the new figures now, over the same window
select public.refresh_agent_metrics(
  greatest(1, least(600, (extract(year from age(w.window_end + 1, w.window_start)) * 12 + extract(month from age(w.window_end + 1, w.window_start)))::integer)),
  w.window_end
)
from public.search_metrics_window() w
where exists (select 1 from public.agents a where a.metrics_refreshed_at is not null and a.metrics_window_end is not null);
