-- Transaction sides: every agent role of a sale, so figures credit buyer agents and co-agents too.
--
-- A sale has up to four agent roles (RESO Data Dictionary: ListAgent, CoListAgent, BuyerAgent, CoBuyerAgent, each
-- named by ...AgentKey and ...AgentMlsId, each with an office: ...OfficeKey, ...OfficeMlsId, ...OfficeName).
--
-- Decisions:
--   * The listing (public.properties) keeps the raw RESO fields of every role as imported; public.transaction_sides
--     holds one row per sale and role with the agent it resolved to. The rows are derived: statement triggers on
--     properties rebuild the sides of every inserted or changed listing, and statement triggers on agents link the
--     sides that name a new agent's MemberKey or MLS id. Any writer (the importer, an administrator, a test) keeps
--     them in step without knowing about them.
--   * An agent is found by the role's Key (agents.member_key) when the listing carries one, and by the MLS id only
--     when it does not: a Key is the Web API's link between Property and Member, an MLS id a display attribute.
--   * The list role's agent is properties.agent_id (the listing agent the site has always shown; an administrator
--     may set it), so that column and the sides never disagree.
--   * A role whose agent is not (yet) known stays as a row without agent_id, with its Key or MLS id: it still shares
--     its side (the co-agent of a known agent gets half), and it is linked as soon as the Member arrives.
--   * How a side is credited (half each for an agent and co-agent, dual agency) is not stored: the metrics derive it
--     from private.effective_transaction_sides, the one place an accepted correction (exclude a side, credit it to
--     another agent) can be applied later without editing these raw rows.
--   * Not readable by visitors: sale rows reach them only through bounded per-agent functions.

-- RESO MemberKey: the key listings name their agents by
alter table public.agents
  add column member_key text constraint agents_member_key_check check (char_length(btrim(member_key)) between 1 and 255);
alter table public.agents add constraint agents_member_key_key unique (member_key);
comment on column public.agents.member_key is
  'RESO MemberKey, the key a listing names its agents by (ListAgentKey, CoListAgentKey, BuyerAgentKey, CoBuyerAgentKey). Unique; null for agents known only by an MLS id.';

-- the raw RESO fields of every agent role and office of a listing
alter table public.properties
  add column list_agent_key text constraint properties_list_agent_key_check check (char_length(list_agent_key) <= 255),
  add column co_list_agent_key text constraint properties_co_list_agent_key_check check (char_length(co_list_agent_key) <= 255),
  add column co_list_agent_mls_id text constraint properties_co_list_agent_mls_id_check check (char_length(co_list_agent_mls_id) <= 100),
  add column buyer_agent_key text constraint properties_buyer_agent_key_check check (char_length(buyer_agent_key) <= 255),
  add column co_buyer_agent_key text constraint properties_co_buyer_agent_key_check check (char_length(co_buyer_agent_key) <= 255),
  add column co_buyer_agent_mls_id text constraint properties_co_buyer_agent_mls_id_check check (char_length(co_buyer_agent_mls_id) <= 100),
  add column list_office_key text constraint properties_list_office_key_check check (char_length(list_office_key) <= 255),
  add column list_office_mls_id text constraint properties_list_office_mls_id_check check (char_length(list_office_mls_id) <= 100),
  add column co_list_office_key text constraint properties_co_list_office_key_check check (char_length(co_list_office_key) <= 255),
  add column co_list_office_mls_id text constraint properties_co_list_office_mls_id_check check (char_length(co_list_office_mls_id) <= 100),
  add column co_list_office_name text constraint properties_co_list_office_name_check check (char_length(co_list_office_name) <= 300),
  add column buyer_office_key text constraint properties_buyer_office_key_check check (char_length(buyer_office_key) <= 255),
  add column buyer_office_mls_id text constraint properties_buyer_office_mls_id_check check (char_length(buyer_office_mls_id) <= 100),
  add column buyer_office_name text constraint properties_buyer_office_name_check check (char_length(buyer_office_name) <= 300),
  add column co_buyer_office_key text constraint properties_co_buyer_office_key_check check (char_length(co_buyer_office_key) <= 255),
  add column co_buyer_office_mls_id text constraint properties_co_buyer_office_mls_id_check check (char_length(co_buyer_office_mls_id) <= 100),
  add column co_buyer_office_name text constraint properties_co_buyer_office_name_check check (char_length(co_buyer_office_name) <= 300);

comment on column public.properties.agent_id is
  'The listing agent (RESO ListAgentKey, else ListAgentMlsId, resolved by the importer; an administrator may set it). The sale''s list side in transaction_sides follows it.';
