-- One scheduler for scheduled posts: two jobs called private.request_site_build_if_due(): the 30-second
-- 'rebuild-for-due-posts' (20261123140400) and the 10-minute 'site-build-when-due' that
-- private.schedule_site_rebuilds() created (20261123180000). Posts must go live within a minute of their time, so the
-- 30-second job stays; the 10-minute one is removed, and private.schedule_site_rebuilds() (the hosted step after
-- enabling pg_cron) now schedules that same 30-second job, so either route ends with exactly one job.

do $$
begin
  -- nested: a database without pg_cron has no cron.job to plan the inner query against
  if to_regclass('cron.job') is not null then
    if exists (select 1 from cron.job where jobname = 'site-build-when-due') then
      perform cron.unschedule('site-build-when-due');
    end if;
  end if;
end
$$;

/*
 * Schedules private.request_site_build_if_due() every 30 seconds with pg_cron (job 'rebuild-for-due-posts', the one
 * the migrations create when pg_cron is already enabled; cron.schedule replaces a job of the same name) and returns
 * its job id. Raises 55000 with what to do when pg_cron is not enabled (Dashboard → Database → Extensions → pg_cron).
 */
create or replace function private.schedule_site_rebuilds()
returns bigint
language plpgsql
set search_path = ''
as $$
begin
  if to_regnamespace('cron') is null then
    raise exception 'pg_cron is not enabled: enable it under Database → Extensions (pg_cron), then run this again'
      using errcode = '55000';
  end if;
  return (select cron.schedule('rebuild-for-due-posts', '30 seconds', 'select private.request_site_build_if_due()'));
end;
$$;

comment on function private.schedule_site_rebuilds() is
  'Schedules the one rebuild-for-due-posts job (every 30 seconds) with pg_cron; 55000 when pg_cron is not enabled.';

revoke execute on function private.schedule_site_rebuilds() from public, anon, authenticated;
