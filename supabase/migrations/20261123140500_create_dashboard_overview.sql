-- The dashboard's figures in one request (instead of four counts the browser could cancel and resend): the four
-- cards with the previous period to compare, speed-to-lead, and the "needs attention" list.

create function public.dashboard_overview(period_days integer default 30)
returns jsonb
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  now_ts timestamptz := now();
  -- whole UTC days, today included (the Analytics page's periods)
  period_end timestamptz := ((now() at time zone 'utc')::date + 1)::timestamp at time zone 'utc';
  period_start timestamptz;
  previous_start timestamptz;
  result jsonb;
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators may read the dashboard.' using errcode = '42501';
  end if;
  if period_days is null or period_days not between 1 and 366 then
    raise exception 'period_days must be between 1 and 366, got %.', period_days using errcode = '22023';
  end if;
  period_start := period_end - make_interval(days => period_days);
  previous_start := period_start - make_interval(days => period_days);

  select jsonb_build_object(
    'period_days', period_days,
    'published_posts', (select count(*) from public.blog_posts where status = 'published' and published_at <= now_ts),
    'scheduled_posts', (select count(*) from public.blog_posts where status = 'published' and published_at > now_ts),
    'draft_posts', (select count(*) from public.blog_posts where status = 'draft'),
    'pending_leads', (select count(*) from public.report_requests where status = 'pending'),
    -- trends: this period against the one before it
    'posts_published', jsonb_build_object(
      'current', (select count(*) from public.blog_posts where status = 'published' and published_at >= period_start and published_at <= now_ts),
      'previous', (select count(*) from public.blog_posts where status = 'published' and published_at >= previous_start and published_at < period_start)),
    'posts_created', jsonb_build_object(
      'current', (select count(*) from public.blog_posts where created_at >= period_start and created_at < period_end),
      'previous', (select count(*) from public.blog_posts where created_at >= previous_start and created_at < period_start)),
    'leads', jsonb_build_object(
      'current', (select count(*) from public.report_requests where created_at >= period_start and created_at < period_end),
      'previous', (select count(*) from public.report_requests where created_at >= previous_start and created_at < period_start)),
    'page_views', jsonb_build_object(
      'current', (select count(*) from public.page_views where created_at >= period_start and created_at < period_end),
      'previous', (select count(*) from public.page_views where created_at >= previous_start and created_at < period_start)),
    -- speed-to-lead: median minutes from request to first contact, of the period's leads that were contacted
    'median_minutes_to_contact', (
      select round((percentile_cont(0.5) within group (order by extract(epoch from (contacted_at - created_at)) / 60))::numeric, 1)
        from public.report_requests
       where contacted_at is not null and created_at >= period_start and created_at < period_end),
    'contacted_leads', (select count(*) from public.report_requests where contacted_at is not null and created_at >= period_start and created_at < period_end),
    -- needs attention
    'pending_leads_over_a_day', (select count(*) from public.report_requests where status = 'pending' and created_at < now_ts - interval '1 day'),
    'overdue_follow_ups', (select count(*) from public.report_requests where follow_up_on < current_date and status <> 'closed'),
    'failed_builds', (
      -- the newest finished build failed (the site is stale until the next good one)
      select count(*) from (select status from public.site_builds where status in ('succeeded', 'failed') order by id desc limit 1) newest
       where newest.status = 'failed'),
    'failed_jobs', (select count(*) from public.content_generation_jobs where status = 'failed' and created_at > now_ts - interval '7 days'),
    'scheduled_today', (
      select count(*) from public.blog_posts
       where status = 'published' and published_at > now_ts and published_at < now_ts + interval '1 day')
  ) into result;
  return result;
end;
$$;

comment on function public.dashboard_overview(integer) is
  'Dashboard figures as one JSON object: post and lead counts, {current, previous} pairs for the last period_days whole UTC days (today included) and the same length before, median minutes to first contact, and the needs-attention counts. Admins only (42501); 22023 for a period outside 1-366 days.';

revoke execute on function public.dashboard_overview(integer) from public, anon;
grant execute on function public.dashboard_overview(integer) to authenticated;
