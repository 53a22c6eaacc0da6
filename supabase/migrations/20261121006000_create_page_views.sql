-- First-party, cookie-free page-view analytics.
--
-- The public site's beacon posts {path, referrer, utm_source, device_class} to the track-pageview edge function,
-- which stores one row per view with service_role. No IP address, no user agent and no identifier that outlives a
-- day is stored: a visitor is counted through visitor_hash = SHA-256(daily salt || IP || user agent || site), and
-- the daily salt is random, readable by service_role only, and deleted once its day has passed, so yesterday's
-- hashes can no longer be recomputed from an IP and a user agent.
--
-- Admins read the rows (RLS) and the aggregates below (analytics_summary, analytics_top_pages, analytics_sources,
-- analytics_daily). Periods are half-open [period_start, period_end); days are UTC days.


-- ---------------------------------------------------------------------------------------------------------------
-- page_views
-- ---------------------------------------------------------------------------------------------------------------

create table public.page_views (
  id bigint generated always as identity primary key,
  -- pathname only (no query string, no fragment), without a trailing slash except for the home page
  path text not null check (path ~ '^/' and char_length(path) <= 300),
  -- host of an external referrer ('google.com'); null for direct visits and same-site navigation
  referrer_host text check (char_length(referrer_host) between 1 and 255),
  utm_source text check (char_length(utm_source) between 1 and 100),
  device_class text not null check (device_class in ('mobile', 'tablet', 'desktop')),
  -- hex SHA-256; the same visitor gets a different hash every UTC day
  visitor_hash text not null check (visitor_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now()
);

comment on table public.page_views is
  'Public-site page views (no IP, no user agent, no cookie). Written by the track-pageview function with service_role; admins read.';
comment on column public.page_views.path is 'Page path without query string or trailing slash, e.g. /blog/first-time-buyers.';
comment on column public.page_views.referrer_host is 'Host name of an external referrer without www., null for direct or same-site visits.';
comment on column public.page_views.utm_source is 'utm_source query parameter of the landing URL, lower-cased.';
comment on column public.page_views.device_class is 'mobile (< 768 px wide), tablet (768-1023 px) or desktop (>= 1024 px).';
comment on column public.page_views.visitor_hash is 'Hex SHA-256 of daily salt + IP + user agent + site; rotates every UTC day, so it counts daily unique visitors only.';

-- every aggregate filters on a created_at range
create index page_views_created_at_idx on public.page_views (created_at);
-- the rate limit: views of one visitor in the last minute
create index page_views_visitor_hash_created_at_idx on public.page_views (visitor_hash, created_at desc);

alter table public.page_views enable row level security;

revoke all on public.page_views from anon, authenticated;
grant select on public.page_views to authenticated;
grant all on public.page_views to service_role;

create policy "Admins read page views" on public.page_views
  for select to authenticated
  using ((select public.is_admin()));


-- ---------------------------------------------------------------------------------------------------------------
-- analytics_salts: one random salt per UTC day, service_role only
-- ---------------------------------------------------------------------------------------------------------------

create table public.analytics_salts (
  day date primary key,
  salt text not null check (salt ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now()
);

comment on table public.analytics_salts is
  'Daily random salt of the page-view visitor hash. Only service_role reads or writes; past days are deleted by analytics_daily_salt().';

alter table public.analytics_salts enable row level security;

-- no policies and no grants for visitors or admins: an admin who could read today's salt could test whether a
-- known IP and user agent visited today
revoke all on public.analytics_salts from anon, authenticated;
grant all on public.analytics_salts to service_role;

-- today's salt (created on first use), after deleting every earlier one; called by track-pageview
create function public.analytics_daily_salt()
returns table (day date, salt text)
language plpgsql
volatile
set search_path = ''
as $$
declare
  today date := (now() at time zone 'utc')::date;
begin
  delete from public.analytics_salts s where s.day < today;
  -- two v4 UUIDs come from the server's strong random source: 244 random bits, hex-encoded to 64 characters
  insert into public.analytics_salts (day, salt)
  values (today, encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'utf8')), 'hex'))
  on conflict on constraint analytics_salts_pkey do nothing;
  return query select s.day, s.salt from public.analytics_salts s where s.day = today;
