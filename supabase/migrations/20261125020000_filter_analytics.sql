-- Analytics filters and goals (filter by page/source, exclude a path, goals on Conversions).
--
-- The four aggregates (analytics_summary, analytics_top_pages, analytics_sources, analytics_daily) take three
-- optional filters after their period, all null by default so existing calls keep their meaning:
--   page_path      only views of this exact path ('/blog/first-time-buyers'); leads whose source_page is that path
--   traffic_source only views from this source label (utm_source, else referrer host, else 'Direct', as
--                  analytics_sources names them); leads whose utm_source is that label ('Direct': no utm_source).
--                  Leads do not store the referrer, so a referral source has no attributable leads.
--   exclude_path   leave out views whose path starts with this prefix ('/blog' drops /blog and /blog/...),
--                  and leads whose source_page does
-- analytics_goals counts the two goals of the Conversions tab over the same period and filters:
--   report_request      report_requests rows created in the period (the lead form)
--   newsletter_confirm  newsletter_subscriptions confirmed in the period (double opt-in done); subscriptions store no
--                       page or source, so with a page or source filter this goal is not attributable (null)
-- Bad filters raise 22023 with a message naming the argument.

-- the guard of every filtered aggregate: admin, period (analytics_check_period), then the filters' shapes
create function public.analytics_check_filters(period_start timestamptz, period_end timestamptz, page_path text, traffic_source text, exclude_path text)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  perform public.analytics_check_period(period_start, period_end);
  if page_path is not null and (page_path !~ '^/' or char_length(page_path) > 300) then
    raise exception 'Analytics page_path must be a path starting with / (at most 300 characters)' using errcode = '22023';
  end if;
  if traffic_source is not null and char_length(traffic_source) not between 1 and 255 then
    raise exception 'Analytics traffic_source must be 1 to 255 characters' using errcode = '22023';
  end if;
  if exclude_path is not null and (exclude_path !~ '^/.' or char_length(exclude_path) > 300) then
    raise exception 'Analytics exclude_path must be a path prefix starting with / and longer than / itself (at most 300 characters)' using errcode = '22023';
  end if;
end;
$$;

comment on function public.analytics_check_filters(timestamptz, timestamptz, text, text, text) is
  'analytics_check_period, then 22023 for a page_path or exclude_path that is not a path (exclude_path may not be / alone) or a traffic_source outside 1-255 characters.';

revoke execute on function public.analytics_check_filters(timestamptz, timestamptz, text, text, text) from public, anon;
grant execute on function public.analytics_check_filters(timestamptz, timestamptz, text, text, text) to authenticated, service_role;


drop function public.analytics_summary(timestamptz, timestamptz);
create function public.analytics_summary(
  period_start timestamptz, period_end timestamptz,
  page_path text default null, traffic_source text default null, exclude_path text default null
)
returns table (visitors bigint, page_views bigint, report_requests bigint, conversion_rate double precision)
language plpgsql
stable
set search_path = ''
as $$
begin
  perform public.analytics_check_filters(period_start, period_end, page_path, traffic_source, exclude_path);
  return query
  with views as (
    select count(*) as page_views, count(distinct v.visitor_hash) as visitors
      from public.page_views v
     where v.created_at >= period_start and v.created_at < period_end
       and (page_path is null or v.path = page_path)
       and (traffic_source is null or coalesce(v.utm_source, v.referrer_host, 'Direct') = traffic_source)
       and (exclude_path is null or left(v.path, char_length(exclude_path)) <> exclude_path)
  ), leads as (
    select count(*) as report_requests
      from public.report_requests r
     where r.created_at >= period_start and r.created_at < period_end
       and (page_path is null or r.source_page = page_path)
       and (traffic_source is null or coalesce(r.utm_source, 'Direct') = traffic_source)
       and (exclude_path is null or r.source_page is null or left(r.source_page, char_length(exclude_path)) <> exclude_path)
  )
  select views.visitors, views.page_views, leads.report_requests,
         case when views.visitors = 0 then null
              else leads.report_requests::double precision / views.visitors end
    from views, leads;
