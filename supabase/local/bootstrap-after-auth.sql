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

-- Vault stand-in: the API of hosted Supabase's supabase_vault extension (vault.create_secret, vault.update_secret,
-- vault.decrypted_secrets), which every hosted project has. Locally the secret is stored as plain text in a
-- superuser-only schema; hosted Vault encrypts it at rest. Database Webhooks' supabase_functions schema is not
-- here: a new hosted project does not have it either, and migration 20261121004900 creates it.
create schema if not exists vault;
create table if not exists vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text,
  description text not null default '',
  secret text not null,
  key_id uuid,
  nonce bytea,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index if not exists secrets_name_idx on vault.secrets (name) where name is not null;
create or replace view vault.decrypted_secrets as
  select id, name, description, secret, secret as decrypted_secret, key_id, nonce, created_at, updated_at
  from vault.secrets;
create or replace function vault.create_secret(
  new_secret text, new_name text default null, new_description text default '', new_key_id uuid default null
) returns uuid
language sql security definer set search_path = '' as $$
  insert into vault.secrets (secret, name, description, key_id)
  values (new_secret, new_name, coalesce(new_description, ''), new_key_id)
  returning id;
$$;
create or replace function vault.update_secret(
  secret_id uuid, new_secret text default null, new_name text default null, new_description text default null,
  new_key_id uuid default null
) returns void
language sql security definer set search_path = '' as $$
  update vault.secrets
     set secret = coalesce(new_secret, secret), name = coalesce(new_name, name),
         description = coalesce(new_description, description), key_id = coalesce(new_key_id, key_id),
         updated_at = now()
   where id = secret_id;
$$;
revoke all on schema vault from public;
revoke all on all tables in schema vault from public;
revoke execute on all functions in schema vault from public;

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
-- Resend-shaped attachments [{filename, content (base64), content_type?}] (the agent report PDF)
alter table local_mailbox.messages add column if not exists attachments jsonb;
-- Resend-shaped extra headers {name: value} (List-Unsubscribe and List-Unsubscribe-Post of every email we send)
alter table local_mailbox.messages add column if not exists headers jsonb;
revoke all on schema net, vault, local_mailbox from anon, authenticated;

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

-- MFA (TOTP) tables with GoTrue's names and columns, which @supabase/lite does not create; supabase/local/mfa.ts
-- implements the /auth/v1/factors endpoints over them, and admin policies read auth.mfa_factors (hosted Supabase
-- has the same tables, with enum types for factor_type and status).
create table if not exists auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null check (factor_type in ('totp')),
  status text not null check (status in ('unverified', 'verified')),
  secret text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_challenged_at timestamptz
);
create index if not exists mfa_factors_user_id_idx on auth.mfa_factors (user_id);
create table if not exists auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null default now(),
  verified_at timestamptz,
  ip_address inet
);
create table if not exists auth.mfa_amr_claims (
  id uuid primary key,
  session_id uuid not null,
  authentication_method text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists mfa_amr_claims_session_idx on auth.mfa_amr_claims (session_id);
-- the API roles read nothing here directly; policies consult the table through security definer functions
revoke all on auth.mfa_factors, auth.mfa_challenges, auth.mfa_amr_claims from anon, authenticated;

-- Storage: hosted projects grant the API roles these on the storage schema (the Storage API runs its queries as the
-- caller's role, so the storage.objects policies decide). lite provisions the tables beside auth.
grant usage on schema storage to anon, authenticated, service_role;
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;
grant execute on all functions in schema storage to anon, authenticated, service_role;
