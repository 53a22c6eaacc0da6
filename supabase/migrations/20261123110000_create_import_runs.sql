-- import_runs: one row per `npm run import` of a file, so an operator (and the admin) can see what each run read,
-- changed and rejected, and why a run failed. The importer inserts the row as 'running' before it touches any data,
-- then stages and applies the whole file in ONE transaction that also sets the row to 'succeeded': a run is either
-- fully live or not at all. A run whose connection died stays 'running' until the next import marks it
-- 'interrupted' (its backend is gone from pg_stat_activity).
-- Written by the importer over a direct Postgres connection (service_role level); admins read.
create table public.import_runs (
  id bigint generated always as identity primary key,
  source text not null check (char_length(btrim(source)) between 1 and 100),
  resource text check (resource in ('Property', 'Member')),
  file_name text not null check (char_length(file_name) between 1 and 1000),
  file_sha256 text not null check (file_sha256 ~ '^[0-9a-f]{64}$'),
  file_bytes bigint not null check (file_bytes >= 0),
  status text not null default 'running' check (status in ('running', 'succeeded', 'failed', 'rejected', 'interrupted')),
  rows_read integer not null default 0 check (rows_read >= 0),
  rows_inserted integer not null default 0 check (rows_inserted >= 0),
  rows_updated integer not null default 0 check (rows_updated >= 0),
  rows_unchanged integer not null default 0 check (rows_unchanged >= 0),
  rows_rejected integer not null default 0 check (rows_rejected >= 0),
  rows_duplicate integer not null default 0 check (rows_duplicate >= 0),
  rejects_file text check (char_length(rejects_file) <= 1000),
  error text check (char_length(error) <= 2000),
  backend_pid integer,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  check ((status = 'running') = (finished_at is null))
);

comment on table public.import_runs is
  'One row per file import (npm run import): counts, status and error. The importer (service_role) writes; admins read.';
comment on column public.import_runs.source is 'Feed name: properties.source of the records (mapping source or --source).';
comment on column public.import_runs.file_name is 'The file as given on the command line.';
comment on column public.import_runs.file_sha256 is 'SHA-256 of the file bytes (hex), to tell re-runs of the same file apart from new files.';
comment on column public.import_runs.status is
  'running (in progress, or its connection died and no later run has looked yet), succeeded (applied and committed), failed (nothing applied: error), rejected (nothing applied: too many rejects or a bad mapping), interrupted (the connection died; nothing applied).';
comment on column public.import_runs.rows_read is 'Records read from the file.';
comment on column public.import_runs.rows_rejected is 'Records that failed validation (listed in rejects_file).';
comment on column public.import_runs.rows_duplicate is 'Valid records whose key appeared earlier in the same file (the last one wins).';
comment on column public.import_runs.rows_unchanged is 'Distinct valid keys already stored with the same values.';
comment on column public.import_runs.rejects_file is 'Path of the rejects CSV written by the run, when it had rejects.';
comment on column public.import_runs.error is 'Why the run did not succeed, one line.';
comment on column public.import_runs.backend_pid is 'pg_backend_pid() of the importer''s connection while running; used to detect runs whose connection died.';

create index import_runs_started_at_idx on public.import_runs (started_at desc);
-- the next run looks for rows left 'running' by a dead connection
create index import_runs_running_idx on public.import_runs (status) where status = 'running';

alter table public.import_runs enable row level security;

revoke all on public.import_runs from anon, authenticated;
grant select on public.import_runs to authenticated;
grant all on public.import_runs to service_role;

create policy "Admins read import runs" on public.import_runs
  for select to authenticated
  using ((select public.is_admin()));