comment on column public.properties.list_agent_key is 'RESO ListAgentKey (= the agent''s MemberKey).';
comment on column public.properties.co_list_agent_key is 'RESO CoListAgentKey.';
comment on column public.properties.co_list_agent_mls_id is 'RESO CoListAgentMlsId.';
comment on column public.properties.buyer_agent_key is 'RESO BuyerAgentKey.';
comment on column public.properties.co_buyer_agent_key is 'RESO CoBuyerAgentKey.';
comment on column public.properties.co_buyer_agent_mls_id is 'RESO CoBuyerAgentMlsId.';
comment on column public.properties.list_office_key is 'RESO ListOfficeKey.';
comment on column public.properties.buyer_office_key is 'RESO BuyerOfficeKey.';

-- a Member import links the listings that were waiting for it
create index properties_unlinked_list_agent_key_idx on public.properties (list_agent_key)
  where agent_id is null and list_agent_key is not null;

create table public.transaction_sides (
  id bigint generated always as identity primary key,
  property_id uuid not null references public.properties (id) on delete cascade,
  role text not null check (role in ('list', 'co_list', 'buyer', 'co_buyer')),
  side text not null generated always as (case when role in ('list', 'co_list') then 'listing' else 'buyer' end) stored,
  agent_id uuid references public.agents (id) on delete set null,
  agent_key text check (char_length(agent_key) <= 255),
  agent_mls_id text check (char_length(agent_mls_id) <= 100),
  office_key text check (char_length(office_key) <= 255),
  office_mls_id text check (char_length(office_mls_id) <= 100),
  office_name text check (char_length(office_name) <= 300),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (property_id, role)
);

comment on table public.transaction_sides is
  'One row per sale and agent role (RESO list, co-list, buyer, co-buyer agent), derived from the listing''s fields by triggers on properties and agents. Administrators read and manage; visitors reach sales only through bounded per-agent functions.';
comment on column public.transaction_sides.role is 'list, co_list (listing side) or buyer, co_buyer (buyer side): the RESO ListAgent, CoListAgent, BuyerAgent, CoBuyerAgent.';
comment on column public.transaction_sides.side is 'listing or buyer, from role.';
comment on column public.transaction_sides.agent_id is
  'The agent: properties.agent_id for the list role; otherwise the agent whose member_key is agent_key, or, when the listing gives no key, whose mls_id is agent_mls_id. Null until that agent is known.';
comment on column public.transaction_sides.agent_key is 'The role''s RESO ...AgentKey as the listing gave it.';
comment on column public.transaction_sides.agent_mls_id is 'The role''s RESO ...AgentMlsId as the listing gave it.';
comment on column public.transaction_sides.office_key is 'The role''s RESO ...OfficeKey.';
comment on column public.transaction_sides.office_mls_id is 'The role''s RESO ...OfficeMlsId.';
comment on column public.transaction_sides.office_name is 'The role''s RESO ...OfficeName.';

create index transaction_sides_agent_id_idx on public.transaction_sides (agent_id, property_id);
create index transaction_sides_unlinked_key_idx on public.transaction_sides (agent_key)
  where agent_id is null and agent_key is not null;
create index transaction_sides_unlinked_mls_id_idx on public.transaction_sides (agent_mls_id)
  where agent_id is null and agent_key is null and agent_mls_id is not null;

create trigger transaction_sides_set_updated_at before update on public.transaction_sides
  for each row execute function public.set_updated_at();

alter table public.transaction_sides enable row level security;

revoke all on public.transaction_sides from public, anon, authenticated;
grant select, insert, update, delete on public.transaction_sides to authenticated;
grant all on public.transaction_sides to service_role;

create policy "Admins manage transaction sides" on public.transaction_sides
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));


/**
 * Rebuilds the transaction_sides rows of the given listings from their RESO role fields: one row per role that
 * names an agent (properties.agent_id for the list role; ...AgentKey or ...AgentMlsId for the others), with the
 * agent it resolves to (by Key when there is one, else by MLS id); roles no longer named are removed; unchanged
 * rows are not written. `new_listings`: the listings were just inserted, so they have no rows to remove (a bulk load
 * skips a million index probes). Rows are written in property order, so a bulk load fills the indexes in order
 * instead of at random places. `property_ids` must not repeat an id. Called by the properties triggers.
 */
