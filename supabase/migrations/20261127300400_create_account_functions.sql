-- The account page's data: the signed-in visitor's report requests, the export of everything held about an account,
-- and its deletion. A request belongs to an account when it was made with the account's email address and that
-- address is confirmed (Auth's email_confirmed_at), so nobody sees requests by signing up with someone else's email.

/*
 * The caller's report requests (Get Report leads made with their confirmed email), newest first, at most 200, with
 * what the visitor may see: the agent, when, and where the report stands (delivery: sent; not_sent; awaiting_confirmation
 * while the request's own confirmation link is unused; pending while it is being mailed).
 * Never the operators' fields (status, owner, notes). Empty for an unconfirmed address or an anonymous caller.
 */
create function public.my_report_requests()
returns table (
  id uuid,
  created_at timestamptz,
  agent_id uuid,
  agent_name text,
  agent_location text,
  report_sent_at timestamptz,
  delivery text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  select u.email into v_email
    from auth.users u
   where u.id = (select auth.uid()) and u.email_confirmed_at is not null;
  if v_email is null then
    return;
  end if;
  return query
    select r.id, r.created_at, r.agent_id, r.agent_name, r.agent_location, r.report_sent_at,
           case when r.report_sent_at is not null then 'sent'
                when r.report_error is not null then 'not_sent'
                when r.email_confirmed_at is null then 'awaiting_confirmation'
                else 'pending' end
      from public.report_requests r
     where lower(r.email) = lower(v_email)
       and r.lead_type = 'report'
       and r.anonymized_at is null
       and r.deleted_at is null
     order by r.created_at desc, r.id
     limit 200;
end;
$$;

comment on function public.my_report_requests() is
  'The signed-in caller''s report requests (matched by their confirmed email), with the delivery state only. authenticated.';
revoke execute on function public.my_report_requests() from public, anon;
grant execute on function public.my_report_requests() to authenticated, service_role;

/*
 * Everything held about one account, as JSON: the account (email, name, dates), saved agents, the compare list, the
 * leads made with its email (report requests and contact messages, with the notes operators wrote on them), the
 * newsletter subscription and whether the address unsubscribed. P0002 when the account does not exist.
 */
create function public.account_export(target uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user auth.users%rowtype;
  v_email text;
begin
  select * into v_user from auth.users where id = target;
  if not found then
    raise exception 'No account with id %', target using errcode = 'P0002';
  end if;
  v_email := lower(btrim(v_user.email));
  return jsonb_build_object(
    'exported_at', now(),
    'account', jsonb_build_object(
      'id', v_user.id,
      'email', v_user.email,
      'email_confirmed_at', v_user.email_confirmed_at,
      -- the metadata object (a stand-in may store it as a JSON string holding the object)
      'full_name', case jsonb_typeof(v_user.raw_user_meta_data)
                     when 'string' then (v_user.raw_user_meta_data #>> '{}')::jsonb
                     else v_user.raw_user_meta_data end ->> 'full_name',
      'created_at', v_user.created_at,
      'last_sign_in_at', v_user.last_sign_in_at
    ),
    'saved_agents', coalesce((
      select jsonb_agg(jsonb_build_object('agent_id', s.agent_id, 'agent_name', a.name, 'saved_at', s.created_at)
                       order by s.created_at desc)
        from public.saved_agents s join public.agents a on a.id = s.agent_id
       where s.user_id = target), '[]'::jsonb),
    'compare_list', coalesce((select to_jsonb(c.agent_ids) from public.compare_lists c where c.user_id = target),
                             '[]'::jsonb),
    'requests', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', r.id, 'type', r.lead_type, 'created_at', r.created_at, 'full_name', r.full_name,
               'email', r.email, 'phone', r.phone, 'property_address', r.property_address, 'message', r.message,
               'agent_id', r.agent_id, 'agent_name', r.agent_name, 'agent_location', r.agent_location,
               'status', r.status, 'email_confirmed_at', r.email_confirmed_at, 'report_sent_at', r.report_sent_at,
               'source_page', r.source_page,
               'utm_source', r.utm_source, 'utm_medium', r.utm_medium, 'utm_campaign', r.utm_campaign,
               'utm_term', r.utm_term, 'utm_content', r.utm_content,
               'notes', coalesce((select jsonb_agg(jsonb_build_object('written_at', n.created_at, 'note', n.body)
                                                   order by n.created_at)
                                    from public.lead_notes n where n.report_request_id = r.id), '[]'::jsonb))
             order by r.created_at desc)
        from public.report_requests r
       where lower(r.email) = v_email and r.anonymized_at is null), '[]'::jsonb),
    'newsletter', (
      select jsonb_build_object('signed_up_at', n.created_at, 'confirmed_at', n.confirmed_at)
        from public.newsletter_subscriptions n where n.email = v_email),
    'unsubscribed_at', (
      select e.created_at from public.email_suppressions e where e.email_hash = public.email_hash(v_email))
  );
end;
$$;

comment on function public.account_export(uuid) is
  'JSON of everything held about one account (the account function''s "export my data"). service_role only.';
revoke execute on function public.account_export(uuid) from public, anon, authenticated;
grant execute on function public.account_export(uuid) to service_role;

