-- Without pg_cron's ranking job, a data refresh first ranks the city pages that earlier refreshes left stale.
--
-- Why: a refresh marks the cities of the ZIPs it recomputes stale (private.city_pages_stale), and pg_cron's job
-- 'rank-stale-city-pages' ranks them after the site is live. A project without that job (pg_cron not enabled, or
-- private.schedule_city_page_ranking() never run) kept every mark: the table only grew, and since a stale city page
-- counts as printing every agent with a side in it, each later figure change re-rendered more and more city pages.
--
-- What:
--   * private.city_ranking_scheduled(): whether an active cron job named 'rank-stale-city-pages' exists (false
--     without pg_cron).
--   * public.refresh_agent_metrics takes the refresh lock first and, when that job is not scheduled, ranks the stale
--     city pages (private.rank_stale_city_pages(wait => true)) before the refresh proper: the marks of the refreshes
--     before it, so the table holds at most one refresh's marks. That ranking is on the path to live (about 15-18 s
--     for a national day's 5,900 cities on the benchmark machine), which the job keeps off it: the deploy guide asks
--     for the job.

/**
 * Whether pg_cron holds an active job named 'rank-stale-city-pages' (private.schedule_city_page_ranking()); false
 * when pg_cron is not installed. Not callable by any API role.
 */
create function private.city_ranking_scheduled()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_scheduled boolean;
begin
  if to_regclass('cron.job') is null then
    return false;
  end if;
  -- dynamic: the table exists only with pg_cron
  execute 'select exists (select 1 from cron.job j where j.jobname = $1 and j.active)'
    into v_scheduled
    using 'rank-stale-city-pages';
  return v_scheduled;
end;
$$;

revoke all on function private.city_ranking_scheduled() from public, anon, authenticated, service_role;
comment on function private.city_ranking_scheduled() is 'Whether pg_cron holds an active job named rank-stale-city-pages (false without pg_cron): without it public.refresh_agent_metrics ranks the stale city pages itself before it starts.';

CREATE OR REPLACE FUNCTION public.refresh_agent_metrics(window_months integer DEFAULT 24, window_end date DEFAULT NULL::date, full_refresh boolean DEFAULT false)
 RETURNS TABLE(metrics_window_start date, metrics_window_end date, agents_updated integer, refresh_kind text, agents_recomputed integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
 SET work_mem TO '64MB'
AS $function$
declare
  v_touch text[];
  v_agents uuid[];
begin
  -- one refresh at a time (the work takes the lock again); taken first so the ranking below runs beside no refresh
  perform pg_advisory_xact_lock(hashtext('public.refresh_agent_metrics'));
  -- without pg_cron's job nothing else ranks the city pages earlier refreshes left stale: rank them now, before this
  -- refresh marks its own
  if not private.city_ranking_scheduled() then
    perform private.rank_stale_city_pages(wait => true);
  end if;
  create temp table if not exists deferred_zip_pages (zip_code text primary key) on commit drop;
  create temp table if not exists deferred_figure_agents (agent_id uuid primary key) on commit drop;
  truncate pg_temp.deferred_zip_pages, pg_temp.deferred_figure_agents;
  perform set_config('private.defer_zip_pages', 'on', true);
  return query
  select w.metrics_window_start, w.metrics_window_end, w.agents_updated, w.refresh_kind, w.agents_recomputed
  from private.refresh_agent_metrics_work(window_months, window_end, full_refresh) w;
  perform set_config('private.defer_zip_pages', '', true);
  v_touch := array(select d.zip_code from pg_temp.deferred_zip_pages d order by 1);
  v_agents := array(select d.agent_id from pg_temp.deferred_figure_agents d);
  truncate pg_temp.deferred_zip_pages, pg_temp.deferred_figure_agents;
  -- the ZIP pages whose ranking inputs changed, recomputed once with the refresh's final data; then the other ZIPs
  -- of the agents whose printed figures moved
  perform private.touch_zip_pages_now(v_touch);
  perform private.bump_area_pages_now(v_agents, v_touch);
end;
$function$;
