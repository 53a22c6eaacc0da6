-- content_sales_overview: every closed sale on the site in one aggregate, for evergreen articles (guides that name
-- no ZIP or city). Same window rule as content_zip_sales_trend: the last p_window_days days of data, ending at the
-- latest close date, and the window before it. service_role only (generate-blog-content after its admin check).

create function public.content_sales_overview(p_window_days integer default 90)
returns table (
  window_end date,
  recent_sales bigint,
  prior_sales bigint,
  zip_codes bigint,
  recent_median_price numeric,
  recent_median_dom numeric,
  recent_avg_sale_to_list numeric
)
language sql
stable
set search_path = ''
as $$
  with closed as (
    select p.sale_price, p.list_price, p.days_on_market, p.sale_date, left(p.zip_code, 5) as zip_code
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
  )
  select
    max(t.window_end),
    count(*) filter (where t.recent),
    count(*) filter (where t.prior),
    count(distinct t.zip_code) filter (where t.recent),
    round((percentile_cont(0.5) within group (order by t.sale_price) filter (where t.recent))::numeric, 0),
    round((percentile_cont(0.5) within group (order by t.days_on_market) filter (where t.recent and t.days_on_market is not null))::numeric, 1),
    round(avg(t.sale_price / t.list_price * 100) filter (where t.recent and t.list_price > 0), 1)
  from tagged t
  where t.recent or t.prior
  having count(*) filter (where t.recent) > 0;
$$;

comment on function public.content_sales_overview(integer) is
  'All closed sales on the site in the last p_window_days days of data (ending at the latest close date) and the window before: counts, ZIPs covered, median price USD, median DOM days, average sale-to-list PERCENT. No row without recent sales. service_role only.';

revoke execute on function public.content_sales_overview(integer) from public, anon, authenticated;
grant execute on function public.content_sales_overview(integer) to service_role;
