-- The agent who claimed a profile files corrections of their record; an administrator accepts or rejects each, and
-- an accepted one changes the figures without editing the raw record.
--
-- Decisions:
--   * Four kinds: not_my_sale (a credited sale was not theirs), wrong_side (they had the other side: `side` says
--     which one they had), wrong_price_date (the MLS has the close price or date wrong: the right values and the MLS
--     number), missing_sale (a sale of theirs is not credited: MLS number, address and the side they had).
--   * Nothing a correction says touches public.properties or public.transaction_sides: the feed's rows stay as sent.
--     An accepted correction of who had which side becomes rows of private.agent_side_overrides, which
--     private.effective_transaction_sides (the sides every figure reads) applies: exclude the agent from a side,
--     move their side to the other one, link them to a side whose agent the feed did not name, or add their side.
--     An accepted price or date correction becomes a row of private.agent_sale_overrides (see its comment for
--     where the figures read it). Accepting runs the metrics refresh, so the figures, the sales behind them and the
--     pages change at once.
--   * A missing sale counts only when its MLS number names a listing in our data (ListingKey, as properties keep
--     it: source_record_id or listing_key); otherwise it cannot be accepted until an import brings the listing.
--   * The owner files and withdraws through the API under RLS; a trigger checks what RLS cannot (the sale is
--     credited to them, the kind's fields, no duplicate pending correction, at most 20 a day) and keeps a copy of
--     what the sale looked like when filed (recorded_*). Visitors see the public result only: counts on agents
--     (corrections_accepted, corrections_pending) and the accepted corrections of a sale (public.agent_sale_corrections).

alter table public.agents
  add column corrections_accepted integer not null default 0 check (corrections_accepted >= 0),
  add column corrections_pending integer not null default 0 check (corrections_pending >= 0);

comment on column public.agents.corrections_accepted is 'Corrections of this agent''s record an administrator accepted (the profile shows the count).';
comment on column public.agents.corrections_pending is 'Corrections of this agent''s record waiting for an administrator.';

create table public.agent_corrections (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references public.agents (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  kind text not null check (kind in ('not_my_sale', 'wrong_side', 'wrong_price_date', 'missing_sale')),
  property_id uuid references public.properties (id) on delete set null,
  listing_number text check (char_length(listing_number) between 1 and 100),
  address text check (char_length(address) between 1 and 300),
  side text check (side in ('listing', 'buyer')),
  close_price numeric(14, 2) check (close_price > 0 and close_price < 10000000000),
  close_date date check (close_date >= date '1900-01-01'),
  explanation text check (char_length(explanation) <= 1000),
  recorded_role text check (recorded_role in ('list', 'co_list', 'buyer', 'co_buyer')),
  recorded_close_price numeric(14, 2),
  recorded_close_date date,
  status text not null default 'pending' check (status in ('pending', 'accepted', 'rejected', 'withdrawn')),
  decided_by uuid references auth.users (id) on delete set null,
  decided_at timestamptz,
  decision_reason text check (char_length(decision_reason) <= 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (kind <> 'wrong_side' or side is not null),
  check (kind <> 'missing_sale' or (listing_number is not null and address is not null and side is not null)),
  check (kind <> 'wrong_price_date' or (listing_number is not null and (close_price is not null or close_date is not null)))
);

comment on table public.agent_corrections is
  'A correction of an agent''s record filed by the agent who claimed the profile: not_my_sale, wrong_side, wrong_price_date or missing_sale, with the agent''s explanation. Never edits the raw record: an accepted one becomes an override the figures apply (private.agent_side_overrides, private.agent_sale_overrides). The owner files and withdraws; the owner and administrators read; administrators decide (decide_agent_correction).';
comment on column public.agent_corrections.property_id is 'The sale (properties.id); for a missing sale, the listing its MLS number names in our data, if any.';
comment on column public.agent_corrections.listing_number is 'The MLS number of the sale (RESO ListingKey as properties.source_record_id keeps it).';
comment on column public.agent_corrections.address is 'The sale''s address (as the agent gave it for a missing sale).';
comment on column public.agent_corrections.side is 'wrong_side: the side the agent really had; missing_sale: the side they had (listing or buyer).';
comment on column public.agent_corrections.close_price is 'wrong_price_date: the right ClosePrice, USD.';
comment on column public.agent_corrections.close_date is 'wrong_price_date: the right CloseDate.';
comment on column public.agent_corrections.explanation is 'Why, in the agent''s words (plain text), for the reviewers.';
comment on column public.agent_corrections.recorded_role is 'The agent''s role on the sale when the correction was filed (list, co_list, buyer, co_buyer).';
comment on column public.agent_corrections.recorded_close_price is 'The ClosePrice in our data when the correction was filed, USD.';
comment on column public.agent_corrections.recorded_close_date is 'The CloseDate in our data when the correction was filed.';
comment on column public.agent_corrections.decision_reason is 'Why the administrator decided so (mailed to the agent).';

create index agent_corrections_agent_id_idx on public.agent_corrections (agent_id, created_at desc);
create index agent_corrections_user_id_idx on public.agent_corrections (user_id);
create index agent_corrections_status_created_at_idx on public.agent_corrections (status, created_at desc);
create index agent_corrections_property_id_idx on public.agent_corrections (property_id);
create index agent_corrections_decided_by_idx on public.agent_corrections (decided_by);

create trigger agent_corrections_set_updated_at before update on public.agent_corrections
  for each row execute function public.set_updated_at();

alter table public.agent_corrections enable row level security;
revoke all on public.agent_corrections from public, anon, authenticated;
grant select on public.agent_corrections to authenticated;
grant insert (agent_id, kind, property_id, listing_number, address, side, close_price, close_date, explanation)
  on public.agent_corrections to authenticated;
grant update (status) on public.agent_corrections to authenticated;
grant select, insert, update, delete on public.agent_corrections to service_role;

create policy "Owners read their corrections" on public.agent_corrections
  for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Admins read every correction" on public.agent_corrections
  for select to authenticated
  using ((select public.is_admin()));
create policy "Owners file corrections of their record" on public.agent_corrections
  for insert to authenticated
  with check (user_id = (select auth.uid()) and (select public.is_agent_owner(agent_id)));
create policy "Owners withdraw their pending corrections" on public.agent_corrections
  for update to authenticated
  using (user_id = (select auth.uid()) and status = 'pending')
  with check (user_id = (select auth.uid()) and status = 'withdrawn');

create trigger agent_corrections_audit after insert or update or delete on public.agent_corrections
  for each row when (auth.uid() is not null) execute function private.record_audit_entry();


-- ---------------------------------------------------------------------------------------------------------------
-- overrides: what accepted corrections change
-- ---------------------------------------------------------------------------------------------------------------

create table private.agent_side_overrides (
  id bigint generated always as identity primary key,
  correction_id uuid not null references public.agent_corrections (id) on delete cascade,
  property_id uuid not null references public.properties (id) on delete cascade,
  role text not null check (role in ('list', 'co_list', 'buyer', 'co_buyer')),
  action text not null check (action in ('exclude', 'flip', 'link', 'add')),
  agent_id uuid not null references public.agents (id) on delete cascade
);

comment on table private.agent_side_overrides is
  'Who had which side, as accepted corrections say, over the raw transaction_sides row of (property_id, role): exclude (the row''s agent, agent_id, is taken off the side, which stays with an unnamed party), flip (the agent''s row moves to the other side: list <-> buyer, co_list <-> co_buyer), link (the row named no known agent: it is agent_id''s), add (agent_id gets a side the feed does not have, in role). exclude and flip apply while the raw row still names agent_id, link while it names no agent.';

create unique index agent_side_overrides_raw_row_idx on private.agent_side_overrides (property_id, role) where action <> 'add';
create unique index agent_side_overrides_added_idx on private.agent_side_overrides (property_id, role, agent_id) where action = 'add';
create index agent_side_overrides_correction_id_idx on private.agent_side_overrides (correction_id);
revoke all on private.agent_side_overrides from public, anon, authenticated;

create table private.agent_sale_overrides (
  correction_id uuid primary key references public.agent_corrections (id) on delete cascade,
  property_id uuid not null unique references public.properties (id) on delete cascade,
  close_price numeric(14, 2) check (close_price > 0),
  close_date date,
  check (close_price is not null or close_date is not null)
);

comment on table private.agent_sale_overrides is
  'The close price and date of a sale as an accepted correction says (null: the feed''s value stands), one per sale. Shown on the sale''s row; the figures read close prices and dates from public.properties, so these change the figures once the crediting reads them (docs/claims.md).';
revoke all on private.agent_sale_overrides from public, anon, authenticated;

/** The role on the other side of a sale: list <-> buyer, co_list <-> co_buyer. */
create function private.other_side_role(role text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case role when 'list' then 'buyer' when 'co_list' then 'co_buyer' when 'buyer' then 'list' when 'co_buyer' then 'co_list' end
$$;

revoke execute on function private.other_side_role(text) from public, anon, authenticated;

-- The sides the figures count: the raw rows no accepted correction touches, the rows it changes, and the sides it
-- adds. Same columns as before, so every reader (the metrics refresh, the per-agent sales functions) applies the
-- corrections without knowing about them. The first branch keeps the filter on transaction_sides.agent_id usable.
create or replace view private.effective_transaction_sides as
  select s.id, s.property_id, s.role, s.side, s.agent_id, s.agent_key, s.agent_mls_id, s.office_key, s.office_mls_id,
         s.office_name
    from public.transaction_sides s
   where not exists (
     select 1 from private.agent_side_overrides o
      where o.property_id = s.property_id and o.role = s.role and o.action <> 'add'
        and (case when o.action = 'link' then s.agent_id is null else s.agent_id = o.agent_id end))
  union all
  select s.id, s.property_id, r.role,
         case when r.role in ('list', 'co_list') then 'listing' else 'buyer' end,
         case when o.action = 'exclude' then null else o.agent_id end,
         s.agent_key, s.agent_mls_id, s.office_key, s.office_mls_id, s.office_name
    from private.agent_side_overrides o
    join public.transaction_sides s on s.property_id = o.property_id and s.role = o.role
    cross join lateral (select case when o.action = 'flip' then private.other_side_role(s.role) else s.role end as role) r
   where o.action <> 'add'
     and (case when o.action = 'link' then s.agent_id is null else s.agent_id = o.agent_id end)
  union all
  select -o.id, o.property_id, o.role,
         case when o.role in ('list', 'co_list') then 'listing' else 'buyer' end,
         o.agent_id, null, null, null, null, null
    from private.agent_side_overrides o
   where o.action = 'add';

comment on view private.effective_transaction_sides is
  'The transaction sides the figures count: the raw sides with accepted corrections applied (private.agent_side_overrides: exclude, flip, link, add). Read by the metrics refresh and the per-agent sales functions only.';
revoke all on private.effective_transaction_sides from public, anon, authenticated;


-- ---------------------------------------------------------------------------------------------------------------
-- filing
-- ---------------------------------------------------------------------------------------------------------------

/**
 * The listing an MLS number names in our data: properties.source_record_id (the ListingKey the importer keeps,
 * through the (source, source_record_id) key of each feed we hold) or listing_key; trimmed, case ignored.
 * Null when none or more than one listing matches.
 */
create function private.listing_by_mls_number(mls_number text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_number text := pg_catalog.btrim(coalesce(mls_number, ''));
  v_ids uuid[];
begin
  if v_number = '' then
    return null;
  end if;
  v_ids := array(
    select p.id
      from (select distinct u.source
              from public.figures_refreshes f cross join pg_catalog.unnest(f.sources) as u (source)
             where f.id = (select max(g.id) from public.figures_refreshes g)) s
      join public.properties p on p.source = s.source
       and p.source_record_id in (v_number, pg_catalog.upper(v_number), pg_catalog.lower(v_number))
     limit 2);
  if pg_catalog.cardinality(v_ids) = 1 then
    return v_ids[1];
  end if;
  return null;
end;
$$;

comment on function private.listing_by_mls_number(text) is
  'The properties.id a sale''s MLS number (ListingKey as source_record_id) names in a feed we hold; null when none or several.';
revoke execute on function private.listing_by_mls_number(text) from public, anon, authenticated;

/*
 * BEFORE INSERT of a correction through the API: the filer must own the profile (RLS checks it too), the sale (by
 * property_id, or by its MLS number) must be credited to the agent (not_my_sale, wrong_side, wrong_price_date) or not yet on the named side (missing_sale),
 * each kind's fields are checked with messages naming them, texts become plain text, the same pending correction is
 * refused, a filer files at most 20 a day, and the sale as our data has it is kept in recorded_*.
 */
create function private.prepare_agent_correction()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_property public.properties%rowtype;
  v_sides text[];
  v_roles text[];
begin
  new.user_id := (select auth.uid());
  new.status := 'pending';
  new.decided_by := null;
  new.decided_at := null;
  new.decision_reason := null;
  if not private.owns_agent(new.user_id, new.agent_id) then
    raise exception 'Only the agent who claimed this profile can file corrections of its record.' using errcode = 'PT403';
  end if;
  new.explanation := private.plain_text(new.explanation, true);
  new.address := private.plain_text(new.address);
  new.listing_number := private.plain_text(new.listing_number);
  if pg_catalog.char_length(new.explanation) > 1000 then
    raise exception 'explanation: Keep the explanation to 1,000 characters.' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(new.listing_number) > 100 then
    raise exception 'listingNumber: An MLS number has at most 100 characters.' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(new.address) > 300 then
    raise exception 'address: Keep the address to 300 characters.' using errcode = 'PT400';
  end if;

  if new.kind = 'missing_sale' then
    if new.listing_number is null then
      raise exception 'listingNumber: Give the MLS number of the sale.' using errcode = 'PT400';
    end if;
    if new.address is null then
      raise exception 'address: Give the address of the sale.' using errcode = 'PT400';
    end if;
    if new.side is null then
      raise exception 'side: Say which side of the sale you had.' using errcode = 'PT400';
    end if;
    new.property_id := private.listing_by_mls_number(new.listing_number);
    new.close_price := null;
    new.close_date := null;
    if new.property_id is not null and exists (
      select 1 from private.effective_transaction_sides e
       where e.property_id = new.property_id and e.agent_id = new.agent_id and e.side = new.side) then
      raise exception 'This sale is already credited to you on the % side.', new.side using errcode = 'PT409';
    end if;
  else
    if new.property_id is null and new.listing_number is not null then
      new.property_id := private.listing_by_mls_number(new.listing_number);
      if new.property_id is null then
        raise exception 'listingNumber: No sale with this MLS number is in our data.' using errcode = 'PT400';
      end if;
    end if;
    if new.property_id is null then
      raise exception 'listingNumber: Pick the sale from your sales, or give its MLS number.' using errcode = 'PT400';
    end if;
    select array_agg(e.side order by e.role), array_agg(e.role order by array_position(array['list', 'co_list', 'buyer', 'co_buyer'], e.role))
      into v_sides, v_roles
      from private.effective_transaction_sides e
     where e.property_id = new.property_id and e.agent_id = new.agent_id;
    if v_roles is null then
      raise exception 'This sale is not credited to you, so there is nothing to correct.' using errcode = 'PT400';
    end if;
    new.recorded_role := v_roles[1];
    if new.kind = 'wrong_side' then
      if new.side is null then
        raise exception 'side: Say which side of the sale you had.' using errcode = 'PT400';
      end if;
      if new.side = all (v_sides) then
        raise exception 'side: You are credited with the % side already; pick the side you had.', new.side using errcode = 'PT400';
      end if;
    else
      new.side := null;
    end if;
    if new.kind <> 'wrong_price_date' then
      new.close_price := null;
      new.close_date := null;
    end if;
  end if;

  if new.property_id is not null then
    select * into v_property from public.properties p where p.id = new.property_id;
    new.recorded_close_price := v_property.sale_price;
    new.recorded_close_date := v_property.sale_date;
    new.address := coalesce(new.address, v_property.address);
    new.listing_number := coalesce(new.listing_number, v_property.source_record_id);
  end if;

  if new.kind = 'wrong_price_date' then
    if new.listing_number is null then
      raise exception 'listingNumber: Give the MLS number of the sale.' using errcode = 'PT400';
    end if;
    if new.close_price is null and new.close_date is null then
      raise exception 'closePrice: Give the right close price or close date.' using errcode = 'PT400';
    end if;
    if new.close_date > current_date then
      raise exception 'closeDate: A close date cannot be in the future.' using errcode = 'PT400';
    end if;
    if new.close_price is not distinct from new.recorded_close_price then
      new.close_price := null;
    end if;
    if new.close_date is not distinct from new.recorded_close_date then
      new.close_date := null;
    end if;
    if new.close_price is null and new.close_date is null then
      raise exception 'closePrice: That is the close price and date we have already.' using errcode = 'PT400';
    end if;
  end if;

  if exists (
    select 1 from public.agent_corrections c
     where c.agent_id = new.agent_id and c.kind = new.kind and c.status = 'pending'
       and (c.property_id = new.property_id
            or (new.property_id is null and pg_catalog.lower(c.listing_number) = pg_catalog.lower(new.listing_number)))) then
    raise exception 'You have already filed this correction; it is waiting for review.' using errcode = 'PT409';
  end if;
  perform private.enforce_agent_rate_limit('correction', new.user_id, 20, 86400,
    'You have filed 20 corrections today. Please wait until tomorrow to file more.');
  return new;
end;
$$;

comment on function private.prepare_agent_correction() is
  'Checks and completes a correction filed through the API (ownership, the sale, the kind''s fields, duplicates, 20 a day).';
revoke execute on function private.prepare_agent_correction() from public, anon, authenticated;

create trigger agent_corrections_prepare before insert on public.agent_corrections
  for each row when (auth.uid() is not null) execute function private.prepare_agent_correction();

/*
 * Keeps agents.corrections_accepted and corrections_pending equal to the agent's corrections after every change of
 * them (only the agents whose counts changed are written, so the agent's page rebuilds when its counts change).
 */
create function private.count_agent_corrections()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with touched as (
    select n.agent_id from new_rows n
    union
    select o.agent_id from old_rows o
  ),
  counts as (
    select t.agent_id,
           count(c.id) filter (where c.status = 'accepted')::integer as accepted,
           count(c.id) filter (where c.status = 'pending')::integer as pending
      from touched t
      left join public.agent_corrections c on c.agent_id = t.agent_id
     group by t.agent_id
  )
  update public.agents a
     set corrections_accepted = k.accepted, corrections_pending = k.pending
    from counts k
   where a.id = k.agent_id
     and (a.corrections_accepted, a.corrections_pending) is distinct from (k.accepted, k.pending);
  return null;
end;
$$;

revoke execute on function private.count_agent_corrections() from public, anon, authenticated;

create function private.count_agent_corrections_after_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.agents a
     set corrections_accepted = k.accepted, corrections_pending = k.pending
    from (
      select t.agent_id,
             count(c.id) filter (where c.status = 'accepted')::integer as accepted,
             count(c.id) filter (where c.status = 'pending')::integer as pending
        from (select distinct n.agent_id from new_rows n) t
        left join public.agent_corrections c on c.agent_id = t.agent_id
       group by t.agent_id) k
   where a.id = k.agent_id
     and (a.corrections_accepted, a.corrections_pending) is distinct from (k.accepted, k.pending);
  return null;
end;
$$;

revoke execute on function private.count_agent_corrections_after_insert() from public, anon, authenticated;

create function private.count_agent_corrections_after_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.agents a
     set corrections_accepted = k.accepted, corrections_pending = k.pending
    from (
      select t.agent_id,
             count(c.id) filter (where c.status = 'accepted')::integer as accepted,
             count(c.id) filter (where c.status = 'pending')::integer as pending
        from (select distinct o.agent_id from old_rows o) t
        left join public.agent_corrections c on c.agent_id = t.agent_id
       group by t.agent_id) k
   where a.id = k.agent_id
     and (a.corrections_accepted, a.corrections_pending) is distinct from (k.accepted, k.pending);
  return null;
end;
$$;

revoke execute on function private.count_agent_corrections_after_delete() from public, anon, authenticated;

create trigger agent_corrections_count_insert after insert on public.agent_corrections
  referencing new table as new_rows
  for each statement execute function private.count_agent_corrections_after_insert();
create trigger agent_corrections_count_update after update on public.agent_corrections
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.count_agent_corrections();
create trigger agent_corrections_count_delete after delete on public.agent_corrections
  referencing old table as old_rows
  for each statement execute function private.count_agent_corrections_after_delete();

-- a revoked claim takes its owner's pending corrections and visibility requests with it
create function private.withdraw_revoked_owner_requests()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.agent_corrections c
     set status = 'withdrawn', decision_reason = 'The claim of this profile was revoked.'
   where c.agent_id = new.agent_id and c.user_id = new.user_id and c.status = 'pending';
  update public.agent_visibility_requests r
     set status = 'withdrawn', decision_reason = 'The claim of this profile was revoked.'
   where r.agent_id = new.agent_id and r.user_id = new.user_id and r.status = 'pending';
  return null;
end;
$$;

revoke execute on function private.withdraw_revoked_owner_requests() from public, anon, authenticated;

create trigger agent_claims_withdraw_revoked_requests after update of status on public.agent_claims
  for each row when (new.status = 'revoked' and old.status = 'approved')
  execute function private.withdraw_revoked_owner_requests();


-- ---------------------------------------------------------------------------------------------------------------
-- deciding
-- ---------------------------------------------------------------------------------------------------------------

/**
 * Recomputes every figure over the window of the figures now shown (the latest figures_refreshes row), so an
 * accepted correction shows at once; the default window when there has been no refresh yet.
 */
create function private.refresh_figures_for_correction()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_start date;
  v_end date;
begin
  select f.window_start, f.window_end into v_start, v_end
    from public.figures_refreshes f
   order by f.id desc
   limit 1;
  if v_end is null or v_start is null then
    perform public.refresh_agent_metrics();
  else
    perform public.refresh_agent_metrics(
      greatest(1, least(600, (extract(year from age(v_end + 1, v_start)) * 12 + extract(month from age(v_end + 1, v_start)))::integer)),
      v_end);
  end if;
end;
$$;

revoke execute on function private.refresh_figures_for_correction() from public, anon, authenticated;

/**
 * Turns an accepted side correction into overrides (see private.agent_side_overrides): not_my_sale excludes every
 * raw side of the sale that names the agent; wrong_side moves the agent's sides to `side` (one flipped, any other
 * excluded, none when they already have that side); missing_sale links the agent to the first side row of `side`
 * that names no known agent, else adds a side (the side's first role when the feed has no row for it, else its
 * co-role). Raises PT409 naming why when there is nothing in our data it can apply to.
 */
create function private.apply_side_correction(correction public.agent_corrections)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_property uuid := correction.property_id;
  v_row record;
  v_has_side boolean;
  v_flipped boolean := false;
  v_primary text;
begin
  if correction.kind = 'not_my_sale' then
    insert into private.agent_side_overrides (correction_id, property_id, role, action, agent_id)
    select correction.id, s.property_id, s.role, 'exclude', correction.agent_id
      from public.transaction_sides s
     where s.property_id = v_property and s.agent_id = correction.agent_id
       and not exists (select 1 from private.agent_side_overrides o where o.property_id = s.property_id and o.role = s.role and o.action <> 'add');
    if not found then
      raise exception 'Our data no longer credits this sale to the agent, so there is nothing to remove.' using errcode = 'PT409';
    end if;
  elsif correction.kind = 'wrong_side' then
    v_has_side := exists (
      select 1 from public.transaction_sides s
       where s.property_id = v_property and s.agent_id = correction.agent_id and s.side = correction.side);
    for v_row in
      select s.role from public.transaction_sides s
       where s.property_id = v_property and s.agent_id = correction.agent_id and s.side <> correction.side
       order by array_position(array['list', 'co_list', 'buyer', 'co_buyer'], s.role)
    loop
      insert into private.agent_side_overrides (correction_id, property_id, role, action, agent_id)
      values (correction.id, v_property, v_row.role,
              case when v_has_side or v_flipped then 'exclude' else 'flip' end, correction.agent_id);
      v_flipped := true;
    end loop;
    if not v_flipped then
      raise exception 'Our data no longer credits the agent with the other side of this sale, so there is nothing to move.'
        using errcode = 'PT409';
    end if;
  elsif correction.kind = 'missing_sale' then
    if v_property is null then
      raise exception 'No listing with MLS number % is in our data yet, so the sale cannot be counted. Reject it with that reason, or accept it after an import brings the listing.',
        correction.listing_number using errcode = 'PT409';
    end if;
    if exists (select 1 from private.effective_transaction_sides e
                where e.property_id = v_property and e.agent_id = correction.agent_id and e.side = correction.side) then
      raise exception 'The sale is already credited to the agent on the % side.', correction.side using errcode = 'PT409';
    end if;
    select s.role into v_row from public.transaction_sides s
     where s.property_id = v_property and s.side = correction.side and s.agent_id is null
       and not exists (select 1 from private.agent_side_overrides o where o.property_id = s.property_id and o.role = s.role and o.action <> 'add')
     order by array_position(array['list', 'co_list', 'buyer', 'co_buyer'], s.role)
     limit 1;
    if found then
      insert into private.agent_side_overrides (correction_id, property_id, role, action, agent_id)
      values (correction.id, v_property, v_row.role, 'link', correction.agent_id);
    else
      v_primary := case correction.side when 'listing' then 'list' else 'buyer' end;
      insert into private.agent_side_overrides (correction_id, property_id, role, action, agent_id)
      values (correction.id, v_property,
              case when exists (select 1 from private.effective_transaction_sides e where e.property_id = v_property and e.role = v_primary)
                   then case correction.side when 'listing' then 'co_list' else 'co_buyer' end
                   else v_primary end,
              'add', correction.agent_id);
    end if;
  end if;
end;
$$;

revoke execute on function private.apply_side_correction(public.agent_corrections) from public, anon, authenticated;

/**
 * An administrator's decision on a pending correction, mailed to the agent with the reason:
 *   'accept': the correction applies (overrides, see private.apply_side_correction and agent_sale_overrides) and the
 *     figures are recomputed at once (refresh_agent_metrics over the window shown); the raw record is not touched;
 *   'reject': it does not apply (reason required).
 * Errors: 42501 not an administrator at aal2; PT404 unknown correction; PT409 not pending, or nothing in our data it
 * can apply to (the message says what); PT400 a missing reason. Returns the correction as stored.
 */
create function public.decide_agent_correction(correction uuid, decision text, reason text default null)
returns public.agent_corrections
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_correction public.agent_corrections%rowtype;
  v_reason text := nullif(pg_catalog.btrim(coalesce(reason, '')), '');
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators decide corrections.' using errcode = '42501';
  end if;
  if decision is null or decision not in ('accept', 'reject') then
    raise exception 'decision must be accept or reject' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(v_reason) > 1000 then
    raise exception 'reason: Keep the reason to 1,000 characters.' using errcode = 'PT400';
  end if;
  select * into v_correction from public.agent_corrections c where c.id = correction for update;
  if not found then
    raise exception 'No correction has this id.' using errcode = 'PT404';
  end if;
  if v_correction.status <> 'pending' then
    raise exception 'Only a pending correction can be decided; this one is %.', v_correction.status using errcode = 'PT409';
  end if;
  if decision = 'reject' then
    if v_reason is null then
      raise exception 'reason: Give a reason: it is mailed to the agent.' using errcode = 'PT400';
    end if;
    update public.agent_corrections c
       set status = 'rejected', decided_by = (select auth.uid()), decided_at = now(), decision_reason = v_reason
     where c.id = correction
    returning * into v_correction;
    perform private.add_agent_notice(v_correction.user_id, 'correction_rejected', v_correction.agent_id, correction, v_reason,
      jsonb_build_object('kind', v_correction.kind, 'address', v_correction.address, 'listing_number', v_correction.listing_number));
    return v_correction;
  end if;

  -- a missing sale whose listing arrived since it was filed
  if v_correction.kind = 'missing_sale' and v_correction.property_id is null then
    v_correction.property_id := private.listing_by_mls_number(v_correction.listing_number);
  end if;
  if v_correction.kind <> 'missing_sale' and v_correction.property_id is null then
    raise exception 'The sale is no longer in our data, so the correction cannot apply.' using errcode = 'PT409';
  end if;
  if v_correction.kind = 'wrong_price_date' then
    if exists (select 1 from private.agent_sale_overrides o
                where o.property_id = v_correction.property_id and o.correction_id <> v_correction.id) then
      raise exception 'Another accepted correction already sets the price and date of this sale.' using errcode = 'PT409';
    end if;
    insert into private.agent_sale_overrides (correction_id, property_id, close_price, close_date)
    values (v_correction.id, v_correction.property_id, v_correction.close_price, v_correction.close_date);
  else
    perform private.apply_side_correction(v_correction);
  end if;
  update public.agent_corrections c
     set status = 'accepted', property_id = v_correction.property_id, decided_by = (select auth.uid()),
         decided_at = now(), decision_reason = v_reason
   where c.id = correction
  returning * into v_correction;
  perform private.refresh_figures_for_correction();
  perform private.add_agent_notice(v_correction.user_id, 'correction_accepted', v_correction.agent_id, correction, v_reason,
    jsonb_build_object('kind', v_correction.kind, 'address', v_correction.address, 'listing_number', v_correction.listing_number));
  return v_correction;
end;
$$;

comment on function public.decide_agent_correction(uuid, text, text) is
  'An administrator accepts (applies as an override and recomputes the figures) or rejects a correction; the agent is mailed. 42501 for anyone else.';
revoke execute on function public.decide_agent_correction(uuid, text, text) from public, anon;
grant execute on function public.decide_agent_correction(uuid, text, text) to authenticated;


-- ---------------------------------------------------------------------------------------------------------------
-- the public result
-- ---------------------------------------------------------------------------------------------------------------

/**
 * The accepted corrections of an agent's record, newest decision first, as visitors see them beside the sales: the
 * sale (property_id, address, MLS number), the kind, the side the agent had (wrong_side, missing_sale), the close
 * price (USD) and date the correction gives (wrong_price_date) next to the ones our data had, and when it was
 * accepted. Nothing the agent or the administrator wrote. Anyone may call it; at most 100 agents a call.
 */
create function public.agent_sale_corrections(agent_ids uuid[])
returns table (
  agent_id uuid,
  correction_id uuid,
  property_id uuid,
  kind text,
  address text,
  listing_number text,
  side text,
  close_price numeric,
  close_date date,
  recorded_close_price numeric,
  recorded_close_date date,
  accepted_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if agent_ids is null or pg_catalog.cardinality(agent_ids) > 100 then
    raise exception 'agent_ids must name at most 100 agents' using errcode = '22023';
  end if;
  return query
    select c.agent_id, c.id, c.property_id, c.kind, c.address, c.listing_number, c.side, c.close_price, c.close_date,
           c.recorded_close_price, c.recorded_close_date, c.decided_at
      from public.agent_corrections c
     where c.agent_id = any (agent_ids) and c.status = 'accepted'
     order by c.agent_id, c.decided_at desc, c.id;
end;
$$;

comment on function public.agent_sale_corrections(uuid[]) is
  'Accepted corrections of agents'' records (sale, kind, corrected values, when accepted) for the profile and the sales behind a figure; anyone, at most 100 agents a call.';
revoke execute on function public.agent_sale_corrections(uuid[]) from public;
grant execute on function public.agent_sale_corrections(uuid[]) to anon, authenticated, service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- the review queue
-- ---------------------------------------------------------------------------------------------------------------

/**
 * The account emails of the users who filed claims, corrections or visibility requests, for the administrators'
 * review queue (Admin -> Agents): at most 200 ids a call; ids of users who filed none of these are left out.
 * Errors: 42501 not an administrator at aal2; 22023 more than 200 ids.
 */
create function public.agent_review_people(user_ids uuid[])
returns table (user_id uuid, email text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators read the review queue.' using errcode = '42501';
  end if;
  if user_ids is null or pg_catalog.cardinality(user_ids) > 200 then
    raise exception 'user_ids must name at most 200 users' using errcode = '22023';
  end if;
  return query
    select u.id, u.email::text
      from auth.users u
     where u.id = any (user_ids)
       and (exists (select 1 from public.agent_claims c where c.user_id = u.id)
            or exists (select 1 from public.agent_corrections c where c.user_id = u.id)
            or exists (select 1 from public.agent_visibility_requests r where r.user_id = u.id));
end;
$$;

comment on function public.agent_review_people(uuid[]) is
  'Account emails of the users who filed claims, corrections or visibility requests (administrators at aal2, at most 200 ids a call).';
revoke execute on function public.agent_review_people(uuid[]) from public, anon;
grant execute on function public.agent_review_people(uuid[]) to authenticated;