end;
$$;

comment on function public.analytics_summary(timestamptz, timestamptz, text, text, text) is
  'One row for [period_start, period_end) under the optional filters: visitors (distinct daily visitor hashes), page_views, report_requests (leads created), conversion_rate = report_requests / visitors as a FRACTION (0.05 = 5 %), null without visitors. Admins only.';

revoke execute on function public.analytics_summary(timestamptz, timestamptz, text, text, text) from public, anon;
grant execute on function public.analytics_summary(timestamptz, timestamptz, text, text, text) to authenticated, service_role;


drop function public.analytics_top_pages(timestamptz, timestamptz, integer);
create function public.analytics_top_pages(
  period_start timestamptz, period_end timestamptz, max_rows integer default 10,
  page_path text default null, traffic_source text default null, exclude_path text default null
)
returns table (path text, page_views bigint, visitors bigint)
language plpgsql
stable
set search_path = ''
as $$
begin
  perform public.analytics_check_filters(period_start, period_end, page_path, traffic_source, exclude_path);
  return query
  select v.path, count(*) as page_views, count(distinct v.visitor_hash) as visitors
    from public.page_views v
   where v.created_at >= period_start and v.created_at < period_end
     and (page_path is null or v.path = page_path)
     and (traffic_source is null or coalesce(v.utm_source, v.referrer_host, 'Direct') = traffic_source)
     and (exclude_path is null or left(v.path, char_length(exclude_path)) <> exclude_path)
   group by v.path
   order by 2 desc, 1
   limit least(greatest(coalesce(max_rows, 10), 1), 100);
end;
$$;

comment on function public.analytics_top_pages(timestamptz, timestamptz, integer, text, text, text) is
  'Most viewed paths in [period_start, period_end) under the optional filters, most views first (ties by path), max_rows 1-100 (default 10). Admins only.';

revoke execute on function public.analytics_top_pages(timestamptz, timestamptz, integer, text, text, text) from public, anon;
grant execute on function public.analytics_top_pages(timestamptz, timestamptz, integer, text, text, text) to authenticated, service_role;


drop function public.analytics_sources(timestamptz, timestamptz, integer);
create function public.analytics_sources(
  period_start timestamptz, period_end timestamptz, max_rows integer default 10,
  page_path text default null, traffic_source text default null, exclude_path text default null
)
returns table (source text, kind text, page_views bigint, visitors bigint)
language plpgsql
stable
set search_path = ''
as $$
begin
  perform public.analytics_check_filters(period_start, period_end, page_path, traffic_source, exclude_path);
  return query
  with labelled as (
    select coalesce(v.utm_source, v.referrer_host, 'Direct') as source,
           case when v.utm_source is not null then 'campaign'
                when v.referrer_host is not null then 'referral'
                else 'direct' end as kind,
           v.visitor_hash
      from public.page_views v
     where v.created_at >= period_start and v.created_at < period_end
       and (page_path is null or v.path = page_path)
       and (traffic_source is null or coalesce(v.utm_source, v.referrer_host, 'Direct') = traffic_source)
       and (exclude_path is null or left(v.path, char_length(exclude_path)) <> exclude_path)
  )
  select l.source, l.kind, count(*) as page_views, count(distinct l.visitor_hash) as visitors
    from labelled l
   group by l.source, l.kind
   order by 3 desc, 1
   limit least(greatest(coalesce(max_rows, 10), 1), 100);
end;
$$;

comment on function public.analytics_sources(timestamptz, timestamptz, integer, text, text, text) is
  'Traffic sources in [period_start, period_end) under the optional filters: utm_source when present (kind campaign), else the referrer host (referral), else Direct (direct); most views first, max_rows 1-100 (default 10). Admins only.';

revoke execute on function public.analytics_sources(timestamptz, timestamptz, integer, text, text, text) from public, anon;
grant execute on function public.analytics_sources(timestamptz, timestamptz, integer, text, text, text) to authenticated, service_role;