create function private.sync_transaction_sides(property_ids uuid[], new_listings boolean default false)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if coalesce(pg_catalog.cardinality(property_ids), 0) = 0 then
    return;
  end if;
  with ids as (
    select u.id from pg_catalog.unnest(property_ids) as u(id)
  ),
  wanted as (
    select p.id as property_id, r.role, r.agent_id, r.agent_key, r.agent_mls_id, r.office_key, r.office_mls_id,
           r.office_name
    from ids
    join public.properties p on p.id = ids.id
    cross join lateral (values
      ('list', p.agent_id, p.list_agent_key, p.list_agent_mls_id, p.list_office_key, p.list_office_mls_id, p.list_office_name),
      ('co_list', null::uuid, p.co_list_agent_key, p.co_list_agent_mls_id, p.co_list_office_key, p.co_list_office_mls_id, p.co_list_office_name),
      ('buyer', null::uuid, p.buyer_agent_key, p.buyer_agent_mls_id, p.buyer_office_key, p.buyer_office_mls_id, p.buyer_office_name),
      ('co_buyer', null::uuid, p.co_buyer_agent_key, p.co_buyer_agent_mls_id, p.co_buyer_office_key, p.co_buyer_office_mls_id, p.co_buyer_office_name)
    ) as r (role, agent_id, agent_key, agent_mls_id, office_key, office_mls_id, office_name)
    where r.agent_id is not null or r.agent_key is not null or r.agent_mls_id is not null
  ),
  resolved as (
    select w.property_id, w.role,
           case when w.role = 'list' then w.agent_id else coalesce(by_key.id, by_mls.id) end as agent_id,
           w.agent_key, w.agent_mls_id, w.office_key, w.office_mls_id, w.office_name
    from wanted w
    left join public.agents by_key on w.role <> 'list' and by_key.member_key = w.agent_key
    left join public.agents by_mls on w.role <> 'list' and w.agent_key is null and by_mls.mls_id = w.agent_mls_id
  ),
  removed as (
    delete from public.transaction_sides s
    using ids
    where not new_listings
      and s.property_id = ids.id
      and not exists (select 1 from wanted w where w.property_id = s.property_id and w.role = s.role)
    returning 1
  )
  insert into public.transaction_sides as s
    (property_id, role, agent_id, agent_key, agent_mls_id, office_key, office_mls_id, office_name)
  select r.property_id, r.role, r.agent_id, r.agent_key, r.agent_mls_id, r.office_key, r.office_mls_id, r.office_name
  from resolved r
  order by r.property_id, r.role
  on conflict (property_id, role) do update set
    agent_id = excluded.agent_id,
    agent_key = excluded.agent_key,
    agent_mls_id = excluded.agent_mls_id,
    office_key = excluded.office_key,
    office_mls_id = excluded.office_mls_id,
    office_name = excluded.office_name
  where (s.agent_id, s.agent_key, s.agent_mls_id, s.office_key, s.office_mls_id, s.office_name)
    is distinct from (excluded.agent_id, excluded.agent_key, excluded.agent_mls_id, excluded.office_key,
                      excluded.office_mls_id, excluded.office_name);
end;
$$;

comment on function private.sync_transaction_sides(uuid[], boolean) is
  'Rebuilds the transaction_sides rows of the given listings from their RESO role fields (Key first, else MLS id; list role = properties.agent_id).';
revoke execute on function private.sync_transaction_sides(uuid[], boolean) from public, anon, authenticated;


/**
 * Statement trigger of properties: after an insert, the sides of every new listing; after an update, of the
 * listings whose agent or any role field changed. Transition tables have no statistics, so the old/new join is
 * planned with enable_nestloop off (hashed): a nested loop over a million updated rows would not finish. The
 * setting is restored before the sides are written, whose plan follows the real number of listings.
 */
create function private.properties_sync_transaction_sides()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_nestloop text := current_setting('enable_nestloop');
  v_ids uuid[];
begin
  if tg_op = 'INSERT' then
    perform private.sync_transaction_sides(array(select n.id from new_rows n), true);
  else
    perform set_config('enable_nestloop', 'off', true);
    v_ids := array(
      select n.id
      from new_rows n
      join old_rows o on o.id = n.id
      where (n.agent_id, n.list_agent_key, n.list_agent_mls_id, n.list_office_key, n.list_office_mls_id, n.list_office_name,
             n.co_list_agent_key, n.co_list_agent_mls_id, n.co_list_office_key, n.co_list_office_mls_id, n.co_list_office_name,
             n.buyer_agent_key, n.buyer_agent_mls_id, n.buyer_office_key, n.buyer_office_mls_id, n.buyer_office_name,
             n.co_buyer_agent_key, n.co_buyer_agent_mls_id, n.co_buyer_office_key, n.co_buyer_office_mls_id, n.co_buyer_office_name)
        is distinct from
            (o.agent_id, o.list_agent_key, o.list_agent_mls_id, o.list_office_key, o.list_office_mls_id, o.list_office_name,
             o.co_list_agent_key, o.co_list_agent_mls_id, o.co_list_office_key, o.co_list_office_mls_id, o.co_list_office_name,
             o.buyer_agent_key, o.buyer_agent_mls_id, o.buyer_office_key, o.buyer_office_mls_id, o.buyer_office_name,
             o.co_buyer_agent_key, o.co_buyer_agent_mls_id, o.co_buyer_office_key, o.co_buyer_office_mls_id, o.co_buyer_office_name)
    );
    perform set_config('enable_nestloop', v_nestloop, true);
    perform private.sync_transaction_sides(v_ids);
  end if;
  return null;
