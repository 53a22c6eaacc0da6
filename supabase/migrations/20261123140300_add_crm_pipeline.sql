-- CRM pipeline: an owner (an admin) per lead, a notes history instead of one overwritten box, a next follow-up
-- date, the source of the lead (page and UTM tags), and merging duplicate requests of one person.

alter table public.report_requests
  add column owner_id uuid references auth.users (id) on delete set null,
  add column follow_up_on date,
  -- where the request was made: the site path (e.g. /agents/jane-doe-austin-tx) and the visit's UTM tags
  add column source_page text check (char_length(source_page) <= 500 and source_page ~ '^/'),
  add column utm_source text check (char_length(utm_source) <= 100),
  add column utm_medium text check (char_length(utm_medium) <= 100),
  add column utm_campaign text check (char_length(utm_campaign) <= 100);

comment on column public.report_requests.owner_id is 'The administrator working this lead; null while unassigned.';
comment on column public.report_requests.follow_up_on is 'Next follow-up day (the operator''s calendar day); overdue when before today.';
comment on column public.report_requests.source_page is 'Site path the request was sent from.';

create index report_requests_owner_id_idx on public.report_requests (owner_id);
create index report_requests_follow_up_on_idx on public.report_requests (follow_up_on) where follow_up_on is not null;

-- visitors may also say where they came from (the form sends the page and the UTM tags of the visit)
grant insert (source_page, utm_source, utm_medium, utm_campaign) on public.report_requests to anon, authenticated;

-- the notes history
create table public.lead_notes (
  id bigint generated always as identity primary key,
  report_request_id uuid not null references public.report_requests (id) on delete cascade,
  -- the writing admin: filled in from the session when the client leaves it out
  author_id uuid default auth.uid() references auth.users (id) on delete set null,
  body text not null check (char_length(btrim(body)) between 1 and 5000),
  created_at timestamptz not null default now()
);

comment on table public.lead_notes is 'Timestamped notes on a lead, newest last. Admins only.';

create index lead_notes_report_request_id_created_at_idx on public.lead_notes (report_request_id, created_at);
create index lead_notes_author_id_idx on public.lead_notes (author_id);

alter table public.lead_notes enable row level security;

revoke all on public.lead_notes from anon, authenticated;
grant select, insert, delete on public.lead_notes to authenticated;
grant all on public.lead_notes to service_role;

create policy "Admins manage lead notes" on public.lead_notes
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()) and author_id = (select auth.uid()));

-- the single notes box of earlier versions becomes the first entry of each history
insert into public.lead_notes (report_request_id, body, created_at)
select id, left(notes, 5000), updated_at from public.report_requests where notes is not null and btrim(notes) <> '';

-- administrators, for the owner picker (user_roles only shows a user their own roles)
create function public.list_admins()
returns table (id uuid, email text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators may list administrators.' using errcode = '42501';
  end if;
  return query
    select u.id, u.email::text from auth.users u
      join public.user_roles r on r.user_id = u.id and r.role = 'admin'
     order by u.email;
end;
$$;

comment on function public.list_admins() is 'Id and email of every administrator (admins only; 42501 otherwise).';
revoke execute on function public.list_admins() from public, anon;
grant execute on function public.list_admins() to authenticated;

-- merging duplicates: the kept lead gets the others' notes and a note per merged request; the others are deleted.
-- security definer because notes written by other admins move with it (the notes policy lets an admin write only
-- their own); the admin check below is the gate.
create function public.merge_leads(keep_id uuid, merge_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  merged integer;
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators may merge leads.' using errcode = '42501';
  end if;
  if merge_ids is null or cardinality(merge_ids) = 0 then
    raise exception 'merge_ids must name at least one lead.' using errcode = '22023';
  end if;
  if keep_id = any (merge_ids) then
    raise exception 'The kept lead cannot also be merged away.' using errcode = '22023';
  end if;
  if not exists (select 1 from public.report_requests where id = keep_id) then
    raise exception 'Lead % does not exist.', keep_id using errcode = 'P0002';
  end if;
  if (select count(*) from public.report_requests where id = any (merge_ids)) <> cardinality(merge_ids) then
    raise exception 'Some leads to merge do not exist.' using errcode = 'P0002';
  end if;
  if exists (
    select 1 from public.report_requests m, public.report_requests k
     where k.id = keep_id and m.id = any (merge_ids) and lower(m.email) <> lower(k.email)
  ) then
    raise exception 'Only requests with the same email can be merged.' using errcode = '22023';
  end if;

  update public.lead_notes set report_request_id = keep_id where report_request_id = any (merge_ids);
  insert into public.lead_notes (report_request_id, author_id, body)
  select keep_id, (select auth.uid()),
         format('Merged request of %s: agent %s%s%s', to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"'),
                coalesce(m.agent_name, 'not named'),
                case when m.phone is not null then ', phone ' || m.phone else '' end,
                case when m.property_address is not null then ', address ' || m.property_address else '' end)
    from public.report_requests m where m.id = any (merge_ids);
  -- the kept lead inherits the earliest contact and any follow-up or owner it lacked
  update public.report_requests k set
    -- least() skips nulls
    contacted_at = least(k.contacted_at, (select min(m.contacted_at) from public.report_requests m where m.id = any (merge_ids))),
    follow_up_on = coalesce(k.follow_up_on, (select min(m.follow_up_on) from public.report_requests m where m.id = any (merge_ids))),
    owner_id = coalesce(k.owner_id, (select m.owner_id from public.report_requests m where m.id = any (merge_ids) and m.owner_id is not null limit 1))
   where k.id = keep_id;
  delete from public.report_requests where id = any (merge_ids);
  get diagnostics merged = row_count;
  return merged;
end;
$$;

comment on function public.merge_leads(uuid, uuid[]) is
  'Merges duplicate requests (same email, case-insensitive) into keep_id: notes move, a note records each merged request, the rest are deleted. Returns how many were merged. Admins only (42501); 22023 for a bad list; P0002 for a missing lead.';
revoke execute on function public.merge_leads(uuid, uuid[]) from public, anon;
grant execute on function public.merge_leads(uuid, uuid[]) to authenticated;
