-- Read-only aggregates behind the AI content pipeline (discover-trending-topics, generate-blog-content).
--
-- The functions group rows in the database instead of shipping every search or sale to the edge function. They
-- run as the caller (security invoker) and only service_role may execute them: the edge functions call them with
-- the service-role key after they have checked that their caller is an admin. Visitors never reach them.
--
-- Windows: searches and report requests are counted against now(); closed sales against the latest close date in
-- public.properties, because imported MLS/Redfin history can end months before today and "the last 90 days of
-- data" is the honest recent window for it.


-- ---------------------------------------------------------------------------------------------------------------
-- content_search_trends: what visitors search for, recent window vs the window before it
-- ---------------------------------------------------------------------------------------------------------------

create function public.content_search_trends(p_days integer default 30)
returns table (
  kind text,
  label text,
  zip_code text,
  city text,
  state text,
  recent_searches bigint,
  prior_searches bigint
)
language sql
stable
set search_path = ''
as $$
  with windowed as (
    select
      case when sq.search_type = 'agent' then 'agent' else 'area' end as kind,
      -- an area search is named by the ZIP it resolved to, so '02139' and 'Cambridge 02139' count together
      case
        when sq.search_type = 'agent' then lower(btrim(sq.query))
        else coalesce(sq.resolved_zip_code, lower(btrim(sq.query)))
      end as label,
      sq.resolved_zip_code,
      sq.resolved_city,
      sq.resolved_state,
      sq.created_at >= now() - make_interval(days => p_days) as recent
    from public.search_queries sq
    where sq.created_at >= now() - make_interval(days => 2 * p_days)
  )
  select
    w.kind,
    w.label,
    max(w.resolved_zip_code),
    max(w.resolved_city),
    max(w.resolved_state),
    count(*) filter (where w.recent),
    count(*) filter (where not w.recent)
  from windowed w
  group by w.kind, w.label
  having count(*) filter (where w.recent) > 0
  order by 6 desc, 2
  limit 200;
$$;

comment on function public.content_search_trends(integer) is
  'Site searches grouped by kind (agent | area) and label (agent query, or resolved ZIP): searches in the last p_days days and in the p_days before. service_role only (topic discovery).';

revoke execute on function public.content_search_trends(integer) from public, anon, authenticated;
grant execute on function public.content_search_trends(integer) to service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- content_zip_sales_trend: closed sales per ZIP, recent window vs the window before it
-- ---------------------------------------------------------------------------------------------------------------

create function public.content_zip_sales_trend(p_zip_codes text[] default null, p_window_days integer default 90)
returns table (
  zip_code text,
  city text,
  state text,
  window_end date,
  recent_sales bigint,
  prior_sales bigint,
  recent_median_price numeric,
  prior_median_price numeric,
  recent_median_dom numeric,
  recent_avg_sale_to_list numeric
)
language sql
stable
set search_path = ''
as $$
  with closed as (
    select
      left(p.zip_code, 5) as zip_code,
      p.city,
      p.state,
      p.sale_price,
      p.list_price,
      p.days_on_market,
      p.sale_date
    from public.properties p
    where p.sale_price > 0
      and p.sale_date is not null
      and p.zip_code is not null
      and (p.standard_status is null or p.standard_status = 'Closed')
  ),
  anchor as (
    select max(c.sale_date) as window_end from closed c
  ),
  tagged as (
    select
      c.*,
      a.window_end,
      c.sale_date > a.window_end - p_window_days as recent,
      c.sale_date <= a.window_end - p_window_days and c.sale_date > a.window_end - 2 * p_window_days as prior
    from closed c
    cross join anchor a
    where p_zip_codes is null or c.zip_code = any (p_zip_codes)
  )
  select
    t.zip_code,
    max(t.city),
    max(t.state),
    max(t.window_end),
    count(*) filter (where t.recent),
    count(*) filter (where t.prior),
    round((percentile_cont(0.5) within group (order by t.sale_price) filter (where t.recent))::numeric, 0),
    round((percentile_cont(0.5) within group (order by t.sale_price) filter (where t.prior))::numeric, 0),
    round((percentile_cont(0.5) within group (order by t.days_on_market) filter (where t.recent and t.days_on_market is not null))::numeric, 1),
    round(avg(t.sale_price / t.list_price * 100) filter (where t.recent and t.list_price > 0), 1)
  from tagged t
  where t.recent or t.prior
  group by t.zip_code
  order by 5 desc, 1
  limit 500;
$$;

comment on function public.content_zip_sales_trend(text[], integer) is
  'Closed sales per ZIP in the last p_window_days days of data (ending at the latest close date) and the window before: counts, median price USD, median DOM days, average sale-to-list PERCENT. Optionally limited to p_zip_codes. service_role only.';

revoke execute on function public.content_zip_sales_trend(text[], integer) from public, anon, authenticated;
grant execute on function public.content_zip_sales_trend(text[], integer) to service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- content_report_request_areas: where visitors ask for agent reports
-- ---------------------------------------------------------------------------------------------------------------

create function public.content_report_request_areas(p_days integer default 90)
returns table (agent_location text, requests bigint)
language sql
stable
set search_path = ''
as $$
  select btrim(r.agent_location), count(*)
  from public.report_requests r
  where r.created_at >= now() - make_interval(days => p_days)
    and r.agent_location is not null
    and btrim(r.agent_location) <> ''
  group by btrim(r.agent_location)
  order by 2 desc, 1
  limit 50;
$$;

comment on function public.content_report_request_areas(integer) is
  'Report requests (leads) in the last p_days days grouped by the agent''s location text. service_role only (topic discovery).';

revoke execute on function public.content_report_request_areas(integer) from public, anon, authenticated;
grant execute on function public.content_report_request_areas(integer) to service_role;
