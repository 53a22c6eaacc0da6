-- A ZIP page gets a new version only when an agent it prints changes; the city pages follow every agent of their ZIPs
-- through a second version per ZIP.
--
-- Why: a daily refresh at national size (1,000,000 agents / 12,000,000 sales, a new sale for 1 % of the agents) gave
-- 24,324 of the 24,547 ZIP pages a new version, to be rendered again, because the agents whose sale-to-list figure
-- moved have sides in nearly every ZIP; they are among the first 25 of only about 8,240 of them. A ZIP page prints its
-- first 25 agents, but its version was also the city pages' key (a city page ranks its agents across its ZIPs and can
-- print an agent that no ZIP page of it prints: third in the city, 26th in each of its three ZIPs), so it had to
-- follow every agent of the ZIP.
--
-- What:
--   * public.zip_page_versions.city_version (and city_changed_at): the version of everything the ZIP gives its city
--     page. A recomputed ZIP page (its ranking, place, benchmark or a printed agent column changed) takes one new
--     value for both; an agent's printed figure that moved gives every ZIP where the agent has a side a new
--     city_version, and a new version only to the ZIPs that print the agent (private.zip_top_agents).
--     city_version >= version always. The city pages' build-cache key and the sitemap's city lastmod read city_version
--     and city_changed_at; the local builder's patch renders the ZIP pages whose version and the city pages whose ZIPs'
--     city_version is newer than what is served.
--   * private.bump_zip_pages(text[]) is replaced by private.bump_area_pages(uuid[]) (by agent, deferred to the end of
--     a metrics refresh as before: ZIPs recomputed by the refresh are not bumped again).

alter table public.zip_page_versions add column city_version bigint, add column city_changed_at timestamp with time zone;
update public.zip_page_versions set city_version = version, city_changed_at = changed_at;
alter table public.zip_page_versions
  alter column city_version set not null,
  alter column city_changed_at set not null,
  alter column city_changed_at set default now();
create index zip_page_versions_city_version_idx on public.zip_page_versions (city_version);

comment on column public.zip_page_versions.version is 'The ZIP page''s own version (its build-cache key): new when its ranking, place, benchmark, ranked_agents or an agent it prints (private.zip_top_agents) changes.';
comment on column public.zip_page_versions.changed_at is 'When version last changed: the ZIP page''s sitemap lastmod.';
comment on column public.zip_page_versions.city_version is 'The version of what this ZIP gives its city page: new with version, and when any agent with a side in the ZIP changes a figure the city pages print (a city page ranks across its ZIPs, so it can print an agent its ZIP pages do not). Always >= version; the city page''s build-cache key is made of its ZIPs'' city_version.';
comment on column public.zip_page_versions.city_changed_at is 'When city_version last changed: a city page''s sitemap lastmod is the newest of its ZIPs''.';

CREATE OR REPLACE FUNCTION private.touch_zip_pages_now(zips text[])
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  previous_top uuid[];
  current_top uuid[];
begin
  if zips is null or cardinality(zips) = 0 then
    return;
  end if;
  zips := array(select distinct z from unnest(zips) as u (z) where z is not null order by 1);

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
    (zip_code, version, city, state, ranked_agents, changed_at, city_version, city_changed_at)
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
  select p.zip_code, p.version, p.city, p.state, p.ranked_agents, now(), p.version, now()
    from placed p
   order by p.zip_code
  on conflict (zip_code) do update
    set version = excluded.version, city = excluded.city, state = excluded.state,
        ranked_agents = excluded.ranked_agents, changed_at = excluded.changed_at,
        city_version = excluded.city_version, city_changed_at = excluded.city_changed_at;

  perform private.refresh_prerendered_agents(previous_top || current_top);
end;
$function$;


/**
 * An agent's figures that the ZIP and city pages print (sale-to-list mean and n) changed, or the agent's figures row
 * came or went: every ZIP where the agent has a side gets a new city_version, and the ZIPs whose first 25 include the
 * agent (private.zip_top_agents) a new version too (one new value for both). During a metrics refresh
 * (private.defer_zip_pages on) the agents are kept in pg_temp.deferred_figure_agents and bumped at its end, after the
 * ZIP pages it recomputed, which are skipped. No effect for null or empty input.
 */
