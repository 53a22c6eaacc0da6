-- A city page's first 25 is recomputed after the site is live, not inside the refresh that changed its ZIPs.
--
-- Why: private.touch_zip_pages_now ranked every city of the ZIPs it recomputed (private.rank_city_pages), inside the
-- metrics refresh. At national size (1,000,000 agents / 12,000,000 sales, a new sale for 1 % of the agents) that is
-- 5,823 cities and 6.8 million (ZIP, agent) rows summed into (city, agent) sums: about 33 s of a refresh of 180-240 s,
-- on the path from an import to the live site. Those cities' pages are rendered again anyway (their recomputed ZIPs
-- have a new city_version), so their new first 25 is needed only by the next change that asks "does this city page
-- print this agent?".
--
-- What:
--   * private.city_pages_stale: the city pages whose first 25 (private.city_top_agents) may be out of date, one row
--     per mark (inserted only: marking a city never waits on another transaction marking it).
--   * private.touch_zip_pages_now marks the cities of the ZIPs it recomputes (the cities they left as well as the ones
--     they are in) stale instead of ranking them.
--   * private.bump_area_pages_now treats a stale city page as printing every agent with a side in it: an agent whose
--     printed figure moved gives a new city_version to their ZIPs in a stale city, so no change a city page prints is
--     missed while its first 25 waits.
--   * private.rank_stale_city_pages() ranks the stale cities and deletes the marks it read (a mark set while it ran
--     stays). pg_cron runs it every minute (job 'rank-stale-city-pages'); it skips its turn while a site build is
--     running (started within the last hour), so the ranking does not slow the build that makes the refresh live.

create table private.city_pages_stale (
  id bigint generated always as identity primary key,
  city_page_path text not null,
  marked_at timestamptz not null default now()
);
create index city_pages_stale_city_page_path_idx on private.city_pages_stale (city_page_path);
alter table private.city_pages_stale enable row level security;
revoke all on table private.city_pages_stale from public, anon, authenticated, service_role;
comment on table private.city_pages_stale is 'City pages whose first 25 (private.city_top_agents) may be out of date since their ZIPs were recomputed, one row per mark (inserted only, so marking never waits on another transaction); private.bump_area_pages_now treats them as printing every agent with a side there until private.rank_stale_city_pages() ranks them and deletes the rows it read.';

comment on table private.city_top_agents is 'The first 25 ranked agents of each city page (5 or more sales across its ZIPs, by summed sides then volume; all agents tied at 25th place kept): a printed figure of one of them moving gives the city page a new version. Ranked by private.rank_stale_city_pages() for the cities private.touch_zip_pages_now() marks stale (private.city_pages_stale).';

/**
 * Marks the city pages at `paths` stale (private.city_pages_stale): one new row each, so a ranking in flight, which
 * deletes only the rows it read, leaves the mark in place. Inserts only: two transactions marking one city never wait
 * on each other. No effect for null or empty input; null paths are skipped.
 */
create function private.mark_city_pages_stale(paths text[])
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.city_pages_stale (city_page_path)
  select distinct p from unnest(paths) as u (p) where p is not null order by 1;
$$;

revoke all on function private.mark_city_pages_stale(text[]) from public, anon, authenticated, service_role;
comment on function private.mark_city_pages_stale(text[]) is 'Marks the city pages at paths stale (their first 25 to be ranked again by private.rank_stale_city_pages()).';

/**
 * Ranks the stale city pages (private.city_pages_stale) with private.rank_city_pages and deletes the marks it read;
 * a city marked meanwhile (a row committed after the read, or not committed yet) stays stale. Answers the number of
 * city pages ranked: 0 when none is stale, when another ranking holds the lock (unless `wait`, which waits for it),
 * or when a site build is running (status 'building', started within the last hour; unless `wait`). Run by pg_cron
 * every minute; tests and benchmarks call it with `wait => true` to rank at once.
 */
