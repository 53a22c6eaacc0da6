-- import_runs records RESO Web API runs as well as file imports (origin; a Web API run has no file hash or size), and
-- counts the records a mapping's skip rule leaves out on purpose (out of scope, not errors).
alter table public.import_runs
  add column origin text not null default 'file' check (origin in ('file', 'reso_web_api')),
  add column rows_skipped integer not null default 0 check (rows_skipped >= 0),
  alter column file_sha256 drop not null,
  alter column file_bytes drop not null,
  add constraint import_runs_files_are_identified
    check (origin <> 'file' or (file_sha256 is not null and file_bytes is not null));

comment on table public.import_runs is
  'One row per import run (npm run import, of a file or from the RESO Web API): counts, status and error. The importer (service_role) writes; admins read.';
comment on column public.import_runs.origin is
  'Where the records came from: file (npm run import -- <file>) or reso_web_api (npm run import -- --reso-web-api).';
comment on column public.import_runs.file_name is
  'The file as given on the command line; for a Web API run, the resource URL (<RESO_API_URL>/<Resource>).';
comment on column public.import_runs.file_sha256 is
  'SHA-256 of the file bytes (hex), to tell re-runs of the same file apart from new files; null for a Web API run.';
comment on column public.import_runs.file_bytes is 'Size of the file in bytes; null for a Web API run.';
comment on column public.import_runs.rows_read is 'Records read from the file or received from the Web API.';
comment on column public.import_runs.rows_skipped is
  'Records a skip rule of the mapping left out on purpose (out of scope, e.g. public-record rows without a sale price); not rejects.';
