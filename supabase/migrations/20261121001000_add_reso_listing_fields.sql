-- MLS (RESO Data Dictionary) fields on properties and agents, so listings imported from an MLS feed keep their
-- identity, their agent and the figures the agent metrics are computed from.
--
-- Decisions (see scripts/lib/import/README.md):
--   * The spec's columns stay the stored truth and RESO names map onto them where they mean the same thing:
--     sale_price = ClosePrice, sale_date = CloseDate, zip_code = PostalCode, state = StateOrProvince,
--     city = City, bedrooms = BedroomsTotal, bathrooms = BathroomsTotalInteger, square_feet = LivingArea,
--     agents.brokerage = ListOfficeName / MemberOfficeName. close_price and close_date are generated from
--     sale_price and sale_date, so the RESO names can be read but there is a single value that admins and the
--     importer write, and the two can never disagree.
--   * Every new column is nullable: rows typed in by admins have no MLS identity, and a missing value stays NULL,
--     never 0.
--   * Listings are identified by (source, source_record_id): the feed that sent them and its key (ListingKey).
--     Null on both for hand-made rows; Postgres treats nulls as distinct, so those never collide.


-- ---------------------------------------------------------------------------------------------------------------
-- properties
-- ---------------------------------------------------------------------------------------------------------------

alter table public.properties
  add column source text check (char_length(btrim(source)) between 1 and 100),
  add column source_record_id text check (char_length(btrim(source_record_id)) between 1 and 500),
  add column listing_key text check (char_length(listing_key) <= 500),
  add column original_list_price numeric(14, 2) check (original_list_price > 0),
  add column close_price numeric(14, 2) generated always as (sale_price) stored,
  add column close_date date generated always as (sale_date) stored,
  add column listing_contract_date date,
  add column list_agent_mls_id text check (char_length(list_agent_mls_id) <= 100),
  add column buyer_agent_mls_id text check (char_length(buyer_agent_mls_id) <= 100),
  add column list_office_name text check (char_length(list_office_name) <= 300),
  add column street_number text check (char_length(street_number) <= 50),
  add column street_name text check (char_length(street_name) <= 200),
  add column unit_number text check (char_length(unit_number) <= 50),
  add column latitude numeric(9, 6) check (latitude between -90 and 90),
  add column longitude numeric(9, 6) check (longitude between -180 and 180),
  add column standard_status text check (
    standard_status in ('Active', 'Active Under Contract', 'Canceled', 'Closed', 'Coming Soon', 'Delete', 'Expired',
                        'Hold', 'Incomplete', 'Pending', 'Withdrawn')
  ),
  add column modification_timestamp timestamptz,
  add constraint properties_source_record_unique unique (source, source_record_id),
  add constraint properties_source_pair check ((source is null) = (source_record_id is null)),
  add constraint properties_close_after_listing check (sale_date is null or listing_contract_date is null or sale_date >= listing_contract_date);

comment on column public.properties.source is 'Feed the row was imported from (e.g. an MLS or ''redfin-ma-2020''); null for rows typed in by admins.';
comment on column public.properties.source_record_id is 'The record''s key in its source (RESO ListingKey); unique per source, the upsert key of the importer.';
comment on column public.properties.listing_key is 'RESO ListingKey as sent by the source.';
comment on column public.properties.original_list_price is 'First list price, USD (RESO OriginalListPrice).';
comment on column public.properties.close_price is 'RESO ClosePrice, USD: generated from sale_price (write sale_price).';
comment on column public.properties.close_date is 'RESO CloseDate: generated from sale_date (write sale_date).';
comment on column public.properties.listing_contract_date is 'Date the listing agreement started (RESO ListingContractDate, else OnMarketDate).';
comment on column public.properties.list_agent_mls_id is 'Listing agent''s MLS id (RESO ListAgentMlsId); agent_id points at the agents row with that mls_id.';
comment on column public.properties.buyer_agent_mls_id is 'Buyer''s agent MLS id (RESO BuyerAgentMlsId).';
comment on column public.properties.list_office_name is 'Listing brokerage (RESO ListOfficeName).';
comment on column public.properties.standard_status is 'RESO StandardStatus (Active, Pending, Closed, Canceled, Expired, Withdrawn, ...). Metrics count only Closed.';
comment on column public.properties.modification_timestamp is 'RESO ModificationTimestamp from the source; an import never overwrites a row with an older one.';
comment on column public.properties.zip_code is 'Five-digit ZIP or ZIP+4 (RESO PostalCode).';
comment on column public.properties.state is 'Two-letter USPS state code (RESO StateOrProvince).';
comment on column public.properties.bedrooms is 'RESO BedroomsTotal.';
comment on column public.properties.bathrooms is 'RESO BathroomsTotalInteger (or BathroomsTotalDecimal when that is all the source has).';
comment on column public.properties.square_feet is 'Living area in square feet (RESO LivingArea).';

