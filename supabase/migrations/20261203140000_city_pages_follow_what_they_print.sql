-- A city page gets a new city version only when what it prints changes: its ZIPs' rankings, places, coverage or
-- benchmarks, or a printed figure of an agent among its first 25.
--
-- Why: a daily refresh at national size (1,000,000 agents / 12,000,000 sales, a new sale for 1 % of the agents) gave
-- 16,373 of 16,509 city pages a new city version, because an agent whose sale-to-list figure moved gives every ZIP
-- where the agent has a side a new city_version, and those agents have sides nearly everywhere. A city page prints
-- the first 25 of its ranked agents (5 or more sales across its ZIPs, by sides there, then volume); those agents were
-- among the first 25 of only about 4,330 cities that day.
--
-- What:
--   * private.city_page_path(state, city): the city page's path under /agents/ as the site groups ZIP pages into city
--     pages: the state lower-case, '/', the city's slug (lower-case ASCII letters and digits joined by single hyphens,
--     accents folded, cut at a hyphen to at most 80 characters: the slug rule of the site). Null without a state, a
--     city or a slug.
--   * public.zip_page_versions.city_page_path: that path for each five-digit ZIP (null for other ZIP codes), written
--     with the place by private.touch_zip_pages_now.
--   * private.city_top_agents: the first 25 ranked agents of each city page (rank() by summed sides, then volume,
--     so ties at 25th place are all kept), recomputed by private.touch_zip_pages_now for the cities of the ZIPs it
--     recomputes (the cities they left as well as the ones they are in).
--   * private.bump_area_pages_now: an agent whose printed figure moved gives a new city_version only to the ZIPs where
--     the agent has a side in a city that prints the agent (and a new version, as before, to the ZIPs that print the
--     agent). A ZIP page's own version can now be above its city_version: a city page's key is its ZIPs'
--     city_version, which moves exactly when the city page may print something new.

/**
 * The path of the city page a ZIP page belongs to, under /agents/: lower(state) || '/' || slug(city). The slug is the
 * site's rule (supabase/functions/_shared/slug.ts slugify with its default cut): accents folded (NFKD, combining marks
 * removed), lower-case, every run of characters other than a-z and 0-9 made one hyphen, hyphens trimmed, and a slug
 * longer than 80 characters cut at its last hyphen within the first 81 (inside a word when there is none). Null when
 * the state or city is null or the slug is empty. The marks are removed before lower-casing so the result does not
 * depend on the database's collation.
 */