create function private.bump_area_pages(agent_ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if agent_ids is null or cardinality(agent_ids) = 0 then
    return;
  end if;
  if coalesce(current_setting('private.defer_zip_pages', true), '') = 'on' then
    insert into pg_temp.deferred_figure_agents (agent_id)
    select distinct u.a from unnest(agent_ids) as u (a) where u.a is not null
    on conflict do nothing;
    return;
  end if;
  perform private.bump_area_pages_now(agent_ids, '{}');
end;
$$;

/**
 * private.bump_area_pages without the deferral: the ZIPs where the agents have a side, except `skip` (ZIP pages just
 * recomputed), in ZIP order; version only where an agent is among the first 25.
 */
create function private.bump_area_pages_now(agent_ids uuid[], skip text[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if agent_ids is null or cardinality(agent_ids) = 0 then
    return;
  end if;
  with zips as (
    select distinct s.zip_code
      from public.agent_zip_sales s
     where s.agent_id = any (agent_ids) and not (s.zip_code = any (coalesce(skip, '{}')))
  ),
  printing as (
    select distinct t.zip_code from private.zip_top_agents t where t.agent_id = any (agent_ids)
  ),
  bumped as (
    select z.zip_code, nextval('private.page_version_seq') as version,
           exists (select 1 from printing p where p.zip_code = z.zip_code) as printed
      from (select zips.zip_code from zips order by 1) z
  )
  update public.zip_page_versions v
     set city_version = b.version, city_changed_at = now(),
         version = case when b.printed then b.version else v.version end,
         changed_at = case when b.printed then now() else v.changed_at end
    from bumped b
   where v.zip_code = b.zip_code;
end;
$$;

revoke all on function private.bump_area_pages(uuid[]), private.bump_area_pages_now(uuid[], text[])
  from public, anon, authenticated, service_role;

comment on function private.bump_area_pages(uuid[]) is 'An agent''s printed figures changed: a new city_version for every ZIP where the agent has a side, a new version for the ZIPs that print the agent; deferred to the end of a metrics refresh.';
comment on function private.bump_area_pages_now(uuid[], text[]) is 'private.bump_area_pages at once, skipping the ZIPs in skip.';

CREATE OR REPLACE FUNCTION private.track_figure_pages()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_nestloop text := current_setting('enable_nestloop');
  changed uuid[];
  printed uuid[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(n.agent_id), '{}') into changed from new_rows n;
    printed := changed;
  elsif tg_op = 'UPDATE' then
    -- hashed: a plan cached for a few rows must not nest-loop two large transition tables
    perform set_config('enable_nestloop', 'off', true);
    select coalesce(array_agg(n.agent_id), '{}'),
           coalesce(array_agg(n.agent_id) filter (
             where (n.sale_to_list_mean, n.sale_to_list_n) is distinct from (o.sale_to_list_mean, o.sale_to_list_n)), '{}')
      into changed, printed
      from new_rows n
      join old_rows o on o.agent_id = n.agent_id
     where (to_jsonb(n) - 'updated_at') is distinct from (to_jsonb(o) - 'updated_at');
    perform set_config('enable_nestloop', v_nestloop, true);
  else
    select coalesce(array_agg(o.agent_id), '{}') into changed from old_rows o;
    printed := changed;
  end if;
  if cardinality(changed) = 0 then
    return null;
  end if;
  perform private.bump_agent_pages(changed);
  if cardinality(printed) > 0 then
    perform private.bump_area_pages(printed);
  end if;
  return null;
end;
$function$;

comment on function private.track_figure_pages() is 'agent_figures: a new version for the page of each agent whose printed figures changed (not the ZIP''s closed-sales count alone); when the sale-to-list mean or its n moved (or the row came or went), a new city_version for the ZIPs where the agent has a side and a new version for those that print the agent (private.bump_area_pages).';

CREATE OR REPLACE FUNCTION public.refresh_agent_metrics(window_months integer DEFAULT 24, window_end date DEFAULT NULL::date, full_refresh boolean DEFAULT false)
 RETURNS TABLE(metrics_window_start date, metrics_window_end date, agents_updated integer, refresh_kind text, agents_recomputed integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
 SET work_mem TO '64MB'
AS $function$
declare
  v_touch text[];
  v_agents uuid[];
begin
  create temp table if not exists deferred_zip_pages (zip_code text primary key) on commit drop;
  create temp table if not exists deferred_figure_agents (agent_id uuid primary key) on commit drop;
  truncate pg_temp.deferred_zip_pages, pg_temp.deferred_figure_agents;
  perform set_config('private.defer_zip_pages', 'on', true);
  return query
  select w.metrics_window_start, w.metrics_window_end, w.agents_updated, w.refresh_kind, w.agents_recomputed
  from private.refresh_agent_metrics_work(window_months, window_end, full_refresh) w;
  perform set_config('private.defer_zip_pages', '', true);
  v_touch := array(select d.zip_code from pg_temp.deferred_zip_pages d order by 1);
  v_agents := array(select d.agent_id from pg_temp.deferred_figure_agents d);
  truncate pg_temp.deferred_zip_pages, pg_temp.deferred_figure_agents;
  -- the ZIP pages whose ranking inputs changed, recomputed once with the refresh's final data; then the other ZIPs
  -- of the agents whose printed figures moved
  perform private.touch_zip_pages_now(v_touch);
  perform private.bump_area_pages_now(v_agents, v_touch);
end;
$function$;

drop function private.bump_zip_pages(text[]);

comment on table public.zip_page_versions is 'The versions of each ZIP page (/agents/<zip>) and of what it gives its city page, written by triggers on agent_zip_sales, zip_market_benchmarks, agents and agent_figures: version when the ZIP page''s ranking, benchmark or an agent it prints changes, city_version also when any agent with a side there changes a printed figure. A five-digit ZIP with ranked_agents > 0 has a page; city and state (from the Redfin benchmark, else the ranked agents'' most common city) group ZIP pages into city pages. Anyone reads; nobody writes but the triggers.';
