-- One fixed-window rate limiter for every public edge function (report requests, newsletter sign-ups, report
-- confirmations, agent search, page views). A key is an HMAC the function makes of a kind and a value (a client IP
-- address or a folded mailbox), so no raw address is ever stored; each key is counted in windows of its own length.
-- It replaces the hourly-only report_request_rate_limits table and its function (their counters are short-lived,
-- so nothing of value is dropped with them).

create table public.rate_limit_hits (
  key_hash text not null check (key_hash ~ '^[0-9a-f]{64}$'),
  window_start timestamptz not null,
  window_seconds integer not null check (window_seconds between 1 and 86400),
  hits integer not null default 0 check (hits >= 0),
  expires_at timestamptz not null,
  primary key (key_hash, window_start)
);

comment on table public.rate_limit_hits is
  'Hits per hashed key (HMAC of a kind and a client IP or mailbox) per fixed window. service_role only (the public edge functions); expired windows are removed by private.prune_raw_events().';
comment on column public.rate_limit_hits.key_hash is 'HMAC-SHA-256 hex of ''<kind>:<value>'' (value: a client IP or a folded mailbox); never the raw value.';
comment on column public.rate_limit_hits.window_start is 'Start of the window: now() rounded down to a multiple of window_seconds since the epoch.';
comment on column public.rate_limit_hits.window_seconds is 'Length of the window in seconds (60 for per-minute limits, 3600 per hour, 86400 per day).';
comment on column public.rate_limit_hits.expires_at is 'When the window ends; rows past it are only history and are deleted.';

-- the clean-up deletes by expiry
create index rate_limit_hits_expires_at_idx on public.rate_limit_hits (expires_at);

alter table public.rate_limit_hits enable row level security;

revoke all on public.rate_limit_hits from public, anon, authenticated;
grant select, insert, update, delete on public.rate_limit_hits to service_role;
-- no policies: anon and authenticated have neither privileges nor rows; service_role bypasses RLS

/*
 * Counts one hit for each key_hashes[i] in its current window of window_seconds[i] seconds and returns each key's
 * count after this hit (the caller refuses when one is over its limit). Atomic per key (insert ... on conflict), so
 * concurrent requests cannot both slip under a limit. The two arrays must have the same length; a key may appear
 * once. 22023 for empty or mismatched arrays and for windows outside 1-86400 seconds.
 */
create function public.hit_rate_limits(key_hashes text[], window_seconds integer[])
returns table (key_hash text, hits integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  if key_hashes is null or cardinality(key_hashes) = 0 or cardinality(key_hashes) > 10 then
    raise exception 'key_hashes must hold 1 to 10 keys' using errcode = '22023';
  end if;
  if window_seconds is null or cardinality(window_seconds) <> cardinality(key_hashes) then
    raise exception 'window_seconds must give one window per key' using errcode = '22023';
  end if;
  if exists (select 1 from unnest(window_seconds) w where w is null or w < 1 or w > 86400) then
    raise exception 'every window must be 1 to 86400 seconds' using errcode = '22023';
  end if;

  return query
    insert into public.rate_limit_hits as r (key_hash, window_start, window_seconds, expires_at, hits)
    select k.key_hash, w.start, k.seconds, w.start + make_interval(secs => k.seconds), 1
      from unnest(key_hashes, window_seconds) as k (key_hash, seconds)
      cross join lateral (select to_timestamp(floor(extract(epoch from now()) / k.seconds) * k.seconds) as start) w
    on conflict on constraint rate_limit_hits_pkey do update set hits = r.hits + 1
    returning r.key_hash, r.hits;
end;
$$;

comment on function public.hit_rate_limits(text[], integer[]) is
  'Adds a hit for each hashed key in its current window (seconds per key); returns each key''s count. service_role only (the public edge functions).';

revoke execute on function public.hit_rate_limits(text[], integer[]) from public, anon, authenticated;
grant execute on function public.hit_rate_limits(text[], integer[]) to service_role;

drop function public.hit_report_request_rate_limit(text[]);
drop table public.report_request_rate_limits;