end;
$$;

comment on function public.analytics_daily_salt() is
  'Returns (day, salt) for the current UTC day, creating the salt on first use and deleting earlier days. service_role only.';

revoke execute on function public.analytics_daily_salt() from public, anon, authenticated;
grant execute on function public.analytics_daily_salt() to service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- record_page_view: rate-limited insert used by track-pageview
-- ---------------------------------------------------------------------------------------------------------------

-- the advisory lock serialises one visitor's concurrent requests so the count-then-insert cannot overshoot the limit
create function public.record_page_view(
  path text,
  referrer_host text,
  utm_source text,
  device_class text,
  visitor_hash text,
  max_per_minute integer
)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  recent integer;
begin
  perform pg_advisory_xact_lock(hashtextextended('page_views:' || record_page_view.visitor_hash, 0));
  select count(*) into recent
    from public.page_views v
   where v.visitor_hash = record_page_view.visitor_hash
     and v.created_at > now() - interval '1 minute';
  if recent >= max_per_minute then
    return false;
  end if;
  insert into public.page_views (path, referrer_host, utm_source, device_class, visitor_hash)
  values (record_page_view.path, record_page_view.referrer_host, record_page_view.utm_source,
          record_page_view.device_class, record_page_view.visitor_hash);
  return true;
end;
$$;

comment on function public.record_page_view(text, text, text, text, text, integer) is
  'Stores one page view unless the visitor already has max_per_minute views in the last minute; returns whether it was stored. service_role only.';

revoke execute on function public.record_page_view(text, text, text, text, text, integer) from public, anon, authenticated;
grant execute on function public.record_page_view(text, text, text, text, text, integer) to service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- Aggregates for the admin app
-- ---------------------------------------------------------------------------------------------------------------

-- shared guard: API callers must be admins (service_role and the SQL editor pass), and the period must make sense
create function public.analytics_check_period(period_start timestamptz, period_end timestamptz)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and not (select public.is_admin()) then
    raise exception 'Analytics are available to administrators only' using errcode = '42501';
  end if;
  if period_start is null or period_end is null then
    raise exception 'Analytics period_start and period_end are required' using errcode = '22023';
  end if;
  if period_start >= period_end then
    raise exception 'Analytics period_start (%) must be before period_end (%)', period_start, period_end using errcode = '22023';
  end if;
  if period_end - period_start > interval '400 days' then
    raise exception 'Analytics periods are limited to 400 days' using errcode = '22023';
  end if;
end;
$$;

comment on function public.analytics_check_period(timestamptz, timestamptz) is
  'Raises 42501 unless the caller is an admin (or service_role), 22023 for a missing, reversed or longer-than-400-day period.';

revoke execute on function public.analytics_check_period(timestamptz, timestamptz) from public, anon;
grant execute on function public.analytics_check_period(timestamptz, timestamptz) to authenticated, service_role;


create function public.analytics_summary(period_start timestamptz, period_end timestamptz)
returns table (visitors bigint, page_views bigint, report_requests bigint, conversion_rate double precision)
language plpgsql
stable
set search_path = ''
as $$
begin
  perform public.analytics_check_period(period_start, period_end);
  return query
  with views as (
    select count(*) as page_views, count(distinct v.visitor_hash) as visitors
      from public.page_views v
     where v.created_at >= period_start and v.created_at < period_end
  ), leads as (
    select count(*) as report_requests
      from public.report_requests r
     where r.created_at >= period_start and r.created_at < period_end
  )
  select views.visitors, views.page_views, leads.report_requests,
         case when views.visitors = 0 then null
              else leads.report_requests::double precision / views.visitors end
    from views, leads;
