-- Analytics' "Report Requests" and the report_request goal count report requests only (Get Report on an agent page),
-- not contact-form messages, which share the CRM's table since lead_type was added: a contact message is a lead but
-- not a report request, and counting it made the figure and the conversion rate it divides untrue.
-- Same signatures, so the grants stay.

create or replace function public.analytics_summary(
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
       and r.lead_type = 'report'
  )
  select views.visitors, views.page_views, leads.report_requests,
         case when views.visitors = 0 then null
              else leads.report_requests::double precision / views.visitors end
    from views, leads;
end;
$$;

comment on function public.analytics_summary(timestamptz, timestamptz, text, text, text) is
  'One row for [period_start, period_end) under the optional filters: visitors (distinct daily visitor hashes), page_views, report_requests (report requests created; contact messages are not counted), conversion_rate = report_requests / visitors as a FRACTION (0.05 = 5 %), null without visitors. Admins only.';

create or replace function public.analytics_goals(
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
         and r.lead_type = 'report'
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
  'Goal completions in [period_start, period_end) under the optional filters: report_request (report requests created; contact messages are not counted), newsletter_confirm (subscriptions confirmed; null under a page or source filter, as subscriptions store neither); conversion_rate = completions / visitors as a FRACTION, null without visitors or completions figure. Admins only.';
