-- Rate limiting for the public `request-report` edge function: hits per key per clock hour, where a key is an
-- HMAC of the visitor's email or IP address made by the function (no raw email or IP is ever stored here).

create table public.report_request_rate_limits (
  key_hash text not null check (key_hash ~ '^[0-9a-f]{64}$'),
  window_start timestamptz not null,
  hits integer not null default 0 check (hits >= 0),
  primary key (key_hash, window_start)
);

comment on table public.report_request_rate_limits is
  'Report-request hits per hashed key (HMAC of email or IP) per clock hour. service_role only (request-report function).';
comment on column public.report_request_rate_limits.key_hash is 'HMAC-SHA-256 hex of ''email:<address>'' or ''ip:<address>''; never the raw value.';
comment on column public.report_request_rate_limits.window_start is 'Start of the clock hour the hits belong to.';

-- the clean-up in hit_report_request_rate_limit deletes by age
create index report_request_rate_limits_window_start_idx on public.report_request_rate_limits (window_start);

alter table public.report_request_rate_limits enable row level security;

revoke all on public.report_request_rate_limits from anon, authenticated;
grant all on public.report_request_rate_limits to service_role;
-- no policies: anon and authenticated have neither privileges nor rows; service_role bypasses RLS


/**
 * Counts one hit for every key in `key_hashes` in the current clock hour and returns each key's count after this
 * hit, so the caller refuses when one exceeds its limit. Atomic per key (insert ... on conflict), so
 * concurrent requests cannot both slip under a limit. Rows older than two hours are removed on the way.
 */
create function public.hit_report_request_rate_limit(key_hashes text[])
returns table (key_hash text, hits integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_window timestamptz := date_trunc('hour', now());
begin
  if key_hashes is null or cardinality(key_hashes) = 0 then
    raise exception 'key_hashes must hold at least one key' using errcode = '22023';
  end if;

  delete from public.report_request_rate_limits where window_start < v_window - interval '1 hour';

  return query
    insert into public.report_request_rate_limits as r (key_hash, window_start, hits)
    select distinct k, v_window, 1 from unnest(key_hashes) as k
    on conflict on constraint report_request_rate_limits_pkey do update set hits = r.hits + 1
    returning r.key_hash, r.hits;
end;
$$;

comment on function public.hit_report_request_rate_limit(text[]) is
  'Adds a hit for each hashed key in the current hour; returns each key''s count. service_role only (request-report).';

revoke execute on function public.hit_report_request_rate_limit(text[]) from public, anon, authenticated;
grant execute on function public.hit_report_request_rate_limit(text[]) to service_role;
