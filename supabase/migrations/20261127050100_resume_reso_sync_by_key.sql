-- The RESO Web API sync is run like a file import: the whole run is applied in one transaction or not at all, so
-- there is no page in progress to keep. It resumes from its high water with `ModificationTimestamp ge <high water>`,
-- leaving out the keys it has already applied at exactly that instant, instead of from a stored page link: a
-- $skip-based @odata.nextLink shifts when records change between runs and would lose records, and `gt` loses records
-- that share the last timestamp across a page or run boundary. Rejected keys are kept and asked for again.
alter table public.reso_sync_state
  drop column next_link,
  drop column run_high_water,
  drop column run_started_at,
  add column high_water_keys text[] not null default '{}',
  add column rejected_keys text[] not null default '{}';

comment on column public.reso_sync_state.high_water is
  'Latest ModificationTimestamp applied by the last successful sync; the next one asks for ModificationTimestamp ge this.';
comment on column public.reso_sync_state.high_water_keys is
  'Keys (ListingKey, or MemberKey else MemberMlsId) of the records at exactly high_water already applied: the next sync leaves them out, so records sharing that timestamp across a page or run boundary are neither lost nor applied twice.';
comment on column public.reso_sync_state.rejected_keys is
  'Keys of records that successful syncs rejected: every sync asks for them again by key, even after the high water has passed them, until they validate or the server no longer has them.';
comment on column public.reso_sync_state.last_run_records is 'Records received by the last successful sync.';
comment on column public.reso_sync_state.last_error is 'Why the last sync failed or was rejected; cleared when a sync succeeds.';
