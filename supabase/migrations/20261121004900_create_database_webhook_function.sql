-- What a "Database Webhook" trigger needs, created here so that `supabase db push` applies every migration on a
-- fresh hosted project whether or not Database Webhooks were enabled in the dashboard first.
--
-- Migration 20261121005000 creates a trigger on supabase_functions.http_request(). Hosted Supabase creates that
-- schema and function only when someone presses "Enable webhooks" (Integrations → Database Webhooks), so without
-- this file a push to a new project stopped there. This file is numbered before 20261121005000 on purpose: it is
-- the only way to repair that ordering without editing an applied migration (no database had applied the later
-- files on hosted, because the push always failed there).
--
-- Everything is created only when missing: a project where webhooks were already enabled keeps the platform's own
-- objects (owned by supabase_admin, which this role could not replace anyway). The definitions are the platform's:
-- the same trigger arguments (url, method, headers, params, timeout_ms) and the same payload {type, table, schema,
-- record, old_record}, sent through pg_net's net.http_post / net.http_get. Since 20261123180000 our own webhooks no
-- longer use this function (see that file); it stays for dashboard-made webhooks.

do $$
begin
  if not exists (select from pg_namespace where nspname = 'supabase_functions') then
    create schema supabase_functions;
    grant usage on schema supabase_functions to postgres, service_role;
  end if;
end
$$;

create table if not exists supabase_functions.hooks (
  id bigserial primary key,
  hook_table_id integer not null,
  hook_name text not null,
  created_at timestamptz not null default now(),
  request_id bigint
);

comment on table supabase_functions.hooks is 'Supabase Database Webhooks: one row per request sent (audit trail).';

do $body$
begin
  if to_regprocedure('supabase_functions.http_request()') is not null then
    return;
  end if;
  create function supabase_functions.http_request()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
  as $$
  declare
    request_id bigint;
    payload jsonb;
    url text := TG_ARGV[0]::text;
    method text := TG_ARGV[1]::text;
    headers jsonb default '{}'::jsonb;
    params jsonb default '{}'::jsonb;
    timeout_ms integer default 1000;
  begin
    if url is null or url = 'null' then
      raise exception 'url argument is missing';
    end if;
    if method is null or method = 'null' then
      raise exception 'method argument is missing';
    end if;
    if TG_ARGV[2] is null or TG_ARGV[2] = 'null' then
      headers = '{"Content-Type": "application/json"}'::jsonb;
    else
      headers = TG_ARGV[2]::jsonb;
    end if;
    if TG_ARGV[3] is null or TG_ARGV[3] = 'null' then
      params = '{}'::jsonb;
    else
      params = TG_ARGV[3]::jsonb;
    end if;
    if TG_ARGV[4] is null or TG_ARGV[4] = 'null' then
      timeout_ms = 1000;
    else
      timeout_ms = TG_ARGV[4]::integer;
    end if;

    case
      when method = 'GET' then
        request_id := net.http_get(url, params, headers, timeout_ms);
      when method = 'POST' then
        payload = jsonb_build_object(
          'old_record', case when TG_OP in ('UPDATE', 'DELETE') then to_jsonb(OLD) end,
          'record', case when TG_OP in ('INSERT', 'UPDATE') then to_jsonb(NEW) end,
          'type', TG_OP,
          'table', TG_TABLE_NAME,
          'schema', TG_TABLE_SCHEMA
        );
        request_id := net.http_post(url, payload, params, headers, timeout_ms);
      else
        raise exception 'method argument % is invalid', method;
    end case;

    insert into supabase_functions.hooks (hook_table_id, hook_name, request_id)
    values (TG_RELID, TG_NAME, request_id);

    return coalesce(NEW, OLD);
  end
  $$;
  revoke execute on function supabase_functions.http_request() from public, anon, authenticated;
end
$body$;