end;
$$;

revoke execute on function private.properties_sync_transaction_sides() from public, anon, authenticated;

create trigger properties_sync_transaction_sides_insert after insert on public.properties
  referencing new table as new_rows
  for each statement execute function private.properties_sync_transaction_sides();
create trigger properties_sync_transaction_sides_update after update on public.properties
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.properties_sync_transaction_sides();


/**
 * Links the sales that were waiting for the given agents (their MemberKey or MLS id): listings whose list agent is
 * not set get properties.agent_id (the properties trigger then updates the list side); other roles get
 * transaction_sides.agent_id. A listing that gives a Key is matched by Key only.
 */
create function private.link_agent_sides(agent_ids uuid[])
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if coalesce(pg_catalog.cardinality(agent_ids), 0) = 0 then
    return;
  end if;
  update public.properties p set agent_id = a.id
  from public.agents a
  where a.id = any(agent_ids) and a.member_key is not null
    and p.agent_id is null and p.list_agent_key = a.member_key;
  update public.properties p set agent_id = a.id
  from public.agents a
  where a.id = any(agent_ids) and a.mls_id is not null
    and p.agent_id is null and p.list_agent_key is null and p.list_agent_mls_id = a.mls_id;
  update public.transaction_sides s set agent_id = a.id
  from public.agents a
  where a.id = any(agent_ids) and a.member_key is not null
    and s.agent_id is null and s.role <> 'list' and s.agent_key = a.member_key;
  update public.transaction_sides s set agent_id = a.id
  from public.agents a
  where a.id = any(agent_ids) and a.mls_id is not null
    and s.agent_id is null and s.role <> 'list' and s.agent_key is null and s.agent_mls_id = a.mls_id;
end;
$$;

comment on function private.link_agent_sides(uuid[]) is
  'Links the listings and sides that name the given agents by MemberKey (or, without a Key, by MLS id) and have no agent yet.';
revoke execute on function private.link_agent_sides(uuid[]) from public, anon, authenticated;


/**
 * Statement trigger of agents: links the waiting sales of new agents and of agents whose Key or MLS id changed. The
 * old/new join is planned with enable_nestloop off (hashed), since every metrics refresh updates many agents at once;
 * the setting is restored before the links are written.
 */
create function private.agents_link_sides()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_nestloop text := current_setting('enable_nestloop');
  v_ids uuid[];
begin
  if tg_op = 'INSERT' then
    v_ids := array(select n.id from new_rows n where n.member_key is not null or n.mls_id is not null);
  else
    perform set_config('enable_nestloop', 'off', true);
    v_ids := array(
      select n.id from new_rows n join old_rows o on o.id = n.id
      where (n.member_key, n.mls_id) is distinct from (o.member_key, o.mls_id));
    perform set_config('enable_nestloop', v_nestloop, true);
  end if;
  perform private.link_agent_sides(v_ids);
  return null;
end;
$$;

revoke execute on function private.agents_link_sides() from public, anon, authenticated;

create trigger agents_link_sides_insert after insert on public.agents
  referencing new table as new_rows
  for each statement execute function private.agents_link_sides();
create trigger agents_link_sides_update after update on public.agents
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.agents_link_sides();


-- The sides the figures count. Today every raw side; an accepted correction (a side excluded, or credited to another
-- agent) is applied here, so the raw rows stay as the feed sent them.
create view private.effective_transaction_sides as
  select s.id, s.property_id, s.role, s.side, s.agent_id, s.agent_key, s.agent_mls_id, s.office_key, s.office_mls_id,
         s.office_name
  from public.transaction_sides s;

comment on view private.effective_transaction_sides is
  'The transaction sides the figures count: the raw sides with accepted corrections applied (none yet). Read by the metrics refresh and the per-agent sales functions only.';
revoke all on private.effective_transaction_sides from public, anon, authenticated;


-- sides of the listings already stored
select private.sync_transaction_sides(array(select p.id from public.properties p));
