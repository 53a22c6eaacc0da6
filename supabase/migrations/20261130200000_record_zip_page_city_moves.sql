-- A ZIP page belongs to one city page (/agents/<state>/<city>), by zip_page_versions.city and state. When a ZIP's
-- city changes (a new Redfin benchmark row, or its agents' most common city changed), the version row holds only the
-- new city, so a builder that renders the pages changed since its last build would render the new city page and
-- leave the old one listing the ZIP. public.zip_page_moves keeps the city a ZIP page left, with the version of the
-- change: the pages changed in (since, now] are then the version rows above `since` and the old city pages of the
-- moves above `since`. Written in the same transaction as the version row (a trigger), so the builder's watermark
-- (public.site_build_watermark(), which waits for every writer of zip_page_versions) covers it too.

create table public.zip_page_moves (
  zip_code text not null,
  version bigint not null,
  city text,
  state text,
  moved_at timestamp with time zone not null default now(),
  constraint zip_page_moves_pkey primary key (zip_code, version)
);

comment on table public.zip_page_moves is 'The city and state a ZIP page left when its zip_page_versions row changed city: version is the new version row''s, so a builder rendering the pages changed since a watermark also renders the old city page (it then lists the ZIP no more, or answers 404). Anyone reads; nobody writes but the trigger on zip_page_versions.';

create index zip_page_moves_version_idx on public.zip_page_moves (version);

alter table public.zip_page_moves enable row level security;
create policy "ZIP page moves are readable by anyone" on public.zip_page_moves
  for select to anon, authenticated using (true);
revoke all on table public.zip_page_moves from anon, authenticated, public, service_role;
grant select on table public.zip_page_moves to anon, authenticated, service_role;

create function private.record_zip_page_move()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.zip_page_moves (zip_code, version, city, state)
  values (old.zip_code, new.version, old.city, old.state)
  on conflict (zip_code, version) do nothing;
  return null;
end;
$$;

revoke all on function private.record_zip_page_move() from anon, authenticated, public, service_role;

-- a row trigger with a WHEN clause: evaluated per updated row, it fires only for the rare change of city
create trigger zip_page_versions_record_move
  after update of city, state on public.zip_page_versions
  for each row
  when (old.city is not null and old.state is not null
        and (old.city is distinct from new.city or old.state is distinct from new.state))
  execute function private.record_zip_page_move();
