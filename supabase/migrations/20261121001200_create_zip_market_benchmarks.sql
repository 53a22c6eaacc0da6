-- zip_market_benchmarks: the market around an agent (Redfin Data Center ZIP code market tracker), so a page can
-- say "98.7% of list vs 101.2% for the ZIP". Loaded by `npm run import -- --zip-benchmarks <csv>`.
create table public.zip_market_benchmarks (
  zip_code text primary key check (zip_code ~ '^[0-9]{5}$'),
  city text,
  state text check (state ~ '^[A-Z]{2}$'),
  county text,
  metro text,
  latitude numeric(9, 6) check (latitude between -90 and 90),
  longitude numeric(9, 6) check (longitude between -180 and 180),
  period_end date not null,
  median_sale_price numeric(14, 2) check (median_sale_price > 0),
  median_list_price numeric(14, 2) check (median_list_price > 0),
  -- Redfin publishes a fraction (1.0 = sold at list); the percent column matches agents.average_sale_to_list_ratio
  avg_sale_to_list_fraction numeric(6, 4) check (avg_sale_to_list_fraction > 0 and avg_sale_to_list_fraction <= 3),
  avg_sale_to_list_percent numeric(6, 2) generated always as (round(avg_sale_to_list_fraction * 100, 2)) stored,
  sold_above_list_fraction numeric(5, 4) check (sold_above_list_fraction between 0 and 1),
  median_dom numeric(6, 1) check (median_dom >= 0),
  homes_sold integer check (homes_sold >= 0),
  source text not null default 'Redfin',
  attribution text not null default 'Source: Redfin, a national real estate brokerage (redfin.com/news/data-center)',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.zip_market_benchmarks is
  'Market figures per ZIP code from a published source (Redfin Data Center). Anyone reads; service_role (loader) writes. Pages showing them must show attribution.';
comment on column public.zip_market_benchmarks.state is 'Two-letter USPS state code (Redfin gives the full name; the loader converts).';
comment on column public.zip_market_benchmarks.metro is 'Redfin parent_metro, e.g. ''Boston, MA''.';
comment on column public.zip_market_benchmarks.period_end is 'Last day of the month the figures describe.';
comment on column public.zip_market_benchmarks.median_sale_price is 'Median sale price, USD.';
comment on column public.zip_market_benchmarks.median_list_price is 'Median list price, USD.';
comment on column public.zip_market_benchmarks.avg_sale_to_list_fraction is 'Average sale / list price as a FRACTION (1.0 = at list), as Redfin publishes it.';
comment on column public.zip_market_benchmarks.avg_sale_to_list_percent is 'The same as a PERCENT (100.0 = at list), comparable with agents.average_sale_to_list_ratio.';
comment on column public.zip_market_benchmarks.sold_above_list_fraction is 'Share of homes sold above list, FRACTION 0-1.';
comment on column public.zip_market_benchmarks.median_dom is 'Median days on market, in days.';
comment on column public.zip_market_benchmarks.homes_sold is 'Homes sold in the period; small numbers (1-4) make the other figures noisy.';
comment on column public.zip_market_benchmarks.attribution is 'Credit line any page showing these figures must carry.';

create index zip_market_benchmarks_metro_idx on public.zip_market_benchmarks (metro);

create trigger zip_market_benchmarks_set_updated_at
  before update on public.zip_market_benchmarks
  for each row execute function public.set_updated_at();

alter table public.zip_market_benchmarks enable row level security;

revoke all on public.zip_market_benchmarks from anon, authenticated;
grant select on public.zip_market_benchmarks to anon, authenticated;
grant all on public.zip_market_benchmarks to service_role;

create policy "ZIP benchmarks are readable by anyone" on public.zip_market_benchmarks
  for select to anon, authenticated
  using (true);
