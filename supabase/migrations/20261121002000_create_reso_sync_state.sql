-- reso_sync_state: where the RESO Web API (OData) sync of each feed and resource stands, so an incremental sync asks
-- only for records modified since the last one and an interrupted sync resumes at the page it stopped on.
-- Written by `npm run import -- --reso-web-api` (a direct Postgres connection, i.e. service_role level); admins read.
create table public.reso_sync_state (
  source text not null check (char_length(btrim(source)) between 1 and 100),
  resource text not null check (resource in ('Property', 'Member')),
  high_water timestamptz,
  run_high_water timestamptz,
  next_link text check (char_length(next_link) <= 8000),
  run_started_at timestamptz,
  last_completed_at timestamptz,
  last_run_records integer not null default 0 check (last_run_records >= 0),
  last_error text check (char_length(last_error) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (source, resource)
);

comment on table public.reso_sync_state is
  'Progress of the RESO Web API sync per feed (source) and resource. service_role writes; admins read.';
comment on column public.reso_sync_state.source is 'Feed name, the same value as properties.source of the records it brings.';
comment on column public.reso_sync_state.resource is 'RESO resource synced: Property or Member.';
comment on column public.reso_sync_state.high_water is 'Latest ModificationTimestamp of the last COMPLETED sync; the next one asks for ModificationTimestamp gt this.';
comment on column public.reso_sync_state.run_high_water is 'Latest ModificationTimestamp seen by the sync in progress; becomes high_water when it completes.';
comment on column public.reso_sync_state.next_link is 'URL of the next page to fetch (the server''s @odata.nextLink) while a sync is in progress; null when none is.';
comment on column public.reso_sync_state.last_run_records is 'Records received by the last completed sync.';
comment on column public.reso_sync_state.last_error is 'Why the last sync stopped, when it failed; cleared when a page succeeds.';

create trigger reso_sync_state_set_updated_at
  before update on public.reso_sync_state
  for each row execute function public.set_updated_at();

alter table public.reso_sync_state enable row level security;

revoke all on public.reso_sync_state from anon, authenticated;
grant select on public.reso_sync_state to authenticated;
grant all on public.reso_sync_state to service_role;

create policy "Admins read the RESO sync state" on public.reso_sync_state
  for select to authenticated
  using ((select public.is_admin()));
