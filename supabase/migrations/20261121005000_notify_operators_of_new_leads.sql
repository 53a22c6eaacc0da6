-- New-lead email to the operators: a database webhook on insert into report_requests calls the edge function
-- notify-new-lead, which mails every administrator (or MAIL_OPERATORS).
--
-- The trigger is a plain Supabase "Database Webhook" (supabase_functions.http_request with url, method, headers,
-- params, timeout), the same SQL the dashboard writes. Its arguments are fixed when the trigger is created, and
-- the function URL differs per environment (local `npm start`, a test stack on a free port, the hosted project),
-- so the trigger is (re)created by private.configure_new_lead_webhook(url). This migration points it at the local
-- default http://127.0.0.1:54321; production runs, once, in the SQL editor:
--   select private.configure_new_lead_webhook('https://<project-ref>.supabase.co/functions/v1/notify-new-lead');
--
-- The webhook proves itself with a random secret generated here, stored only in the database and sent as the
-- x-webhook-secret header; the function checks it through public.verify_new_lead_webhook_secret(). No key or
-- secret is written into a migration file, and nothing needs `supabase secrets set` for the webhook to work.
--
-- "Time to first contact" in the CRM uses report_requests.contacted_at, which the core schema already stamps by
-- trigger when a lead first leaves 'pending' (stamp_report_request_contacted_at); no second column is added.

create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

-- one row: the shared secret the webhook sends; never exposed through the API (schema private is not served)
create table private.new_lead_webhook_secret (
  id boolean primary key default true check (id),
  secret text not null check (char_length(secret) >= 32),
  created_at timestamptz not null default now()
);

comment on table private.new_lead_webhook_secret is
  'Shared secret of the new-lead database webhook (x-webhook-secret header). One row. Not reachable through the API.';

alter table private.new_lead_webhook_secret enable row level security;
revoke all on private.new_lead_webhook_secret from public, anon, authenticated;

-- gen_random_uuid() draws from the server's strong random source; two of them give 244 random bits
insert into private.new_lead_webhook_secret (secret)
values (replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''));


-- (re)creates the webhook trigger pointing at `function_url`; the only per-environment setting of the feature
-- security invoker: only the table owner (postgres, the SQL editor) may replace the trigger
create function private.configure_new_lead_webhook(function_url text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  webhook_secret text;
begin
  if function_url is null or function_url !~ '^https?://[^/\s]+/\S*$' then
    raise exception 'function_url must be an absolute http(s) URL of the notify-new-lead function, got %', function_url
      using errcode = '22023';
  end if;
  select secret into strict webhook_secret from private.new_lead_webhook_secret;

  drop trigger if exists notify_new_lead on public.report_requests;
  execute format(
    'create trigger notify_new_lead after insert on public.report_requests for each row '
    'execute function supabase_functions.http_request(%L, %L, %L, %L, %L)',
    function_url,
    'POST',
    jsonb_build_object('Content-Type', 'application/json', 'x-webhook-secret', webhook_secret)::text,
    '{}',
    '5000'
  );
end;
$$;

comment on function private.configure_new_lead_webhook(text) is
  'Points the new-lead webhook at the notify-new-lead function URL, e.g. https://<ref>.supabase.co/functions/v1/notify-new-lead. Raises 22023 for a non-http(s) URL.';

revoke execute on function private.configure_new_lead_webhook(text) from public, anon, authenticated;

-- the local default (`npm start`, API_PORT 54321); other environments call the function again with their URL
select private.configure_new_lead_webhook('http://127.0.0.1:54321/functions/v1/notify-new-lead');


-- lets the edge function check the x-webhook-secret header without ever reading the secret itself
create function public.verify_new_lead_webhook_secret(candidate text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select candidate is not null and candidate = s.secret from private.new_lead_webhook_secret s),
    false
  );
$$;

comment on function public.verify_new_lead_webhook_secret(text) is
  'True when `candidate` is the new-lead webhook secret. service_role only (the notify-new-lead function).';

revoke execute on function public.verify_new_lead_webhook_secret(text) from public, anon, authenticated;
grant execute on function public.verify_new_lead_webhook_secret(text) to service_role;


-- who gets the new-lead email: every administrator with an email address
create function public.lead_operator_emails()
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select distinct u.email::text
  from public.user_roles r
  join auth.users u on u.id = r.user_id
  where r.role = 'admin' and u.email is not null and u.email <> ''
  order by 1;
$$;

comment on function public.lead_operator_emails() is
  'Email addresses of the administrators (user_roles role admin), the default recipients of new-lead emails. service_role only.';

revoke execute on function public.lead_operator_emails() from public, anon, authenticated;
grant execute on function public.lead_operator_emails() to service_role;
