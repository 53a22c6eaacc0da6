-- Raw public events are kept only as long as something reads them, then live on as daily totals:
--   search_queries  90 days  (topic discovery compares the last 30 days with the 30 before)
--   page_views     200 days  (the admin's longest analytics period, 90 days, compared with the 90 before)
-- private.prune_raw_events() rolls every finished UTC day into search_days and page_view_days, then deletes raw rows
-- past those ages and ended rate-limit windows. pg_cron runs it every 30 minutes (job 'prune-raw-events'); locally
-- the stand-in's cron runs the same job.

create table public.search_days (
  day date not null,
  search_type text not null,
  resolved_zip_code text,
  resolved_city text,
  resolved_state text,
  searches integer not null check (searches > 0),
  constraint search_days_day_place_key
    unique nulls not distinct (day, search_type, resolved_zip_code, resolved_city, resolved_state)
);

comment on table public.search_days is
  'Searches per UTC day, search type and resolved place, rolled up from search_queries by private.prune_raw_events() (the query text is not kept). Admins read; written by the roll-up only.';
comment on column public.search_days.day is 'The UTC day of the searches.';
comment on column public.search_days.searches is 'How many searches of that type resolved to that place that day.';

create index search_days_day_idx on public.search_days (day);

alter table public.search_days enable row level security;
create policy "Admins read search totals" on public.search_days
  for select to authenticated using ((select public.is_admin()));
revoke all on public.search_days from public, anon, authenticated;
grant select on public.search_days to authenticated;
grant select, insert, update, delete on public.search_days to service_role;

create table public.page_view_days (
  day date not null,
  path text not null,
  referrer_host text,
  utm_source text,
  device_class text not null,
  views integer not null check (views > 0),
  visitors integer not null check (visitors > 0),
  constraint page_view_days_day_source_key
    unique nulls not distinct (day, path, referrer_host, utm_source, device_class)
);

comment on table public.page_view_days is
  'Page views per UTC day, path, referrer host, UTM source and device class, rolled up from page_views by private.prune_raw_events(). Admins read; written by the roll-up only.';
comment on column public.page_view_days.day is 'The UTC day of the views.';
comment on column public.page_view_days.views is 'Views of that row''s path from that source and device class that day.';
comment on column public.page_view_days.visitors is
  'Distinct visitor hashes among those views (hashes change daily, so the day''s visitors over all rows are not the sum).';

create index page_view_days_day_idx on public.page_view_days (day);

alter table public.page_view_days enable row level security;
create policy "Admins read page view totals" on public.page_view_days
  for select to authenticated using ((select public.is_admin()));
revoke all on public.page_view_days from public, anon, authenticated;
grant select on public.page_view_days to authenticated;
grant select, insert, update, delete on public.page_view_days to service_role;

-- the roll-up and the deletes find raw rows by age through the existing created_at indexes of both tables

/*
 * Rolls every finished UTC day that has raw rows and no totals yet into search_days and page_view_days (a day is
 * rolled up once, after it ended: raw rows are only ever inserted with now()), then deletes search_queries older
 * than 90 days, page_views older than 200 days and rate-limit windows that have ended. Days are found by walking the
 * created_at indexes one day at a time, so a run reads only the days it rolls up. Returns what it did as JSON:
 * {search_days, page_view_days, search_queries_deleted, page_views_deleted, rate_limit_hits_deleted} (rows).
 */
create function private.prune_raw_events()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  today_start timestamptz := date_trunc('day', now() at time zone 'utc') at time zone 'utc';
  day_start timestamptz;
  added integer;
  search_rows integer := 0;
  view_rows integer := 0;
  searches_deleted integer;
  views_deleted integer;
  hits_deleted integer;
begin
  -- one run at a time: two overlapping runs would roll the same day up twice
  perform pg_advisory_xact_lock(hashtext('private.prune_raw_events'));

  select date_trunc('day', min(q.created_at) at time zone 'utc') at time zone 'utc' into day_start
    from public.search_queries q;
  while day_start < today_start loop
    if not exists (select 1 from public.search_days d where d.day = (day_start at time zone 'utc')::date) then
      insert into public.search_days (day, search_type, resolved_zip_code, resolved_city, resolved_state, searches)
      select (day_start at time zone 'utc')::date, q.search_type, q.resolved_zip_code, q.resolved_city,
             q.resolved_state, count(*)
        from public.search_queries q
       where q.created_at >= day_start and q.created_at < day_start + interval '24 hours'
       group by 2, 3, 4, 5;
      get diagnostics added = row_count;
      search_rows := search_rows + added;
    end if;
    select date_trunc('day', min(q.created_at) at time zone 'utc') at time zone 'utc' into day_start
      from public.search_queries q where q.created_at >= day_start + interval '24 hours';
  end loop;

  select date_trunc('day', min(v.created_at) at time zone 'utc') at time zone 'utc' into day_start
    from public.page_views v;
  while day_start < today_start loop
    if not exists (select 1 from public.page_view_days d where d.day = (day_start at time zone 'utc')::date) then
      insert into public.page_view_days (day, path, referrer_host, utm_source, device_class, views, visitors)
      select (day_start at time zone 'utc')::date, v.path, v.referrer_host, v.utm_source, v.device_class,
             count(*), count(distinct v.visitor_hash)
        from public.page_views v
       where v.created_at >= day_start and v.created_at < day_start + interval '24 hours'
       group by 2, 3, 4, 5;
      get diagnostics added = row_count;
      view_rows := view_rows + added;
    end if;
    select date_trunc('day', min(v.created_at) at time zone 'utc') at time zone 'utc' into day_start
      from public.page_views v where v.created_at >= day_start + interval '24 hours';
  end loop;

  -- every finished day is rolled up now, so raw rows past their age can go
  delete from public.search_queries q where q.created_at < now() - interval '90 days';
  get diagnostics searches_deleted = row_count;
  delete from public.page_views v where v.created_at < now() - interval '200 days';
  get diagnostics views_deleted = row_count;
  delete from public.rate_limit_hits h where h.expires_at < now();
  get diagnostics hits_deleted = row_count;

  return jsonb_build_object(
    'search_days', search_rows,
    'page_view_days', view_rows,
    'search_queries_deleted', searches_deleted,
    'page_views_deleted', views_deleted,
    'rate_limit_hits_deleted', hits_deleted
  );
end;
$$;

comment on function private.prune_raw_events() is
  'Rolls finished UTC days of search_queries and page_views into search_days and page_view_days, then deletes searches older than 90 days, page views older than 200 days and ended rate-limit windows. Run by pg_cron (prune-raw-events).';

revoke execute on function private.prune_raw_events() from public, anon, authenticated, service_role;

/*
 * Schedules private.prune_raw_events() every 30 minutes with pg_cron (job 'prune-raw-events'; cron.schedule replaces
 * a job of the same name) and returns its job id. Raises 55000 with what to do when pg_cron is not enabled.
 */
create function private.schedule_raw_event_retention()
returns bigint
language plpgsql
set search_path = ''
as $$
begin
  if to_regnamespace('cron') is null then
    raise exception 'pg_cron is not enabled: enable it under Database → Extensions (pg_cron), then run this again'
      using errcode = '55000';
  end if;
  return (select cron.schedule('prune-raw-events', '*/30 * * * *', 'select private.prune_raw_events()'));
end;
$$;

comment on function private.schedule_raw_event_retention() is
  'Schedules the prune-raw-events job (every 30 minutes) with pg_cron; 55000 when pg_cron is not enabled.';

revoke execute on function private.schedule_raw_event_retention() from public, anon, authenticated, service_role;

do $$
begin
  if to_regnamespace('cron') is not null then
    perform private.schedule_raw_event_retention();
  end if;
end
$$;
