-- Every local build records which builder process runs it, so a builder that starts closes only the builds of a
-- builder that is gone.
--
-- Why: a starting local builder marked every queued or building row failed ("The builder stopped before this build
-- finished."), on the assumption that it was the only builder of the database. Two builders on one database (the
-- test files that each start one, or two local sites on one stack) then failed each other's running builds, and the
-- admin showed a build as failed that went on to be served.
--
-- What: builder_host and builder_pid name the builder's machine and process. A starting builder closes the open rows
-- with no builder, of another machine, or of a process of its own machine that no longer runs.
-- Rows the production trigger writes ('requested') have neither: no builder of ours runs them.

alter table public.site_builds
  add column builder_host text check (char_length(builder_host) between 1 and 255),
  add column builder_pid integer check (builder_pid > 0);

comment on column public.site_builds.builder_host is
  'Host name of the local builder process running this build (null for requests sent to a static host''s build hook).';
comment on column public.site_builds.builder_pid is
  'Process id of the local builder running this build on builder_host: a builder that starts closes open builds whose process is gone.';