drop function public.analytics_daily(timestamptz, timestamptz);
create function public.analytics_daily(
  period_start timestamptz, period_end timestamptz,
  page_path text default null, traffic_source text default null, exclude_path text default null
)
returns table (day date, page_views bigint, visitors bigint)
language plpgsql
stable
set search_path = ''
as $$
begin
  perform public.analytics_check_filters(period_start, period_end, page_path, traffic_source, exclude_path);
  return query
  with days as (
    select d::date as day
      from generate_series(
        (period_start at time zone 'utc')::date::timestamp,
        ((period_end - interval '1 microsecond') at time zone 'utc')::date::timestamp,
        interval '1 day'
      ) as d
  ), counts as (
    select (v.created_at at time zone 'utc')::date as day, count(*) as page_views, count(distinct v.visitor_hash) as visitors
      from public.page_views v
     where v.created_at >= period_start and v.created_at < period_end
       and (page_path is null or v.path = page_path)
       and (traffic_source is null or coalesce(v.utm_source, v.referrer_host, 'Direct') = traffic_source)
       and (exclude_path is null or left(v.path, char_length(exclude_path)) <> exclude_path)
     group by 1
  )
  select days.day, coalesce(counts.page_views, 0)::bigint, coalesce(counts.visitors, 0)::bigint
    from days left join counts on counts.day = days.day
   order by days.day;
end;
$$;

comment on function public.analytics_daily(timestamptz, timestamptz, text, text, text) is
  'Page views and visitors per UTC day of [period_start, period_end) under the optional filters, every day present (zero when quiet), oldest first. Admins only.';

revoke execute on function public.analytics_daily(timestamptz, timestamptz, text, text, text) from public, anon;
grant execute on function public.analytics_daily(timestamptz, timestamptz, text, text, text) to authenticated, service_role;


create function public.analytics_goals(
  period_start timestamptz, period_end timestamptz,
  page_path text default null, traffic_source text default null, exclude_path text default null
)
returns table (goal text, completions bigint, conversion_rate double precision)
language plpgsql
stable
set search_path = ''
as $$
declare
  visitor_count bigint;
begin
  perform public.analytics_check_filters(period_start, period_end, page_path, traffic_source, exclude_path);
  select count(distinct v.visitor_hash) into visitor_count
    from public.page_views v
   where v.created_at >= period_start and v.created_at < period_end
     and (page_path is null or v.path = page_path)
     and (traffic_source is null or coalesce(v.utm_source, v.referrer_host, 'Direct') = traffic_source)
     and (exclude_path is null or left(v.path, char_length(exclude_path)) <> exclude_path);

  return query
  with goals as (
    select 'report_request'::text as goal, 1 as position, (
      select count(*) from public.report_requests r
       where r.created_at >= period_start and r.created_at < period_end
         and (page_path is null or r.source_page = page_path)
         and (traffic_source is null or coalesce(r.utm_source, 'Direct') = traffic_source)
         and (exclude_path is null or r.source_page is null or left(r.source_page, char_length(exclude_path)) <> exclude_path)
    ) as completions
    union all
    select 'newsletter_confirm', 2,
           case when page_path is null and traffic_source is null then (
             select count(*) from public.newsletter_subscriptions n
              where n.confirmed_at >= period_start and n.confirmed_at < period_end
           ) end
  )
  select g.goal, g.completions,
         case when g.completions is null or visitor_count = 0 then null
              else g.completions::double precision / visitor_count end
    from goals g
   order by g.position;
end;
$$;

comment on function public.analytics_goals(timestamptz, timestamptz, text, text, text) is
  'Goal completions in [period_start, period_end) under the optional filters: report_request (leads created), newsletter_confirm (subscriptions confirmed; null under a page or source filter, as subscriptions store neither); conversion_rate = completions / visitors as a FRACTION, null without visitors or completions figure. Admins only.';

revoke execute on function public.analytics_goals(timestamptz, timestamptz, text, text, text) from public, anon;
grant execute on function public.analytics_goals(timestamptz, timestamptz, text, text, text) to authenticated, service_role;