-- the metrics scan closed sales by agent and by ZIP inside a date window
create index properties_closed_agent_idx on public.properties (agent_id, sale_date)
  where standard_status = 'Closed' and sale_price > 0;
create index properties_closed_zip_idx on public.properties (zip_code, sale_date)
  where standard_status = 'Closed' and sale_price > 0;
create index properties_list_agent_mls_id_idx on public.properties (list_agent_mls_id);


-- ---------------------------------------------------------------------------------------------------------------
-- agents
-- ---------------------------------------------------------------------------------------------------------------

alter table public.agents
  add column mls_id text unique check (char_length(btrim(mls_id)) between 1 and 100),
  add column median_sale_to_list_ratio numeric(5, 2) check (median_sale_to_list_ratio > 1 and median_sale_to_list_ratio <= 300),
  add column sale_to_list_sample_size integer not null default 0 check (sale_to_list_sample_size >= 0),
  add column median_days_on_market numeric(6, 1) check (median_days_on_market >= 0),
  add column days_on_market_sample_size integer not null default 0 check (days_on_market_sample_size >= 0),
  add column primary_zip_code text check (primary_zip_code ~ '^[0-9]{5}$'),
  add column metrics_window_start date,
  add column metrics_window_end date,
  add column metrics_refreshed_at timestamptz,
  add column ranking_note text check (char_length(ranking_note) <= 300),
  add constraint agents_metrics_window_ordered check (metrics_window_start <= metrics_window_end);

comment on column public.agents.mls_id is 'RESO MemberMlsId; links imported listings (ListAgentMlsId) to the agent.';
comment on column public.agents.license_number is 'State licence number (RESO MemberStateLicense).';
comment on column public.agents.brokerage is 'Office the agent works for (RESO MemberOfficeName / ListOfficeName).';
comment on column public.agents.total_sales is 'Closed sales as listing agent inside the metrics window. Computed by refresh_agent_metrics().';
comment on column public.agents.average_sale_to_list_ratio is 'Average ClosePrice / ListPrice as a PERCENT (98.7 means 98.7%), not a fraction. Computed.';
comment on column public.agents.median_sale_to_list_ratio is 'Median ClosePrice / ListPrice as a PERCENT. Computed.';
comment on column public.agents.sale_to_list_sample_size is 'Closed sales behind the sale-to-list figures (sales without a list price are left out).';
comment on column public.agents.average_days_on_market is 'Average days on market of closed sales, in days. Computed.';
comment on column public.agents.median_days_on_market is 'Median days on market of closed sales, in days. Computed.';
comment on column public.agents.days_on_market_sample_size is 'Closed sales behind the days-on-market figures (sales without DaysOnMarket are left out).';
comment on column public.agents.price_range_min is 'Lowest closed sale price in the window, USD. Computed.';
comment on column public.agents.price_range_max is 'Highest closed sale price in the window, USD. Computed.';
comment on column public.agents.market_share is 'The agent''s closed sales in primary_zip_code / all closed sales there in the window, PERCENT 0-100. Computed.';
comment on column public.agents.local_ranking is 'Rank by closed sales (ties: sales volume) among agents with sales in primary_zip_code, 1 is best; null below 5 sales (see ranking_note).';
comment on column public.agents.total_agents_in_area is 'Listing agents with at least one closed sale in primary_zip_code in the window.';
comment on column public.agents.primary_zip_code is 'ZIP with most of the agent''s closed sales (ties: higher volume, then lowest ZIP). Computed.';
comment on column public.agents.service_areas is 'ZIPs of the agent''s closed sales, most sales first. Computed.';
comment on column public.agents.metrics_window_start is 'First close date counted (inclusive).';
comment on column public.agents.metrics_window_end is 'Last close date counted (inclusive): the latest close date in the data when refreshed.';
comment on column public.agents.ranking_note is 'Why local_ranking is null, for display, e.g. ''Fewer than 5 closed sales in the window''.';

create index agents_primary_zip_code_idx on public.agents (primary_zip_code);
