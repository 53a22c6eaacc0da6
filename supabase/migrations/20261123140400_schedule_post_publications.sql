-- A post published with a future published_at is scheduled: the public RLS policy hides it until its time, but the
-- static site only shows it after a rebuild, and nothing changes in the database when the time comes. Every 30
-- seconds a job asks for a rebuild when scheduled posts went live since the last request
-- (private.request_site_build_if_due(), created with the unified webhooks), so a post is live within about a minute.
-- Locally the stand-in's cron (supabase/local/cron.ts, the same cron.schedule signature) runs it; on hosted Supabase
-- the job is created here when pg_cron is already enabled (otherwise private.schedule_site_rebuilds() or the same
-- cron.schedule call in the SQL editor after enabling it).

do $$
begin
  if to_regprocedure('cron.schedule(text,text,text)') is not null then
    perform cron.schedule('rebuild-for-due-posts', '30 seconds', 'select private.request_site_build_if_due()');
  end if;
end
$$;
