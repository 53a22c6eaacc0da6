-- Runs after @supabase/lite has provisioned the auth schema. Closes gap 5 of the platform issue: a plain
-- (security invoker) SQL function that calls auth.uid() failed with 42501 because the API roles had no usage
-- on schema auth. Hosted Supabase grants exactly this.
grant usage on schema auth to anon, authenticated, service_role;
grant execute on all functions in schema auth to anon, authenticated, service_role;

-- pg_net stand-in: the same net.http_post / net.http_get signatures as the pg_net extension. Calls are queued
-- here and sent by the local dispatcher (supabase/local/webhooks.ts) once the transaction commits, because a
-- NOTIFY is only delivered on commit. Hosted Supabase uses the real pg_net extension instead.
create schema if not exists net;
create table if not exists net.http_request_queue (
  id bigserial primary key,
  method text not null check (method in ('GET', 'POST', 'DELETE')),
  url text not null,
  headers jsonb not null default '{}'::jsonb,
  params jsonb not null default '{}'::jsonb,
  body jsonb,
  timeout_milliseconds integer not null default 5000,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  created_at timestamptz not null default now()
);
create table if not exists net._http_response (
  id bigint not null,
  url text,
  status_code integer,
  content_type text,
  content text,
  timed_out boolean not null default false,
  error_msg text,
  attempts integer not null default 1,
  created timestamptz not null default now()
);

create or replace function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  request_id bigint;
begin
  insert into net.http_request_queue (method, url, headers, params, body, timeout_milliseconds)
  values ('POST', url, coalesce(headers, '{}'::jsonb), coalesce(params, '{}'::jsonb), body, timeout_milliseconds)
  returning id into request_id;
  perform pg_notify('net_http_request', request_id::text);
  return request_id;
end
$$;

create or replace function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  request_id bigint;
begin
  insert into net.http_request_queue (method, url, headers, params, timeout_milliseconds)
  values ('GET', url, coalesce(headers, '{}'::jsonb), coalesce(params, '{}'::jsonb), timeout_milliseconds)
  returning id into request_id;
  perform pg_notify('net_http_request', request_id::text);
  return request_id;
end
$$;

-- Database webhooks: the trigger function hosted Supabase installs for "Database Webhooks", with the same
-- arguments (url, method, headers, params, timeout_ms) and the same payload {type, table, schema, record,
-- old_record}, so a migration that creates `... execute function supabase_functions.http_request(...)` runs
-- unchanged in both places.
create schema if not exists supabase_functions;
create table if not exists supabase_functions.hooks (
  id bigserial primary key,
  hook_table_id integer not null,
  hook_name text not null,
  created_at timestamptz not null default now(),
  request_id bigint
);

create or replace function supabase_functions.http_request()
returns trigger
language plpgsql security definer set search_path = '' as $$
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

-- Local mail catcher (the Supabase CLI's Inbucket/Mailpit): every email the auth service or a function sends
-- locally lands here and is shown at http://localhost:54324.
create schema if not exists local_mailbox;
create table if not exists local_mailbox.messages (
  id bigserial primary key,
  sender text not null,
  recipients text[] not null,
  subject text not null,
  text_body text,
  html_body text,
  created_at timestamptz not null default now()
);
revoke all on schema net, supabase_functions, local_mailbox from anon, authenticated;

-- Schema reloads: hosted Supabase notifies PostgREST after every DDL command (extensions.pgrst_ddl_watch), so a new
-- table or function is visible to the API at once. The local API listens on the same channel and drops lite's
-- schema cache.
create or replace function extensions.pgrst_ddl_watch() returns event_trigger
language plpgsql as $$
begin
  notify pgrst, 'reload schema';
end
$$;
drop event trigger if exists pgrst_ddl_watch;
create event trigger pgrst_ddl_watch on ddl_command_end execute function extensions.pgrst_ddl_watch();