/*
 * Removes an email address from everything held about it, for an account's deletion or a visitor's request:
 *  - leads made with it (in the trash or not) stay for the operators' counts but lose every personal field (name,
 *    email, phone, address, message, notes, the delivery error text, the confirmation token) and the notes written
 *    on them;
 *  - the admin audit log keeps its entries about those leads and notes, and about anything else that named the
 *    address, with those fields removed from the recorded values (the one change ever made to that log: erasure);
 *  - the newsletter subscription and the auth service's log entries naming the address are deleted.
 * The suppression list keeps its hash if the address had unsubscribed, so it still gets nothing.
 * Returns the counts of what changed.
 */
create function private.erase_email_data(address text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(address));
  v_leads integer;
  v_newsletter integer;
  v_lead_ids text[];
  v_note_ids text[];
  personal constant text[] := array[
    'full_name', 'email', 'phone', 'property_address', 'message', 'notes', 'report_error', 'confirmation_token_hash'
  ];
begin
  if v_email is null or v_email = '' then
    raise exception 'address must be an email address' using errcode = '22023';
  end if;

  select coalesce(array_agg(r.id::text), '{}') into v_lead_ids from public.report_requests r where lower(r.email) = v_email;
  select coalesce(array_agg(n.id::text), '{}') into v_note_ids
    from public.lead_notes n where n.report_request_id::text = any (v_lead_ids);

  delete from public.lead_notes n where n.id::text = any (v_note_ids);
  update public.report_requests
     set full_name = 'Deleted account',
         email = 'deleted-' || id::text || '@anonymized.invalid',
         phone = null,
         property_address = null,
         message = null,
         notes = null,
         report_error = case when report_error is null then null else 'Not sent (details removed with the account)' end,
         confirmation_token_hash = null,
         anonymized_at = now()
   where id::text = any (v_lead_ids);
  get diagnostics v_leads = row_count;

  delete from public.newsletter_subscriptions where email = v_email;
  get diagnostics v_newsletter = row_count;

  -- GoTrue's audit log names a user by email (sign-ups, sign-ins, password changes)
  delete from auth.audit_log_entries where strpos(lower(payload::text), v_email) > 0;

  -- last, so it also covers what an administrator's call of this function just recorded: what the admin audit log
  -- holds of these leads and notes, and any other value that named the address
  update public.audit_log a
     set before = a.before - personal - 'body',
         after = a.after - personal - 'body'
   where (a.table_name = 'report_requests' and a.row_id = any (v_lead_ids))
      or (a.table_name = 'lead_notes' and a.row_id = any (v_note_ids));
  update public.audit_log a
     set before = (select jsonb_object_agg(e.key, case when strpos(lower(e.value::text), v_email) > 0
                                                  then '"(erased)"'::jsonb else e.value end)
                     from jsonb_each(a.before) e),
         after = (select jsonb_object_agg(e.key, case when strpos(lower(e.value::text), v_email) > 0
                                                 then '"(erased)"'::jsonb else e.value end)
                    from jsonb_each(a.after) e)
   where strpos(lower(coalesce(a.before::text, '') || coalesce(a.after::text, '')), v_email) > 0;

  return jsonb_build_object('leads_anonymized', v_leads, 'newsletter_removed', v_newsletter);
end;
$$;

comment on function private.erase_email_data(text) is
  'Removes an address from leads (anonymised, kept for the counts), their notes, the audit log''s values, the newsletter and Auth''s log. Called by delete_account and erase_email.';
revoke execute on function private.erase_email_data(text) from public, anon, authenticated, service_role;

/*
 * Deletes one account and everything tied to it, in one transaction: everything private.erase_email_data removes
 * for its email, the auth service's log entries naming its id, and the user itself (sessions, identities, saved
 * agents and the compare list go with it). P0002 when the account does not exist. Returns the counts of what changed.
 */
create function public.delete_account(target uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_email text;
  v_counts jsonb;
begin
  select u.email into v_email from auth.users u where u.id = target for update;
  if not found then
    raise exception 'No account with id %', target using errcode = 'P0002';
  end if;
  v_counts := private.erase_email_data(v_email);
  delete from auth.audit_log_entries where payload ->> 'actor_id' = target::text;
  delete from auth.users where id = target;
  return v_counts;
end;
$$;

comment on function public.delete_account(uuid) is
  'Deletes an account and everything tied to it; its leads stay anonymised for the counts. service_role only (the account function).';
revoke execute on function public.delete_account(uuid) from public, anon, authenticated;
grant execute on function public.delete_account(uuid) to service_role;

/*
 * A visitor without an account asked us to delete what they sent: an administrator removes their address from
 * everything held about it (private.erase_email_data), from the SQL editor (`select public.erase_email('<address>')`)
 * or through the API. 42501 for anyone else.
 */
create function public.erase_email(address text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  -- (a database session such as the SQL editor carries no JWT claims: auth.role() is null)
  if coalesce((select auth.role()), 'service_role') <> 'service_role' and not (select public.is_admin()) then
    raise exception 'Only an administrator can erase an address.' using errcode = '42501';
  end if;
  return private.erase_email_data(address);
end;
$$;

comment on function public.erase_email(text) is
  'Erases an email address from everything held about it (a visitor''s deletion request). Administrators and service_role.';
revoke execute on function public.erase_email(text) from public, anon;
grant execute on function public.erase_email(text) to authenticated, service_role;