end;
$$;

comment on function public.analytics_summary(timestamptz, timestamptz) is
  'One row for [period_start, period_end): visitors (distinct daily visitor hashes, so a visitor counts once per UTC day), page_views, report_requests (leads created), conversion_rate = report_requests / visitors as a FRACTION (0.05 = 5 %), null when there were no visitors. Admins only.';

revoke execute on function public.analytics_summary(timestamptz, timestamptz) from public, anon;
grant execute on function public.analytics_summary(timestamptz, timestamptz) to authenticated, service_role;


create function public.analytics_top_pages(period_start timestamptz, period_end timestamptz, max_rows integer default 10)
returns table (path text, page_views bigint, visitors bigint)
language plpgsql
stable
set search_path = ''
as $$
begin
  perform public.analytics_check_period(period_start, period_end);
  return query
  select v.path, count(*) as page_views, count(distinct v.visitor_hash) as visitors
    from public.page_views v
   where v.created_at >= period_start and v.created_at < period_end
   group by v.path
   order by 2 desc, 1
   limit least(greatest(coalesce(max_rows, 10), 1), 100);
end;
$$;

comment on function public.analytics_top_pages(timestamptz, timestamptz, integer) is
  'Most viewed paths in [period_start, period_end), most views first (ties by path), max_rows 1-100 (default 10). Admins only.';

revoke execute on function public.analytics_top_pages(timestamptz, timestamptz, integer) from public, anon;
grant execute on function public.analytics_top_pages(timestamptz, timestamptz, integer) to authenticated, service_role;


create function public.analytics_sources(period_start timestamptz, period_end timestamptz, max_rows integer default 10)
returns table (source text, kind text, page_views bigint, visitors bigint)
language plpgsql
stable
set search_path = ''
as $$
begin
  perform public.analytics_check_period(period_start, period_end);
  return query
  with labelled as (
    select coalesce(v.utm_source, v.referrer_host, 'Direct') as source,
           case when v.utm_source is not null then 'campaign'
                when v.referrer_host is not null then 'referral'
                else 'direct' end as kind,
           v.visitor_hash
      from public.page_views v
     where v.created_at >= period_start and v.created_at < period_end
  )
  select l.source, l.kind, count(*) as page_views, count(distinct l.visitor_hash) as visitors
    from labelled l
   group by l.source, l.kind
   order by 3 desc, 1
   limit least(greatest(coalesce(max_rows, 10), 1), 100);
end;
$$;

comment on function public.analytics_sources(timestamptz, timestamptz, integer) is
  'Traffic sources in [period_start, period_end): utm_source when present (kind campaign), else the referrer host (referral), else Direct (direct); most views first, max_rows 1-100 (default 10). Admins only.';

revoke execute on function public.analytics_sources(timestamptz, timestamptz, integer) from public, anon;
grant execute on function public.analytics_sources(timestamptz, timestamptz, integer) to authenticated, service_role;


create function public.analytics_daily(period_start timestamptz, period_end timestamptz)
returns table (day date, page_views bigint, visitors bigint)
language plpgsql
stable
set search_path = ''
as $$
begin
  perform public.analytics_check_period(period_start, period_end);
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
     group by 1
  )
  select days.day, coalesce(counts.page_views, 0)::bigint, coalesce(counts.visitors, 0)::bigint
    from days left join counts on counts.day = days.day
   order by days.day;
end;
$$;

comment on function public.analytics_daily(timestamptz, timestamptz) is
  'Page views and visitors per UTC day of [period_start, period_end), every day present (zero when quiet), oldest first. Admins only.';

revoke execute on function public.analytics_daily(timestamptz, timestamptz) from public, anon;
grant execute on function public.analytics_daily(timestamptz, timestamptz) to authenticated, service_role;
