-- One scheduler for scheduled posts. Two cron jobs asked for the same thing: 'rebuild-for-due-posts' every 30 seconds
-- (20261123140400_schedule_post_publications, so a post is live within a minute of its time) and
-- 'site-build-when-due' every 10 minutes (created by private.schedule_site_rebuilds() from the unified webhooks).
-- Keep the 30-second job: the 10-minute one is removed where it exists, and private.schedule_site_rebuilds() (the
-- hosted way to create the job after enabling pg_cron) now schedules the one 30-second job instead.

do $$
begin
  -- dynamic SQL: cron.job only exists where pg_cron (or the local stand-in) is enabled
  if to_regclass('cron.job') is not null then
    execute $sql$
      select cron.unschedule(jobname) from cron.job where jobname = 'site-build-when-due'
    $sql$;
  end if;
end
$$;

/*
 * Schedules private.request_site_build_if_due() every 30 seconds with pg_cron (job 'rebuild-for-due-posts', the same
 * job 20261123140400 creates when pg_cron is enabled before the migrations) and returns its job id; calling it again
 * keeps one job. Raises 55000 with what to do when pg_cron is not enabled (Dashboard → Database → Extensions → pg_cron).
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
  'Schedules the one 30-second job (rebuild-for-due-posts) that rebuilds the site when scheduled posts went live; returns its job id.';

revoke execute on function private.schedule_site_rebuilds() from public, anon, authenticated;
