-- An agent who claimed their profile asks to hide its phone number or email address, or to keep it out of search
-- engines (noindex, out of the sitemap); an administrator accepts or rejects the request, and the decision is mailed.
--
-- Decisions:
--   * A request states how the profile should be shown (hide_phone, hide_email, noindex): the same request turns an
--     opt-out on or back off. One pending request per agent: a new one withdraws the one before.
--   * The owner files and withdraws requests through the API under RLS; a trigger checks what RLS cannot (the
--     request changes something, the note is plain text, at most 10 a day).
--   * Accepting sets agents.hide_phone, hide_email and noindex; the agents rebuild trigger puts it on the site. The
--     agent's sales stay counted in every figure, ZIP and city total.

create table public.agent_visibility_requests (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references public.agents (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  hide_phone boolean not null,
  hide_email boolean not null,
  noindex boolean not null,
  note text check (char_length(note) <= 1000),
  status text not null default 'pending' check (status in ('pending', 'accepted', 'rejected', 'withdrawn')),
  decided_by uuid references auth.users (id) on delete set null,
  decided_at timestamptz,
  decision_reason text check (char_length(decision_reason) <= 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.agent_visibility_requests is
  'How the agent who claimed a profile asks it to be shown: phone and email hidden or not, in search engines or not (noindex). An administrator accepts (agents.hide_phone, hide_email, noindex follow) or rejects it with a reason. The owner files and withdraws; the owner and administrators read.';
comment on column public.agent_visibility_requests.hide_phone is 'The profile should not show the phone number.';
comment on column public.agent_visibility_requests.hide_email is 'The profile should not show the email address.';
comment on column public.agent_visibility_requests.noindex is 'The profile should stay out of search engines (noindex, out of the sitemap).';
comment on column public.agent_visibility_requests.note is 'What the agent told the reviewers, plain text.';
comment on column public.agent_visibility_requests.status is 'pending, accepted, rejected, or withdrawn (by the agent, or by a newer request).';

create unique index agent_visibility_requests_one_pending_idx on public.agent_visibility_requests (agent_id)
  where status = 'pending';
create index agent_visibility_requests_agent_id_idx on public.agent_visibility_requests (agent_id, created_at desc);
create index agent_visibility_requests_user_id_idx on public.agent_visibility_requests (user_id);
create index agent_visibility_requests_status_created_at_idx on public.agent_visibility_requests (status, created_at desc);
create index agent_visibility_requests_decided_by_idx on public.agent_visibility_requests (decided_by);

create trigger agent_visibility_requests_set_updated_at before update on public.agent_visibility_requests
  for each row execute function public.set_updated_at();

alter table public.agent_visibility_requests enable row level security;
revoke all on public.agent_visibility_requests from public, anon, authenticated;
grant select on public.agent_visibility_requests to authenticated;
grant insert (agent_id, hide_phone, hide_email, noindex, note) on public.agent_visibility_requests to authenticated;
grant update (status) on public.agent_visibility_requests to authenticated;
grant select, insert, update, delete on public.agent_visibility_requests to service_role;

create policy "Owners read their visibility requests" on public.agent_visibility_requests
  for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Admins read every visibility request" on public.agent_visibility_requests
  for select to authenticated
  using ((select public.is_admin()));
create policy "Owners ask how their profile is shown" on public.agent_visibility_requests
  for insert to authenticated
  with check (user_id = (select auth.uid()) and (select public.is_agent_owner(agent_id)));
create policy "Owners withdraw their pending visibility requests" on public.agent_visibility_requests
  for update to authenticated
  using (user_id = (select auth.uid()) and status = 'pending')
  with check (user_id = (select auth.uid()) and status = 'withdrawn');

/*
 * BEFORE INSERT of a visibility request through the API: the request must change how the profile is shown, the note
 * becomes plain text, an owner files at most 10 a day, and a pending request of the agent is withdrawn.
 */
create function private.prepare_agent_visibility_request()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_agent public.agents%rowtype;
begin
  select * into v_agent from public.agents a where a.id = new.agent_id;
  if not found then
    raise exception 'No agent has this id.' using errcode = 'PT404';
  end if;
  new.user_id := (select auth.uid());
  new.status := 'pending';
  new.decided_by := null;
  new.decided_at := null;
  new.decision_reason := null;
  new.note := private.plain_text(new.note, true);
  if pg_catalog.char_length(new.note) > 1000 then
    raise exception 'note: Keep the note to 1,000 characters.' using errcode = 'PT400';
  end if;
  if (new.hide_phone, new.hide_email, new.noindex) is not distinct from (v_agent.hide_phone, v_agent.hide_email, v_agent.noindex) then
    raise exception 'Your profile is already shown this way.' using errcode = 'PT400';
  end if;
  perform private.enforce_agent_rate_limit('visibility-request', new.user_id, 10, 86400,
    'You have sent 10 visibility requests today. Please wait until tomorrow.');
  update public.agent_visibility_requests r
     set status = 'withdrawn'
   where r.agent_id = new.agent_id and r.status = 'pending';
  return new;
end;
$$;

comment on function private.prepare_agent_visibility_request() is
  'Checks and completes a visibility request filed through the API, and withdraws the agent''s pending one.';
revoke execute on function private.prepare_agent_visibility_request() from public, anon, authenticated;

create trigger agent_visibility_requests_prepare before insert on public.agent_visibility_requests
  for each row when (auth.uid() is not null) execute function private.prepare_agent_visibility_request();

create trigger agent_visibility_requests_audit after insert or update or delete on public.agent_visibility_requests
  for each row when (auth.uid() is not null) execute function private.record_audit_entry();

/**
 * An administrator accepts a pending visibility request (the agent's hide_phone, hide_email and noindex become the
 * requested ones; the site rebuilds) or rejects it (reason required); either way the owner is mailed.
 * Errors: 42501 not an administrator at aal2; PT404 unknown request; PT409 not pending; PT400 a missing reason.
 */
create function public.decide_agent_visibility_request(request uuid, decision text, reason text default null)
returns public.agent_visibility_requests
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_request public.agent_visibility_requests%rowtype;
  v_reason text := nullif(pg_catalog.btrim(coalesce(reason, '')), '');
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators decide visibility requests.' using errcode = '42501';
  end if;
  if decision is null or decision not in ('accept', 'reject') then
    raise exception 'decision must be accept or reject' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(v_reason) > 1000 then
    raise exception 'reason: Keep the reason to 1,000 characters.' using errcode = 'PT400';
  end if;
  select * into v_request from public.agent_visibility_requests r where r.id = request for update;
  if not found then
    raise exception 'No visibility request has this id.' using errcode = 'PT404';
  end if;
  if v_request.status <> 'pending' then
    raise exception 'Only a pending request can be decided; this one is %.', v_request.status using errcode = 'PT409';
  end if;
  if decision = 'reject' and v_reason is null then
    raise exception 'reason: Give a reason: it is mailed to the agent.' using errcode = 'PT400';
  end if;
  update public.agent_visibility_requests r
     set status = case when decision = 'accept' then 'accepted' else 'rejected' end,
         decided_by = (select auth.uid()), decided_at = now(), decision_reason = v_reason
   where r.id = request
  returning * into v_request;
  if decision = 'accept' then
    update public.agents a
       set hide_phone = v_request.hide_phone, hide_email = v_request.hide_email, noindex = v_request.noindex
     where a.id = v_request.agent_id;
  end if;
  perform private.add_agent_notice(v_request.user_id,
    case when decision = 'accept' then 'visibility_accepted' else 'visibility_rejected' end,
    v_request.agent_id, request, v_reason,
    jsonb_build_object('hide_phone', v_request.hide_phone, 'hide_email', v_request.hide_email, 'noindex', v_request.noindex));
  return v_request;
end;
$$;

comment on function public.decide_agent_visibility_request(uuid, text, text) is
  'An administrator accepts (applies to agents) or rejects a visibility request; the owner is mailed. 42501 for anyone else.';
revoke execute on function public.decide_agent_visibility_request(uuid, text, text) from public, anon;
grant execute on function public.decide_agent_visibility_request(uuid, text, text) to authenticated;
