-- Agents claim their profile and complete it; administrators decide claims by hand.
--
-- Decisions:
--   * A claim proves identity twice: the agent's license number, and a code mailed to the email on the agent's MLS
--     member record (agents.email, which Member imports keep). The agent-claim edge function makes the code, mails it
--     and keeps only its HMAC (private.agent_claim_codes); the claim functions below take the user the function has
--     verified and are callable by the service role only, so nobody can skip the mail or read a code back.
--   * One approved claim per agent and one per user (unique partial indexes). An administrator approves or rejects
--     a claim by hand (an agent whose MLS email is stale asks for a review) and may revoke an approved one; revoking
--     also clears what that owner wrote on the profile.
--   * What the owner completes lives on public.agents (bio, specialties, languages, photo_url): the prebuilt agent
--     pages read agents, so an edit reaches the live page through the existing agents rebuild trigger. The owner
--     updates their agent row through the API under RLS; a trigger lets them change only those columns, keeps the
--     text plain (tags stripped, whitespace folded) and checks lengths, naming the field. The photo goes through the
--     agent-photo edge function, which checks the file's bytes before setting photo_url.
--   * Every decision leaves a notice in private.agent_notices, which the edge functions mail (a mail per decision).
--   * The audit log records who did what: writes through the API by the trigger of every audited table, the edge
--     functions' writes for a verified user through private.record_agent_audit with that user as the actor.
--   * Errors carry a PostgREST status code (PT400, PT403, PT404, PT409, PT429) so the API answers with that status
--     and the message, which names the field or the rule.

-- ---------------------------------------------------------------------------------------------------------------
-- the profile an owner completes
-- ---------------------------------------------------------------------------------------------------------------