create function private.rank_stale_city_pages(wait boolean default false)
returns integer
language plpgsql
security definer
set search_path = ''
set work_mem = '64MB'
as $$
declare
  v_paths text[];
  v_ids bigint[];
begin
  if wait then
    perform pg_advisory_xact_lock(hashtext('private.rank_stale_city_pages'));
  elsif not pg_try_advisory_xact_lock(hashtext('private.rank_stale_city_pages')) then
    return 0;
  elsif exists (
    select 1 from public.site_builds b
     where b.status = 'building' and b.started_at > now() - interval '1 hour'
  ) then
    return 0;
  end if;
  select coalesce(array_agg(s.id), '{}'),
         coalesce(array(select distinct u.p from unnest(array_agg(s.city_page_path)) as u (p) order by 1), '{}')
    into v_ids, v_paths
    from private.city_pages_stale s;
  if cardinality(v_paths) = 0 then
    return 0;
  end if;
  perform private.rank_city_pages(v_paths);
  -- only the marks read above: one committed since, or still in flight, stays (no row of another transaction is
  -- touched, so this never waits on a refresh)
  delete from private.city_pages_stale s where s.id = any (v_ids);
  return cardinality(v_paths);
end;
$$;

revoke all on function private.rank_stale_city_pages(boolean) from public, anon, authenticated, service_role;
comment on function private.rank_stale_city_pages(boolean) is 'Ranks the stale city pages (private.city_pages_stale) and deletes the marks it read; answers how many. pg_cron job rank-stale-city-pages, every minute; skipped while a site build runs unless wait.';

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

  -- every city page these ZIPs were or are in is rendered again (their city versions moved); its first 25 is ranked
  -- after the site is live (private.rank_stale_city_pages), and until then it counts as printing every agent there
  perform private.mark_city_pages_stale(
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
 * (private.city_top_agents) or is stale (private.city_pages_stale: its first 25 not ranked yet, so taken to print
 * every agent with a side there); ZIPs neither prints are left alone.
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
    select c.city_page_path from private.city_top_agents c where c.agent_id = any (agent_ids)
    union
    select s.city_page_path from private.city_pages_stale s
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

comment on function private.bump_area_pages(uuid[]) is 'An agent''s printed figures changed: a new version for the ZIPs whose page prints the agent, a new city_version for the ZIPs where the agent has a side in a city whose page prints the agent or whose first 25 is not ranked yet (private.city_pages_stale); deferred to the end of a metrics refresh.';

comment on column public.zip_page_versions.city_version is 'The version of what this ZIP gives its city page: new when the ZIP is recomputed (its ranking, place, coverage or benchmark), and when an agent with a side in the ZIP who is among the first 25 of its city page (private.city_top_agents, or anyone while the city is in private.city_pages_stale) changes a printed figure. A city page''s build-cache key is made of its ZIPs'' city_version.';

/*
 * Schedules private.rank_stale_city_pages() every minute with pg_cron (job 'rank-stale-city-pages'; cron.schedule
 * replaces a job of the same name) and returns its job id. Raises 55000 with what to do when pg_cron is not enabled.
 */
create function private.schedule_city_page_ranking()
returns bigint
language plpgsql
set search_path = ''
as $$
begin
  if to_regnamespace('cron') is null then
    raise exception 'pg_cron is not enabled: enable it under Database → Extensions (pg_cron), then run this again'
      using errcode = '55000';
  end if;
  return (select cron.schedule('rank-stale-city-pages', '* * * * *', 'select private.rank_stale_city_pages()'));
end;
$$;

comment on function private.schedule_city_page_ranking() is
  'Schedules the rank-stale-city-pages job (every minute) with pg_cron; 55000 when pg_cron is not enabled.';

revoke execute on function private.schedule_city_page_ranking() from public, anon, authenticated, service_role;

do $$
begin
  if to_regnamespace('cron') is not null then
    perform private.schedule_city_page_ranking();
  end if;
end
$$;
