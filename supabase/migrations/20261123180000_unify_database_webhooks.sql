-- One webhook mechanism for site rebuilds and new-lead emails: private.send_webhook(hook, body) posts through
-- pg_net (net.http_post) to a URL kept in Supabase Vault, with the hook's shared secret, also from Vault, in the
-- x-webhook-secret header. Before this file the two hooks worked differently (rebuilds: net.http_post with URL and
-- secret in private.site_build_settings; leads: supabase_functions.http_request with the secret written into the
-- trigger's arguments, where any role can read it in pg_trigger.tgargs).
--
-- The same SQL runs on hosted Supabase (pg_net and supabase_vault extensions) and locally (the stand-ins in
-- supabase/local/bootstrap-after-auth.sql with the same function signatures). Nothing here depends on a dashboard
-- toggle: a fresh project gets working triggers from `db push`, and each hook stays off until its URL is set with
--   select private.configure_webhook('new_lead', 'https://<ref>.supabase.co/functions/v1/notify-new-lead');
--   select private.configure_webhook('site_build', '<static host build hook URL>');
-- (README "Deploy"). The new-lead secret is generated here and never leaves the database.
--
-- Scheduled posts: private.request_site_build_if_due() rebuilds only when a post's publish time passed since the
-- last rebuild request; private.schedule_site_rebuilds() runs it every 10 minutes with pg_cron.

do $$
begin
  if exists (select from pg_available_extensions where name = 'supabase_vault') then
    create extension if not exists supabase_vault cascade;
  end if;
end
$$;


-- ---------------------------------------------------------------------------------------------------------------
-- hook settings in Vault
-- ---------------------------------------------------------------------------------------------------------------

-- Vault secret names: webhook.<hook>.url and webhook.<hook>.secret; '' means unset (Vault has no delete function)
create function private.webhook_setting(hook text, setting text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select nullif(s.decrypted_secret, '')
    from vault.decrypted_secrets s
   where s.name = format('webhook.%s.%s', hook, setting);
$$;

comment on function private.webhook_setting(text, text) is
  'The Vault value webhook.<hook>.<setting> (setting url or secret), or null when unset.';

revoke execute on function private.webhook_setting(text, text) from public, anon, authenticated;

create function private.put_webhook_setting(hook text, setting text, value text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  secret_name text := format('webhook.%s.%s', hook, setting);
  secret_id uuid;
begin
  select s.id into secret_id from vault.secrets s where s.name = secret_name;
  if secret_id is null then
    perform vault.create_secret(coalesce(value, ''), secret_name, format('%s of the %s database webhook', setting, hook));
  else
    perform vault.update_secret(secret_id, coalesce(value, ''));
  end if;
end;
$$;

revoke execute on function private.put_webhook_setting(text, text, text) from public, anon, authenticated;

/*
 * Sets where a database webhook goes. hook: 'site_build' (the static host's build hook, or the local builder) or
 * 'new_lead' (the notify-new-lead function). url: absolute http(s) URL, or null to turn the hook off. secret: sent
 * as x-webhook-secret; null keeps the current one, '' removes it (a build hook URL carries its own secret).
 * Raises 22023 naming the bad argument.
 */
create function private.configure_webhook(hook text, url text, secret text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if hook is null or hook not in ('site_build', 'new_lead') then
    raise exception 'hook must be site_build or new_lead, got %', hook using errcode = '22023';
  end if;
  if url is not null and url !~ '^https?://[^/\s]+(/\S*)?$' then
    raise exception 'url must be an absolute http(s) URL, got %', url using errcode = '22023';
  end if;
  if secret is not null and secret <> '' and char_length(secret) not between 16 and 200 then
    raise exception 'secret must be 16 to 200 characters long' using errcode = '22023';
  end if;
  perform private.put_webhook_setting(hook, 'url', url);
  if secret is not null then
    perform private.put_webhook_setting(hook, 'secret', secret);
  end if;
end;
$$;

comment on function private.configure_webhook(text, text, text) is
  'Sets the URL (null: off) and optionally the x-webhook-secret of the site_build or new_lead webhook, stored in Vault. Raises 22023 for a bad argument.';

revoke execute on function private.configure_webhook(text, text, text) from public, anon, authenticated;

/*
 * Posts `body` (JSON) to the hook's URL with Content-Type application/json and, when the hook has a secret,
 * x-webhook-secret. pg_net sends it after the transaction commits. Returns the pg_net request id, or null when the
 * hook has no URL (turned off).
 */
create function private.send_webhook(hook text, body jsonb)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_url text := private.webhook_setting(hook, 'url');
  target_secret text := private.webhook_setting(hook, 'secret');
  headers jsonb := '{"Content-Type": "application/json"}'::jsonb;
begin
  if target_url is null then
    return null;
  end if;
  if target_secret is not null then
    headers := headers || jsonb_build_object('x-webhook-secret', target_secret);
  end if;
  return net.http_post(url := target_url, body := body, headers := headers, timeout_milliseconds := 5000);
end;
$$;

comment on function private.send_webhook(text, jsonb) is
  'The one way this database calls out: net.http_post of `body` to webhook.<hook>.url from Vault, x-webhook-secret from Vault when set. Null when the hook is off.';

revoke execute on function private.send_webhook(text, jsonb) from public, anon, authenticated;


-- ---------------------------------------------------------------------------------------------------------------
-- move the existing settings into Vault
-- ---------------------------------------------------------------------------------------------------------------

select private.put_webhook_setting('site_build', 'url', hook_url),
       private.put_webhook_setting('site_build', 'secret', secret)
  from private.site_build_settings;

-- the new-lead secret keeps its value; the URL is set per environment (the local stack sets its own at start)
select private.put_webhook_setting('new_lead', 'secret', secret) from private.new_lead_webhook_secret;
select private.put_webhook_setting('new_lead', 'url', null);

alter table private.site_build_settings drop column hook_url, drop column secret;
alter table private.site_build_settings add column last_requested_at timestamptz;
comment on table private.site_build_settings is
  'Site rebuild bookkeeping (one row): who reports builds (builder) and when the last rebuild was requested. The hook URL and secret are in Vault (private.configure_webhook).';
comment on column private.site_build_settings.last_requested_at is
  'When the last rebuild was requested; private.request_site_build_if_due() rebuilds for posts that went live after it.';

drop trigger if exists notify_new_lead on public.report_requests;
drop function private.configure_new_lead_webhook(text);
drop table private.new_lead_webhook_secret;


-- ---------------------------------------------------------------------------------------------------------------
-- site rebuilds through the one mechanism
-- ---------------------------------------------------------------------------------------------------------------

create or replace function private.request_site_build(reason text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  request_id bigint;
begin
  request_id := private.send_webhook(
    'site_build', jsonb_build_object('reason', left(reason, 2000), 'source', 'database webhook'));
  if request_id is null then
    return null;
  end if;
  update private.site_build_settings set last_requested_at = now() where id;
  if (select builder from private.site_build_settings where id) = 'build_hook' then
    insert into public.site_builds (status, trigger_reason) values ('requested', left(reason, 2000));
  end if;
  return request_id;
end;
$$;

comment on function private.request_site_build(text) is
  'Sends {reason, source} to the site_build webhook (private.send_webhook); records a requested build when a static host''s build hook receives it. Null when the hook is off.';

revoke execute on function private.request_site_build(text) from public, anon, authenticated;

/*
 * Rebuilds only when something changed: when a post's publish time (published_at) passed after the last rebuild
 * request, i.e. a scheduled post has just gone live. Returns the pg_net request id, or null when nothing is due or
 * the hook is off. Meant for pg_cron (private.schedule_site_rebuilds) and the local builder's timer.
 */
create function private.request_site_build_if_due()
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  since timestamptz;
  due text[];
begin
  select coalesce(last_requested_at, '-infinity') into since from private.site_build_settings where id;
  select array_agg('scheduled post live: ' || p.slug order by p.published_at, p.slug) into due
    from public.blog_posts p
   where p.status = 'published' and p.published_at > since and p.published_at <= now();
  if due is null then
    return null;
  end if;
  return private.request_site_build(private.summarize_site_changes(due));
end;
$$;

comment on function private.request_site_build_if_due() is
  'Requests a site rebuild when a scheduled post went live since the last request; null when nothing is due.';

revoke execute on function private.request_site_build_if_due() from public, anon, authenticated;

/*
 * Schedules private.request_site_build_if_due() every 10 minutes with pg_cron (job 'site-build-when-due').
 * Raises 55000 with what to do when pg_cron is not enabled (Dashboard → Database → Extensions → pg_cron).
 */
create function private.schedule_site_rebuilds()
returns bigint
language plpgsql
set search_path = ''
as $$
begin
  if to_regnamespace('cron') is null then
    raise exception 'pg_cron is not enabled: enable it under Database → Extensions (pg_cron), then run this again'
      using errcode = '55000';
  end if;
  return (select cron.schedule('site-build-when-due', '*/10 * * * *', 'select private.request_site_build_if_due()'));
end;
$$;

revoke execute on function private.schedule_site_rebuilds() from public, anon, authenticated;


-- ---------------------------------------------------------------------------------------------------------------
-- new-lead email through the one mechanism
-- ---------------------------------------------------------------------------------------------------------------

-- same payload as a Supabase Database Webhook, so notify-new-lead reads {type, table, schema, record, old_record}
create function private.report_requests_new_lead_webhook()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.send_webhook('new_lead', jsonb_build_object(
    'type', TG_OP, 'table', TG_TABLE_NAME, 'schema', TG_TABLE_SCHEMA, 'record', to_jsonb(new), 'old_record', null));
  return null;
end;
$$;

revoke execute on function private.report_requests_new_lead_webhook() from public, anon, authenticated;

create trigger notify_new_lead
  after insert on public.report_requests
  for each row execute function private.report_requests_new_lead_webhook();

create or replace function public.verify_new_lead_webhook_secret(candidate text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(candidate is not null and candidate = private.webhook_setting('new_lead', 'secret'), false);
$$;

comment on function public.verify_new_lead_webhook_secret(text) is
  'True when `candidate` is the new-lead webhook secret (Vault webhook.new_lead.secret). service_role only (the notify-new-lead function).';

revoke execute on function public.verify_new_lead_webhook_secret(text) from public, anon, authenticated;
grant execute on function public.verify_new_lead_webhook_secret(text) to service_role;