alter table public.agents
  add column specialties text[] not null default '{}',
  add column languages text[] not null default '{}',
  add column hide_phone boolean not null default false,
  add column hide_email boolean not null default false,
  add column noindex boolean not null default false,
  add column claimed_at timestamptz,
  add column profile_updated_at timestamptz,
  add constraint agents_bio_length check (char_length(bio) <= 2000),
  -- whole-list bounds (a check constraint runs with the writer's privileges, so no helper function); the owner's
  -- trigger and the forms check each entry (60 and 40 characters)
  add constraint agents_specialties_check check (
    cardinality(specialties) <= 10 and array_position(specialties, null) is null
    and char_length(array_to_string(specialties, ',')) <= 700),
  add constraint agents_languages_check check (
    cardinality(languages) <= 10 and array_position(languages, null) is null
    and char_length(array_to_string(languages, ',')) <= 500);

-- the sitemap leaves these pages out
create index agents_noindex_idx on public.agents (id) where noindex;

comment on column public.agents.bio is 'About the agent, plain text (at most 2,000 characters): written by the agent who claimed the profile, or an administrator.';
comment on column public.agents.specialties is 'What the agent specializes in (at most 10, each at most 60 characters), e.g. first-time buyers, condos.';
comment on column public.agents.languages is 'Languages the agent works in (at most 10, each at most 40 characters).';
comment on column public.agents.hide_phone is 'The profile does not show the phone number (an administrator accepted the agent''s request).';
comment on column public.agents.hide_email is 'The profile does not show the email address (an administrator accepted the agent''s request).';
comment on column public.agents.noindex is 'The profile is kept out of search engines (noindex, not in the sitemap) at the agent''s request; its sales still count everywhere.';
comment on column public.agents.claimed_at is 'When the agent claimed the profile (an approved claim); null while unclaimed.';
comment on column public.agents.profile_updated_at is 'When the agent who claimed the profile last changed its bio, specialties, languages or photo.';


-- ---------------------------------------------------------------------------------------------------------------
-- claims
-- ---------------------------------------------------------------------------------------------------------------

create table public.agent_claims (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references public.agents (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  status text not null default 'code_sent'
    check (status in ('code_sent', 'review_requested', 'approved', 'rejected', 'revoked')),
  method text check (method in ('email_code', 'admin')),
  license_number text check (char_length(license_number) <= 50),
  message text check (char_length(message) <= 1000),
  code_sent_to text check (char_length(code_sent_to) <= 320),
  code_sent_at timestamptz,
  approved_at timestamptz,
  decided_by uuid references auth.users (id) on delete set null,
  decided_at timestamptz,
  decision_reason text check (char_length(decision_reason) <= 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((status = 'approved') = (approved_at is not null) or status = 'revoked')
);

comment on table public.agent_claims is
  'A signed-in user''s claim to be the agent of a profile: by license number and a code mailed to the MLS email (code_sent -> approved), or reviewed by hand (review_requested -> approved or rejected); an approved claim may be revoked. One approved claim per agent and per user. The user and administrators read; the claim functions and administrators'' decisions write.';
comment on column public.agent_claims.status is
  'code_sent (waiting for the mailed code), review_requested (waiting for an administrator), approved (the user owns the profile), rejected, revoked.';
comment on column public.agent_claims.method is 'How an approved claim was proved: email_code (the mailed code) or admin (approved by hand).';
comment on column public.agent_claims.license_number is 'The license number the user gave.';
comment on column public.agent_claims.message is 'What the user told the reviewers (a review request): plain text.';
comment on column public.agent_claims.code_sent_to is 'The MLS email the code went to, masked (j•••@example.com).';
comment on column public.agent_claims.decided_by is 'The administrator who approved, rejected or revoked the claim; null when the mailed code approved it.';
comment on column public.agent_claims.decision_reason is 'Why an administrator decided so (mailed to the user).';

create unique index agent_claims_one_owner_per_agent_idx on public.agent_claims (agent_id) where status = 'approved';
create unique index agent_claims_one_profile_per_user_idx on public.agent_claims (user_id) where status = 'approved';
create unique index agent_claims_one_open_claim_idx on public.agent_claims (user_id, agent_id)
  where status in ('code_sent', 'review_requested');
create index agent_claims_user_id_idx on public.agent_claims (user_id);
create index agent_claims_status_created_at_idx on public.agent_claims (status, created_at desc);
create index agent_claims_decided_by_idx on public.agent_claims (decided_by);

create trigger agent_claims_set_updated_at before update on public.agent_claims
  for each row execute function public.set_updated_at();

alter table public.agent_claims enable row level security;
revoke all on public.agent_claims from public, anon, authenticated;
grant select on public.agent_claims to authenticated;
grant select, insert, update, delete on public.agent_claims to service_role;

create policy "Users read their own claims" on public.agent_claims
  for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Admins read every claim" on public.agent_claims
  for select to authenticated
  using ((select public.is_admin()));

create trigger agent_claims_audit after insert or update or delete on public.agent_claims
  for each row when (auth.uid() is not null) execute function private.record_audit_entry();

-- the HMAC of a claim's mailed code: never readable through the API
create table private.agent_claim_codes (
  claim_id uuid primary key references public.agent_claims (id) on delete cascade,
  code_hash text not null check (code_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz not null,
  attempts integer not null default 0 check (attempts >= 0)
);

comment on table private.agent_claim_codes is
  'The HMAC-SHA-256 (hex, keyed by the agent-claim function''s secret) of the code mailed for an open claim, when it expires, and how many wrong codes were tried.';
revoke all on private.agent_claim_codes from public, anon, authenticated;


-- ---------------------------------------------------------------------------------------------------------------
-- shared helpers: audit entries, rate limits, notices
-- ---------------------------------------------------------------------------------------------------------------

/**
 * Records a change made by an edge function on behalf of a user it verified (the function writes with the service
 * role, so the audit trigger does not see a user) in public.audit_log, with that user as the actor.
 */
create function private.record_agent_audit(
  actor uuid,
  table_name text,
  row_id text,
  action text,
  before jsonb,
  after jsonb
)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  insert into public.audit_log (actor_id, actor_email, table_name, row_id, action, before, after)
  values (actor, (select u.email from auth.users u where u.id = actor), table_name, row_id, action, before, after);
$$;

comment on function private.record_agent_audit(uuid, text, text, text, jsonb, jsonb) is
  'Writes an audit_log entry for a change an edge function made for the user it verified (actor).';
revoke execute on function private.record_agent_audit(uuid, text, text, text, jsonb, jsonb) from public, anon, authenticated, service_role;

/**
 * Counts one hit of `kind` for `who` (a user id) in a fixed window of window_seconds (public.hit_rate_limits, keyed
 * by SHA-256 of 'agent:<kind>:<who>') and raises PT429 with `message` when the count passes max_hits. A refused
 * attempt rolls back with its transaction, so the limit counts what succeeded.
 */
create function private.enforce_agent_rate_limit(kind text, who uuid, max_hits integer, window_seconds integer, message text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_hits integer;
begin
  select h.hits into v_hits
    from public.hit_rate_limits(
      array[pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to('agent:' || kind || ':' || who::text, 'UTF8')), 'hex')],
      array[window_seconds]) h;
  if v_hits > max_hits then
    raise exception '%', message using errcode = 'PT429';
  end if;
end;
$$;

comment on function private.enforce_agent_rate_limit(text, uuid, integer, integer, text) is
  'Per-user fixed-window limit of the claim, profile and correction writes; raises PT429 with the message when passed.';
revoke execute on function private.enforce_agent_rate_limit(text, uuid, integer, integer, text) from public, anon, authenticated, service_role;

create table private.agent_notices (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in (
    'claim_approved', 'claim_rejected', 'claim_revoked',
    'correction_accepted', 'correction_rejected',
    'visibility_accepted', 'visibility_rejected'
  )),
  agent_id uuid references public.agents (id) on delete cascade,
  subject_id uuid not null,
  reason text,
  details jsonb not null default '{}',
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  attempts integer not null default 0,
  last_error text
);

comment on table private.agent_notices is
  'One mail to send per decision on a claim, correction or visibility request: to whom (the user who asked), what was decided, the reason. The agent-claim and agent-review functions take and mail them (public.take_agent_notices).';
create index agent_notices_unsent_idx on private.agent_notices (id) where sent_at is null;
revoke all on private.agent_notices from public, anon, authenticated;

/** Queues the mail of a decision for the user who asked. */
create function private.add_agent_notice(
  recipient uuid,
  notice_kind text,
  notice_agent uuid,
  notice_subject uuid,
  notice_reason text,
  notice_details jsonb default '{}'
)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  insert into private.agent_notices (user_id, kind, agent_id, subject_id, reason, details)
  values (recipient, notice_kind, notice_agent, notice_subject, nullif(pg_catalog.btrim(notice_reason), ''), coalesce(notice_details, '{}'));
$$;

revoke execute on function private.add_agent_notice(uuid, text, uuid, uuid, text, jsonb) from public, anon, authenticated, service_role;

/**
 * Takes up to max_notices unsent decision notices (oldest first, each tried at most 5 times) and marks them sent,
 * returning what their mail needs: the recipient's account email, the kind, the agent's name, the reason and the
 * details. A function that fails to mail one calls public.release_agent_notice. service_role only.
 */
create function public.take_agent_notices(max_notices integer default 20)
returns table (
  id bigint,
  kind text,
  email text,
  agent_id uuid,
  agent_name text,
  subject_id uuid,
  reason text,
  details jsonb
)
language sql
volatile
security definer
set search_path = ''
as $$
  with taken as (
    update private.agent_notices n
       set sent_at = now(), attempts = n.attempts + 1
     where n.id in (
       select q.id from private.agent_notices q
        where q.sent_at is null and q.attempts < 5
        order by q.id
        limit greatest(1, least(coalesce(max_notices, 20), 100))
        for update skip locked)
    returning n.*
  )
  select t.id, t.kind, u.email::text, t.agent_id, a.name, t.subject_id, t.reason, t.details
    from taken t
    join auth.users u on u.id = t.user_id
    left join public.agents a on a.id = t.agent_id
   order by t.id;
$$;

comment on function public.take_agent_notices(integer) is
  'Claims up to max_notices unsent decision mails (marks them sent) and returns recipient, kind, agent and reason. service_role only (agent-claim, agent-review).';
revoke execute on function public.take_agent_notices(integer) from public, anon, authenticated;
grant execute on function public.take_agent_notices(integer) to service_role;

/** Puts a notice back in the queue after its mail failed, with the error. service_role only. */
create function public.release_agent_notice(notice_id bigint, error_message text)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  update private.agent_notices set sent_at = null, last_error = left(error_message, 2000) where id = notice_id;
$$;

revoke execute on function public.release_agent_notice(bigint, text) from public, anon, authenticated;
grant execute on function public.release_agent_notice(bigint, text) to service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- claim by code (through the agent-claim function)
-- ---------------------------------------------------------------------------------------------------------------

/** A license number without case, spaces or punctuation, so 'MA-123 456' and 'ma123456' compare equal. */
create function private.license_key(value text)
returns text
language sql
immutable
set search_path = ''
as $$ select nullif(pg_catalog.upper(pg_catalog.regexp_replace(coalesce(value, ''), '[^A-Za-z0-9]', '', 'g')), '') $$;

revoke execute on function private.license_key(text) from public, anon, authenticated;

/** An email address with the local part hidden but its first character: 'jordan@example.com' -> 'j•••@example.com'. */
create function private.mask_email(address text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when address like '%@%'
    then pg_catalog.left(address, 1) || '•••@' || pg_catalog.split_part(address, '@', 2)
  end
$$;

revoke execute on function private.mask_email(text) from public, anon, authenticated;

/**
 * Refuses a claim of agent_id by claimant when the profile is taken or the claimant already holds one (PT409 with
 * the rule in words). Shared by the code claim, the review request and an administrator's approval.
 */
create function private.assert_agent_claimable(claimant uuid, agent uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.agent_claims c where c.agent_id = agent and c.status = 'approved' and c.user_id = claimant) then
    raise exception 'You have already claimed this profile.' using errcode = 'PT409';
  end if;
  if exists (select 1 from public.agent_claims c where c.agent_id = agent and c.status = 'approved') then
    raise exception 'This profile has already been claimed by another account. If you are this agent, ask for a review and we will check it by hand.'
      using errcode = 'PT409';
  end if;
  if exists (select 1 from public.agent_claims c where c.user_id = claimant and c.status = 'approved') then
    raise exception 'Your account already holds the profile of another agent: one account can claim one profile.'
      using errcode = 'PT409';
  end if;
end;
$$;

revoke execute on function private.assert_agent_claimable(uuid, uuid) from public, anon, authenticated, service_role;

/**
 * Opens (or renews) claimant's claim of agent_id after checking the license number against the agent's MLS record
 * (case, spaces and punctuation ignored) and that the record has an email; stores code_hash (HMAC-SHA-256 hex of
 * the code the caller mails) valid until code_expires_at, with no wrong tries yet.
 * Returns the claim id, the agent's name and the MLS email to mail the code to.
 * Errors: PT404 unknown agent; PT409 the profile is claimed or the claimant holds another; PT400 the license number
 * does not match or the record has no license number or email (the message says to ask for a review).
 * service_role only: the agent-claim function calls it for the user it verified, then mails the code.
 */
create function public.start_agent_claim(
  claimant uuid,
  agent uuid,
  license_number text,
  code_hash text,
  code_expires_at timestamptz
)
returns table (claim_id uuid, agent_name text, agent_email text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_agent public.agents%rowtype;
  v_claim public.agent_claims%rowtype;
  v_before jsonb;
begin
  if claimant is null or not exists (select 1 from auth.users u where u.id = claimant) then
    raise exception 'Sign in to claim a profile.' using errcode = 'PT403';
  end if;
  if code_hash is null or code_hash !~ '^[0-9a-f]{64}$' or code_expires_at is null or code_expires_at <= now() then
    raise exception 'code_hash must be 64 hex digits and code_expires_at in the future' using errcode = '22023';
  end if;
  -- one claim decision per agent at a time
  select * into v_agent from public.agents a where a.id = agent for update;
  if not found then
    raise exception 'No agent has this id.' using errcode = 'PT404';
  end if;
  perform private.assert_agent_claimable(claimant, agent);
  if private.license_key(v_agent.license_number) is null then
    raise exception 'The MLS record of this agent has no license number, so the profile cannot be claimed with a code. Ask for a review instead.'
      using errcode = 'PT400';
  end if;
  if private.license_key(license_number) is distinct from private.license_key(v_agent.license_number) then
    raise exception 'That license number does not match the one on this agent''s MLS record.' using errcode = 'PT400';
  end if;
  if v_agent.email is null or v_agent.email !~ '^[^@\s]+@[^@\s]+$' then
    raise exception 'The MLS record of this agent has no email address to send a code to. Ask for a review instead.'
      using errcode = 'PT400';
  end if;

  select * into v_claim from public.agent_claims c
   where c.user_id = claimant and c.agent_id = agent and c.status in ('code_sent', 'review_requested')
   for update;
  if found then
    v_before := to_jsonb(v_claim);
    update public.agent_claims c
       set status = 'code_sent', license_number = left(start_agent_claim.license_number, 50),
           code_sent_to = private.mask_email(v_agent.email), code_sent_at = now()
     where c.id = v_claim.id
    returning * into v_claim;
    perform private.record_agent_audit(claimant, 'agent_claims', v_claim.id::text, 'update',
      jsonb_build_object('status', v_before -> 'status', 'code_sent_at', v_before -> 'code_sent_at'),
      jsonb_build_object('status', v_claim.status, 'code_sent_at', v_claim.code_sent_at));
  else
    insert into public.agent_claims (agent_id, user_id, status, license_number, code_sent_to, code_sent_at)
    values (agent, claimant, 'code_sent', left(start_agent_claim.license_number, 50), private.mask_email(v_agent.email), now())
    returning * into v_claim;
    perform private.record_agent_audit(claimant, 'agent_claims', v_claim.id::text, 'insert', null, to_jsonb(v_claim));
  end if;

  insert into private.agent_claim_codes as k (claim_id, code_hash, expires_at, attempts)
  values (v_claim.id, start_agent_claim.code_hash, code_expires_at, 0)
  on conflict on constraint agent_claim_codes_pkey do update
    set code_hash = excluded.code_hash, expires_at = excluded.expires_at, attempts = 0;

  return query select v_claim.id, v_agent.name, v_agent.email;
end;
$$;

comment on function public.start_agent_claim(uuid, uuid, text, text, timestamptz) is
  'Opens or renews a claim by license number and stores the HMAC of the code to mail; returns the claim, agent name and MLS email. service_role only (agent-claim).';
revoke execute on function public.start_agent_claim(uuid, uuid, text, text, timestamptz) from public, anon, authenticated;
grant execute on function public.start_agent_claim(uuid, uuid, text, text, timestamptz) to service_role;

/** Wrong codes a claim may take before a new code is needed. */
create function private.agent_claim_max_attempts()
returns integer
language sql
immutable
set search_path = ''
as $$ select 5 $$;

revoke execute on function private.agent_claim_max_attempts() from public, anon, authenticated;

/**
 * Checks the code of claimant's open claim (code_hash: HMAC-SHA-256 hex of the code they typed) and, when it is
 * right and in time, approves the claim: the claimant owns the profile (agents.claimed_at is set) and is mailed.
 * Never raises for a wrong code, so the counted try is kept. Returns the outcome and the tries left:
 * 'approved' (also when it already was), 'wrong_code', 'expired' (no code, or past its time: ask for a new one),
 * 'too_many_attempts', 'not_found' (no such claim of theirs), 'closed' (rejected or revoked), 'claimed_by_other',
 * 'holds_other_profile'. service_role only (agent-claim).
 */
create function public.verify_agent_claim(claimant uuid, claim uuid, code_hash text)
returns table (outcome text, attempts_left integer, agent_id uuid)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_claim public.agent_claims%rowtype;
  v_code private.agent_claim_codes%rowtype;
  v_max integer := private.agent_claim_max_attempts();
begin
  select * into v_claim from public.agent_claims c where c.id = claim and c.user_id = claimant;
  if not found then
    return query select 'not_found'::text, 0, null::uuid;
    return;
  end if;
  -- the agent row orders this decision with any other claim of the same profile
  perform 1 from public.agents a where a.id = v_claim.agent_id for update;
  select * into v_claim from public.agent_claims c where c.id = claim for update;
  if v_claim.status = 'approved' then
    return query select 'approved'::text, 0, v_claim.agent_id;
    return;
  end if;
  if v_claim.status <> 'code_sent' then
    return query select (case when v_claim.status = 'review_requested' then 'expired' else 'closed' end)::text, 0, v_claim.agent_id;
    return;
  end if;
  select * into v_code from private.agent_claim_codes k where k.claim_id = claim for update;
  if not found or v_code.expires_at <= now() then
    return query select 'expired'::text, 0, v_claim.agent_id;
    return;
  end if;
  if v_code.attempts >= v_max then
    return query select 'too_many_attempts'::text, 0, v_claim.agent_id;
    return;
  end if;
  if code_hash is distinct from v_code.code_hash then
    update private.agent_claim_codes k set attempts = k.attempts + 1 where k.claim_id = claim;
    return query select (case when v_code.attempts + 1 >= v_max then 'too_many_attempts' else 'wrong_code' end)::text,
                        v_max - v_code.attempts - 1, v_claim.agent_id;
    return;
  end if;
  if exists (select 1 from public.agent_claims c where c.agent_id = v_claim.agent_id and c.status = 'approved') then
    return query select 'claimed_by_other'::text, 0, v_claim.agent_id;
    return;
  end if;
  if exists (select 1 from public.agent_claims c where c.user_id = claimant and c.status = 'approved') then
    return query select 'holds_other_profile'::text, 0, v_claim.agent_id;
    return;
  end if;

  delete from private.agent_claim_codes k where k.claim_id = claim;
  update public.agent_claims c
     set status = 'approved', method = 'email_code', approved_at = now(), decided_at = now(), decided_by = null,
         decision_reason = null
   where c.id = claim;
  update public.agents a set claimed_at = now() where a.id = v_claim.agent_id;
  perform private.record_agent_audit(claimant, 'agent_claims', claim::text, 'update',
    jsonb_build_object('status', v_claim.status, 'method', v_claim.method),
    jsonb_build_object('status', 'approved', 'method', 'email_code'));
  perform private.add_agent_notice(claimant, 'claim_approved', v_claim.agent_id, claim, null,
    jsonb_build_object('method', 'email_code'));
  return query select 'approved'::text, 0, v_claim.agent_id;
end;
$$;

comment on function public.verify_agent_claim(uuid, uuid, text) is
  'Checks a mailed claim code (its HMAC) and approves the claim when right; returns the outcome and the tries left. service_role only (agent-claim).';
revoke execute on function public.verify_agent_claim(uuid, uuid, text) from public, anon, authenticated;
grant execute on function public.verify_agent_claim(uuid, uuid, text) to service_role;

/**
 * Asks the administrators to check claimant's claim of agent by hand (the MLS email is stale or missing, or the
 * profile was claimed by someone else): opens a review_requested claim, or turns their open code claim into one.
 * message: how the reviewers can verify them (required, at most 1,000 characters, plain text). Errors: PT404 unknown
 * agent, PT409 they already own it or hold another profile, PT400 naming the field. service_role only (agent-claim).
 */
create function public.request_agent_claim_review(claimant uuid, agent uuid, license_number text, message text)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_message text := nullif(pg_catalog.btrim(pg_catalog.regexp_replace(coalesce(message, ''), '<[^>]*>', '', 'g')), '');
  v_claim public.agent_claims%rowtype;
  v_before jsonb;
begin
  if claimant is null or not exists (select 1 from auth.users u where u.id = claimant) then
    raise exception 'Sign in to claim a profile.' using errcode = 'PT403';
  end if;
  if not exists (select 1 from public.agents a where a.id = agent) then
    raise exception 'No agent has this id.' using errcode = 'PT404';
  end if;
  if v_message is null then
    raise exception 'message: Tell us how we can check that you are this agent.' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(v_message) > 1000 then
    raise exception 'message: Keep it to 1,000 characters.' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(license_number) > 50 then
    raise exception 'licenseNumber: A license number has at most 50 characters.' using errcode = 'PT400';
  end if;
  if exists (select 1 from public.agent_claims c where c.agent_id = agent and c.user_id = claimant and c.status = 'approved') then
    raise exception 'You have already claimed this profile.' using errcode = 'PT409';
  end if;
  if exists (select 1 from public.agent_claims c where c.user_id = claimant and c.status = 'approved') then
    raise exception 'Your account already holds the profile of another agent: one account can claim one profile.'
      using errcode = 'PT409';
  end if;

  select * into v_claim from public.agent_claims c
   where c.user_id = claimant and c.agent_id = agent and c.status in ('code_sent', 'review_requested')
   for update;
  if found then
    v_before := to_jsonb(v_claim);
    update public.agent_claims c
       set status = 'review_requested', message = v_message,
           license_number = coalesce(nullif(pg_catalog.btrim(request_agent_claim_review.license_number), ''), c.license_number)
     where c.id = v_claim.id
    returning * into v_claim;
    delete from private.agent_claim_codes k where k.claim_id = v_claim.id;
    perform private.record_agent_audit(claimant, 'agent_claims', v_claim.id::text, 'update',
      jsonb_build_object('status', v_before -> 'status', 'message', v_before -> 'message'),
      jsonb_build_object('status', v_claim.status, 'message', v_claim.message));
  else
    insert into public.agent_claims (agent_id, user_id, status, license_number, message)
    values (agent, claimant, 'review_requested', nullif(pg_catalog.btrim(request_agent_claim_review.license_number), ''), v_message)
    returning * into v_claim;
    perform private.record_agent_audit(claimant, 'agent_claims', v_claim.id::text, 'insert', null, to_jsonb(v_claim));
  end if;
  return v_claim.id;
end;
$$;

comment on function public.request_agent_claim_review(uuid, uuid, text, text) is
  'Opens a claim for an administrator to check by hand, with the user''s message. service_role only (agent-claim).';
revoke execute on function public.request_agent_claim_review(uuid, uuid, text, text) from public, anon, authenticated;
grant execute on function public.request_agent_claim_review(uuid, uuid, text, text) to service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- administrators decide claims
-- ---------------------------------------------------------------------------------------------------------------

/**
 * An administrator's decision on a claim, with the reason mailed to the user who claimed:
 *   'approve' an open claim (code_sent or review_requested): the user owns the profile;
 *   'reject' an open claim (reason required);
 *   'revoke' an approved claim (reason required): the profile is unclaimed again and what that owner wrote on it
 *     (bio, specialties, languages, photo) is cleared.
 * Errors: 42501 not an administrator at aal2; PT404 unknown claim; PT409 the claim is not in a state the decision
 * applies to, or approving would give the profile (or the user) a second owner; PT400 a missing reason.
 * Returns the claim as stored.
 */
create function public.decide_agent_claim(claim uuid, decision text, reason text default null)
returns public.agent_claims
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_claim public.agent_claims%rowtype;
  v_reason text := nullif(pg_catalog.btrim(coalesce(reason, '')), '');
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators decide claims.' using errcode = '42501';
  end if;
  if decision is null or decision not in ('approve', 'reject', 'revoke') then
    raise exception 'decision must be approve, reject or revoke' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(v_reason) > 1000 then
    raise exception 'reason: Keep the reason to 1,000 characters.' using errcode = 'PT400';
  end if;
  select * into v_claim from public.agent_claims c where c.id = claim;
  if not found then
    raise exception 'No claim has this id.' using errcode = 'PT404';
  end if;
  perform 1 from public.agents a where a.id = v_claim.agent_id for update;
  select * into v_claim from public.agent_claims c where c.id = claim for update;

  if decision = 'approve' then
    if v_claim.status not in ('code_sent', 'review_requested') then
      raise exception 'Only an open claim can be approved; this one is %.', replace(v_claim.status, '_', ' ') using errcode = 'PT409';
    end if;
    if exists (select 1 from public.agent_claims c where c.agent_id = v_claim.agent_id and c.status = 'approved') then
      raise exception 'This profile is already claimed by another account: revoke that claim first.' using errcode = 'PT409';
    end if;
    if exists (select 1 from public.agent_claims c where c.user_id = v_claim.user_id and c.status = 'approved') then
      raise exception 'This user already holds the profile of another agent: one account can claim one profile.' using errcode = 'PT409';
    end if;
    delete from private.agent_claim_codes k where k.claim_id = claim;
    update public.agent_claims c
       set status = 'approved', method = 'admin', approved_at = now(), decided_by = (select auth.uid()),
           decided_at = now(), decision_reason = v_reason
     where c.id = claim
    returning * into v_claim;
    update public.agents a set claimed_at = now() where a.id = v_claim.agent_id;
    perform private.add_agent_notice(v_claim.user_id, 'claim_approved', v_claim.agent_id, claim, v_reason,
      jsonb_build_object('method', 'admin'));
  elsif decision = 'reject' then
    if v_claim.status not in ('code_sent', 'review_requested') then
      raise exception 'Only an open claim can be rejected; this one is %.', replace(v_claim.status, '_', ' ') using errcode = 'PT409';
    end if;
    if v_reason is null then
      raise exception 'reason: Give a reason: it is mailed to the person who claimed the profile.' using errcode = 'PT400';
    end if;
    delete from private.agent_claim_codes k where k.claim_id = claim;
    update public.agent_claims c
       set status = 'rejected', decided_by = (select auth.uid()), decided_at = now(), decision_reason = v_reason
     where c.id = claim
    returning * into v_claim;
    perform private.add_agent_notice(v_claim.user_id, 'claim_rejected', v_claim.agent_id, claim, v_reason);
  else
    if v_claim.status <> 'approved' then
      raise exception 'Only an approved claim can be revoked; this one is %.', replace(v_claim.status, '_', ' ') using errcode = 'PT409';
    end if;
    if v_reason is null then
      raise exception 'reason: Give a reason: it is mailed to the person who claimed the profile.' using errcode = 'PT400';
    end if;
    update public.agent_claims c
       set status = 'revoked', decided_by = (select auth.uid()), decided_at = now(), decision_reason = v_reason
     where c.id = claim
    returning * into v_claim;
    update public.agents a
       set claimed_at = null, bio = null, specialties = '{}', languages = '{}', profile_updated_at = null,
           photo_url = case when a.photo_url like '%/storage/v1/object/public/agent-photos/%' then null else a.photo_url end
     where a.id = v_claim.agent_id;
    perform private.add_agent_notice(v_claim.user_id, 'claim_revoked', v_claim.agent_id, claim, v_reason);
  end if;
  return v_claim;
end;
$$;

comment on function public.decide_agent_claim(uuid, text, text) is
  'An administrator approves, rejects or revokes a claim (reason mailed to the user). 42501 for anyone else.';
revoke execute on function public.decide_agent_claim(uuid, text, text) from public, anon;
grant execute on function public.decide_agent_claim(uuid, text, text) to authenticated;


-- ---------------------------------------------------------------------------------------------------------------
-- the owner completes the profile
-- ---------------------------------------------------------------------------------------------------------------

/** Plain text of what a person typed: tags removed, CR LF as LF, runs of spaces folded, at most one blank line. */
create function private.plain_text(value text, multiline boolean default false)
returns text
language sql
immutable
set search_path = ''
as $$
  select nullif(pg_catalog.btrim(
    case when multiline then
      pg_catalog.regexp_replace(
        pg_catalog.regexp_replace(
          pg_catalog.regexp_replace(
            pg_catalog.regexp_replace(pg_catalog.regexp_replace(coalesce(value, ''), '<[^>]*>', '', 'g'), '\r\n?', E'\n', 'g'),
            '[ \t\f\v]+', ' ', 'g'),
          ' ?\n ?', E'\n', 'g'),
        '\n{3,}', E'\n\n', 'g')
    else
      pg_catalog.regexp_replace(pg_catalog.regexp_replace(coalesce(value, ''), '<[^>]*>', '', 'g'), '\s+', ' ', 'g')
    end, E' \n'), '')
$$;

comment on function private.plain_text(text, boolean) is
  'What a person typed as plain text: HTML tags removed, whitespace folded (multiline keeps paragraphs, at most one blank line between).';
revoke execute on function private.plain_text(text, boolean) from public, anon, authenticated;

/** A list of short texts, each as plain_text, blanks dropped, repeats (ignoring case) dropped, order kept. */
create function private.plain_text_list(items text[])
returns text[]
language sql
immutable
set search_path = ''
as $$
  select coalesce(array_agg(t.item order by t.first_position), '{}')
    from (
      select min(p.item) as item, min(p.position) as first_position
        from (
          select private.plain_text(i.item) as item, i.position
            from pg_catalog.unnest(items) with ordinality as i (item, position)
        ) p
       where p.item is not null
       group by pg_catalog.lower(p.item)
    ) t;
$$;

revoke execute on function private.plain_text_list(text[]) from public, anon, authenticated;

/** Whether `who` holds the approved claim of `agent`. */
create function private.owns_agent(who uuid, agent uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select who is not null and exists (
    select 1 from public.agent_claims c where c.agent_id = agent and c.user_id = who and c.status = 'approved'
  );
$$;

comment on function private.owns_agent(uuid, uuid) is 'True when the user holds the approved claim of the agent.';
revoke execute on function private.owns_agent(uuid, uuid) from public, anon, authenticated;

/** True when the signed-in caller holds the approved claim of `agent` (the owner's RLS policies). */
create function public.is_agent_owner(agent uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$ select private.owns_agent((select auth.uid()), agent) $$;

comment on function public.is_agent_owner(uuid) is 'True when the signed-in caller holds the approved claim of the agent (RLS of the owner''s writes).';
revoke execute on function public.is_agent_owner(uuid) from public, anon;
grant execute on function public.is_agent_owner(uuid) to authenticated;

create policy "The agent who claimed a profile edits it" on public.agents
  for update to authenticated
  using ((select public.is_agent_owner(id)))
  with check ((select public.is_agent_owner(id)));

/*
 * BEFORE UPDATE of agents by a signed-in user who is not an administrator (so through the owner's policy), unless
 * another trigger makes the change (the correction counts of agent_corrections): only
 * bio, specialties and languages may change; they are stored as plain text (private.plain_text), their limits
 * checked with messages naming the field, profile_updated_at stamped, and at most 30 saves an hour.
 */
create function private.guard_agent_owner_edit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  editable constant text[] := array['bio', 'specialties', 'languages', 'profile_updated_at', 'updated_at'];
  item text;
begin
  -- an administrator, or a write another trigger makes (the correction counts), is not the owner's edit
  if pg_catalog.pg_trigger_depth() > 1 or (select public.is_admin()) then
    return new;
  end if;
  if (to_jsonb(new) - editable) is distinct from (to_jsonb(old) - editable) then
    raise exception 'The agent who claimed a profile can change its bio, specialties and languages (and the photo); everything else comes from the MLS.'
      using errcode = 'PT403';
  end if;
  new.bio := private.plain_text(new.bio, true);
  new.specialties := private.plain_text_list(new.specialties);
  new.languages := private.plain_text_list(new.languages);
  if pg_catalog.char_length(new.bio) > 2000 then
    raise exception 'bio: Keep the bio to 2,000 characters.' using errcode = 'PT400';
  end if;
  if pg_catalog.cardinality(new.specialties) > 10 then
    raise exception 'specialties: List at most 10 specialties.' using errcode = 'PT400';
  end if;
  foreach item in array new.specialties loop
    if pg_catalog.char_length(item) > 60 then
      raise exception 'specialties: Keep each specialty to 60 characters.' using errcode = 'PT400';
    end if;
  end loop;
  if pg_catalog.cardinality(new.languages) > 10 then
    raise exception 'languages: List at most 10 languages.' using errcode = 'PT400';
  end if;
  foreach item in array new.languages loop
    if pg_catalog.char_length(item) > 40 then
      raise exception 'languages: Keep each language to 40 characters.' using errcode = 'PT400';
    end if;
  end loop;
  if (new.bio, new.specialties, new.languages) is not distinct from (old.bio, old.specialties, old.languages) then
    return new;
  end if;
  perform private.enforce_agent_rate_limit('profile-edit', (select auth.uid()), 30, 3600,
    'You have saved your profile many times this hour. Please wait a while before saving again.');
  new.profile_updated_at := now();
  return new;
end;
$$;

comment on function private.guard_agent_owner_edit() is
  'Lets the agent who claimed a profile change only its bio, specialties and languages, as plain text within their limits.';
revoke execute on function private.guard_agent_owner_edit() from public, anon, authenticated;

create trigger agents_guard_owner_edit before update on public.agents
  for each row when (auth.uid() is not null) execute function private.guard_agent_owner_edit();


-- ---------------------------------------------------------------------------------------------------------------
-- the owner's photo: agent-photos bucket, set by the agent-photo function after it checked the bytes
-- ---------------------------------------------------------------------------------------------------------------

-- The same limits as post media: 5 MB, raster image types, enforced by the Storage API itself (413, 415).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('agent-photos', 'agent-photos', true, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'])
on conflict (id) do update set public = excluded.public, file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

create policy "Owners upload photos into their agent's folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'agent-photos'
    and (case when pg_catalog.split_part(name, '/', 1) ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
           then (select public.is_agent_owner(pg_catalog.split_part(name, '/', 1)::uuid)) else false end));

create policy "Owners list their agent's photos" on storage.objects
  for select to authenticated
  using (bucket_id = 'agent-photos'
    and ((select public.is_admin())
      or (case when pg_catalog.split_part(name, '/', 1) ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
           then (select public.is_agent_owner(pg_catalog.split_part(name, '/', 1)::uuid)) else false end)));

create policy "Owners delete their agent's photos" on storage.objects
  for delete to authenticated
  using (bucket_id = 'agent-photos'
    and ((select public.is_admin())
      or (case when pg_catalog.split_part(name, '/', 1) ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
           then (select public.is_agent_owner(pg_catalog.split_part(name, '/', 1)::uuid)) else false end)));

/**
 * Sets (or with null clears) the photo of owner's agent: photo_url must be the public URL of an object in
 * agent-photos under the agent's folder (`<agent id>/...`), which the agent-photo function has checked is an image.
 * Errors: PT403 the user does not own the profile; PT400 the URL names no object of the agent's folder.
 * Returns the previous photo_url. service_role only (agent-photo).
 */
create function public.set_agent_photo(owner uuid, agent uuid, photo_url text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_previous text;
  v_name text;
begin
  if not private.owns_agent(owner, agent) then
    raise exception 'Only the agent who claimed this profile can change its photo.' using errcode = 'PT403';
  end if;
  if set_agent_photo.photo_url is not null then
    v_name := (pg_catalog.regexp_match(set_agent_photo.photo_url, '/storage/v1/object/public/agent-photos/(.+)$'))[1];
    if v_name is null or pg_catalog.split_part(v_name, '/', 1) <> agent::text
       or not exists (select 1 from storage.objects o where o.bucket_id = 'agent-photos' and o.name = v_name) then
      raise exception 'photo: Upload the photo into this agent''s folder of agent-photos first.' using errcode = 'PT400';
    end if;
  end if;
  select a.photo_url into v_previous from public.agents a where a.id = agent for update;
  update public.agents a
     set photo_url = set_agent_photo.photo_url, profile_updated_at = now()
   where a.id = agent;
  perform private.record_agent_audit(owner, 'agents', agent::text, 'update',
    jsonb_build_object('photo_url', v_previous), jsonb_build_object('photo_url', set_agent_photo.photo_url));
  return v_previous;
end;
$$;

comment on function public.set_agent_photo(uuid, uuid, text) is
  'Sets or clears the photo of an owner''s agent to an object of agent-photos; returns the previous URL. service_role only (agent-photo).';
revoke execute on function public.set_agent_photo(uuid, uuid, text) from public, anon, authenticated;
grant execute on function public.set_agent_photo(uuid, uuid, text) to service_role;