create function private.city_page_path(state text, city text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
           when state is null or s.slug = '' then null
           when length(s.slug) <= 80 then lower(state) || '/' || s.slug
           when strpos(left(s.slug, 81), '-') > 0 then
             lower(state) || '/' || rtrim(left(s.slug, 81 - strpos(reverse(left(s.slug, 81)), '-')), '-')
           else lower(state) || '/' || left(s.slug, 80)
         end
    from (
      select btrim(
               pg_catalog.regexp_replace(
                 lower(pg_catalog.regexp_replace(normalize(coalesce(city, ''), nfkd), '[\u0300-\u036f]', '', 'g')),
                 '[^a-z0-9]+', '-', 'g'),
               '-') as slug
    ) s
$$;

revoke all on function private.city_page_path(text, text) from public, anon, authenticated, service_role;
comment on function private.city_page_path(text, text) is 'The city page''s path under /agents/ (state lower-case / city slug, the site''s slug rule), or null: how ZIP pages group into city pages.';

alter table public.zip_page_versions add column city_page_path text;
update public.zip_page_versions
   set city_page_path = private.city_page_path(state, city)
 where zip_code ~ '^[0-9]{5}$';
create index zip_page_versions_city_page_path_idx on public.zip_page_versions (city_page_path);
comment on column public.zip_page_versions.city_page_path is 'The path under /agents/ of the city page this ZIP page belongs to (private.city_page_path of state and city); null for a ZIP code that is not five digits or has no place.';
comment on column public.zip_page_versions.city_version is 'The version of what this ZIP gives its city page: new when the ZIP is recomputed (its ranking, place, coverage or benchmark), and when an agent with a side in the ZIP who is among the first 25 of its city page (private.city_top_agents) changes a printed figure. A city page''s build-cache key is made of its ZIPs'' city_version.';

create table private.city_top_agents (
  city_page_path text not null,
  agent_id uuid not null,
  primary key (city_page_path, agent_id)
);
create index city_top_agents_agent_id_idx on private.city_top_agents (agent_id);
alter table private.city_top_agents enable row level security;
revoke all on table private.city_top_agents from public, anon, authenticated, service_role;
comment on table private.city_top_agents is 'The first 25 ranked agents of each city page (5 or more sales across its ZIPs, by summed sides then volume; all agents tied at 25th place kept): a printed figure of one of them moving gives the city page a new version. Kept by private.touch_zip_pages_now().';

/**
 * Recomputes private.city_top_agents for the city pages at `paths` from their ZIPs' per-agent rows. No effect for
 * null or empty input.
 */
create function private.rank_city_pages(paths text[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if paths is null or cardinality(paths) = 0 then
    return;
  end if;
  paths := array(select distinct p from unnest(paths) as u (p) where p is not null order by 1);
  delete from private.city_top_agents t where t.city_page_path = any (paths);
  insert into private.city_top_agents (city_page_path, agent_id)
  select r.city_page_path, r.agent_id
    from (
      select z.city_page_path, s.agent_id,
             rank() over (
               partition by z.city_page_path collate "C"
               order by sum(s.sides) desc, sum(s.volume) desc
             ) as place
        from public.zip_page_versions z
        join public.agent_zip_sales s on s.zip_code = z.zip_code
       where z.city_page_path = any (paths) and s.total_sales > 0
       group by z.city_page_path, s.agent_id
      having sum(s.total_sales) >= 5
    ) r
   where r.place <= 25
  -- two transactions recomputing one city write the same rows from the same data
  on conflict do nothing;
end;
$$;

revoke all on function private.rank_city_pages(text[]) from public, anon, authenticated, service_role;
comment on function private.rank_city_pages(text[]) is 'Recomputes the first 25 ranked agents (private.city_top_agents) of the city pages at paths.';

CREATE OR REPLACE FUNCTION private.touch_zip_pages_now(zips text[])
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  previous_top uuid[];
  previous_paths text[];
  current_top uuid[];
begin
  if zips is null or cardinality(zips) = 0 then
    return;
  end if;
  zips := array(select distinct z from unnest(zips) as u (z) where z is not null order by 1);

  -- the city pages these ZIPs belong to now: a ZIP that changes place leaves one
  select coalesce(array_agg(v.city_page_path) filter (where v.city_page_path is not null), '{}') into previous_paths
    from public.zip_page_versions v where v.zip_code = any (zips);

  select coalesce(array_agg(t.agent_id), '{}') into previous_top
    from private.zip_top_agents t where t.zip_code = any (zips);
  delete from private.zip_top_agents t where t.zip_code = any (zips);

  -- the ZIP page's order: agents with 5 or more sales there first, then sides, volume, name. The name is read only
  -- for the rows that can be among the first 25 without it: rank() gives tied rows one place, so a row placed
  -- after 25 has 25 rows before it whatever the names
  insert into private.zip_top_agents (zip_code, agent_id)
  select r.zip_code, r.agent_id
    from (
      select c.zip_code, c.agent_id,
             row_number() over (
               partition by c.zip_code
               order by c.ranked desc, c.sides desc, c.volume desc, a.name, c.agent_id
             ) as position
        from (
          select s.zip_code, s.agent_id, s.total_sales >= 5 as ranked, s.sides, s.volume,
                 rank() over (
                   partition by s.zip_code collate "C"
                   order by (s.total_sales >= 5) desc, s.sides desc, s.volume desc
                 ) as place
            from public.agent_zip_sales s
           where s.zip_code = any (zips) and s.zip_code ~ '^[0-9]{5}$' and s.total_sales > 0
        ) c
        join public.agents a on a.id = c.agent_id
       where c.place <= 25
    ) r
   where r.position <= 25
  -- a second transaction recomputing the same ZIP (a benchmark edit beside a refresh) deleted only the rows it could
  -- see, and would fail on the first one's new rows once that commits; they are the same first 25 from the same data
  on conflict do nothing;

  select coalesce(array_agg(t.agent_id), '{}') into current_top
    from private.zip_top_agents t where t.zip_code = any (zips);

  -- the place: the benchmark's city and state, else the most common city of the agents listed there (read only for
  -- the ZIPs without a benchmark place)
  insert into public.zip_page_versions as v
    (zip_code, version, city, state, ranked_agents, changed_at, city_version, city_changed_at, city_page_path)
  with listed as (
    select s.zip_code, count(*)::integer as n
      from public.agent_zip_sales s
     where s.zip_code = any (zips) and s.total_sales > 0
     group by s.zip_code
  ),
  unplaced as (
    select z.zip_code
      from unnest(zips) as z (zip_code)
     where not exists (
       select 1 from public.zip_market_benchmarks b
        where b.zip_code = z.zip_code and b.city is not null and b.state is not null)
  ),
  common as (
    select distinct on (c.zip_code) c.zip_code, c.city, c.state
      from (
        select s.zip_code, a.city, a.state, count(*) as agents
          from public.agent_zip_sales s
          join public.agents a on a.id = s.agent_id
         where s.zip_code = any (array(select u.zip_code from unplaced u)) and s.total_sales > 0
           and a.city is not null and a.state is not null
         group by s.zip_code, a.city, a.state
      ) c
     order by c.zip_code, c.agents desc, c.state || '|' || c.city
  ),
  -- one new version per ZIP for both keys: whatever a ZIP page prints, its city page prints too
  placed as (
    select z.zip_code, nextval('private.page_version_seq') as version,
           case when b.city is not null and b.state is not null then b.city else common.city end as city,
           case when b.city is not null and b.state is not null then b.state else common.state end as state,
           coalesce(listed.n, 0) as ranked_agents
      from unnest(zips) as z (zip_code)
      left join public.zip_market_benchmarks b on b.zip_code = z.zip_code
      left join listed on listed.zip_code = z.zip_code
      left join common on common.zip_code = z.zip_code
  )
  select p.zip_code, p.version, p.city, p.state, p.ranked_agents, now(), p.version, now(),
         case when p.zip_code ~ '^[0-9]{5}$' then private.city_page_path(p.state, p.city) end
    from placed p
   order by p.zip_code
  on conflict (zip_code) do update
    set version = excluded.version, city = excluded.city, state = excluded.state,
        ranked_agents = excluded.ranked_agents, changed_at = excluded.changed_at,
        city_version = excluded.city_version, city_changed_at = excluded.city_changed_at,
        city_page_path = excluded.city_page_path;

  -- the first 25 of every city page these ZIPs were or are in, from the new rows
  perform private.rank_city_pages(
    previous_paths
      || array(select v.city_page_path from public.zip_page_versions v
                where v.zip_code = any (zips) and v.city_page_path is not null));

  perform private.refresh_prerendered_agents(previous_top || current_top);
end;
$function$;


/**
 * private.bump_area_pages without the deferral: for the ZIPs where the agents have a side, except `skip` (ZIP pages
 * just recomputed), in ZIP order, one new value as the version of the ZIPs whose page prints one of the agents
 * (private.zip_top_agents) and as the city_version of the ZIPs whose city page prints one of them
 * (private.city_top_agents); ZIPs neither prints are left alone.
 */
CREATE OR REPLACE FUNCTION private.bump_area_pages_now(agent_ids uuid[], skip text[])
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if agent_ids is null or cardinality(agent_ids) = 0 then
    return;
  end if;
  with printing as (
    select distinct t.zip_code from private.zip_top_agents t where t.agent_id = any (agent_ids)
  ),
  city_printing as (
    select distinct c.city_page_path from private.city_top_agents c where c.agent_id = any (agent_ids)
  ),
  zips as (
    select distinct s.zip_code
      from public.agent_zip_sales s
     where s.agent_id = any (agent_ids) and not (s.zip_code = any (coalesce(skip, '{}')))
  ),
  bumped as (
    select z.zip_code, nextval('private.page_version_seq') as version,
           exists (select 1 from printing p where p.zip_code = z.zip_code) as printed,
           exists (select 1 from city_printing c where c.city_page_path = v.city_page_path) as city_printed
      from (select zips.zip_code from zips order by 1) z
      join public.zip_page_versions v on v.zip_code = z.zip_code
     where exists (select 1 from printing p where p.zip_code = z.zip_code)
        or exists (select 1 from city_printing c where c.city_page_path = v.city_page_path)
  )
  update public.zip_page_versions v
     set version = case when b.printed then b.version else v.version end,
         changed_at = case when b.printed then now() else v.changed_at end,
         city_version = case when b.city_printed then b.version else v.city_version end,
         city_changed_at = case when b.city_printed then now() else v.city_changed_at end
    from bumped b
   where v.zip_code = b.zip_code;
end;
$function$;

comment on function private.bump_area_pages(uuid[]) is 'An agent''s printed figures changed: a new version for the ZIPs whose page prints the agent, a new city_version for the ZIPs where the agent has a side in a city whose page prints the agent; deferred to the end of a metrics refresh.';

-- every city page's first 25 from the data as it stands
select private.rank_city_pages(array(
  select distinct v.city_page_path from public.zip_page_versions v where v.city_page_path is not null));
