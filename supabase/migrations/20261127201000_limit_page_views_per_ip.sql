-- Page views are limited per client IP as well as per visitor hash: the visitor hash mixes in the User-Agent, which
-- the client writes, so rotating it used to open a fresh bucket for every view. The IP key is an HMAC the
-- track-pageview function makes of the gateway's client address (never stored raw), counted per minute in
-- public.rate_limit_hits like every other public limit. One call per view: the IP count, the visitor count and the
-- insert.

drop function public.record_page_view(text, text, text, text, text, integer);

/*
 * Stores one page view unless the client IP (ip_key_hash) has more than max_per_ip_per_minute views in the current
 * minute or the visitor hash has max_per_minute views in the last 60 seconds; returns whether it was stored.
 * Every call counts against the IP, stored or not, so a refused client cannot keep the bucket open.
 */
create function public.record_page_view(
  path text,
  referrer_host text,
  utm_source text,
  device_class text,
  visitor_hash text,
  max_per_minute integer,
  ip_key_hash text,
  max_per_ip_per_minute integer
)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  ip_hits integer;
  recent integer;
begin
  select h.hits into ip_hits
    from public.hit_rate_limits(array[record_page_view.ip_key_hash], array[60]) h;
  if ip_hits > max_per_ip_per_minute then
    return false;
  end if;

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

comment on function public.record_page_view(text, text, text, text, text, integer, text, integer) is
  'Stores one page view unless its client IP (HMAC key) passed max_per_ip_per_minute this minute or its visitor hash has max_per_minute views in the last minute; returns whether it was stored. service_role only (track-pageview).';

revoke execute on function public.record_page_view(text, text, text, text, text, integer, text, integer)
  from public, anon, authenticated;
grant execute on function public.record_page_view(text, text, text, text, text, integer, text, integer)
  to service_role;
