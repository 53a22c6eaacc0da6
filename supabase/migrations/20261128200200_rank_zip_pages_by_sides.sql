-- The ZIP and city pages rank agents by their sides in the area (listing and buyer, a side shared with a co-agent
-- half), ties by volume, as the ZIP search does; agents with fewer than 5 sales there are listed after the ranked ones,
-- without a rank. The page versions followed the listing side only: a ZIP page existed only where someone had a
-- listing side, its first 25 (the prerendered agents) were the first 25 by listing sales, and an agent who mostly
-- represents buyers was never prerendered. The agent page compares an agent with the ZIP holding most of their sides
-- (agent_figures.primary_zip_code), which agent_page_benchmarks did not answer for.
--
-- Decisions:
--   * private.touch_zip_pages: a ZIP page lists every agent with a counted sale there, either side
--     (agent_zip_sales.total_sales > 0); its order is the page's: 5 or more sales there first, then sides, volume,
--     name (src/lib/agent-pages.ts rankArea). ranked_agents counts the agents the page lists; the place falls back to
--     the most common city among them.
--   * private.refresh_prerendered_agents: an agent's page is prerendered when they have figures with a counted sale
--     (agent_figures.total_sales > 0) and are among the first 25 of a ZIP page.
--   * agent_page_benchmarks answers the benchmarks of both ZIPs of each agent (the listing-side primary ZIP and the
--     figures' one), and a benchmark change gives a new version to the pages of agents whose figures compare with it.
--   * Every existing ZIP page is touched once, so the listing, the first 25 and the prerender flags follow the new
--     order (one new version per ZIP page; the template changed with it).
--   * The version bumps themselves need no change: the trigger on agent_zip_sales touches a ZIP page on any change of
--     its rows, buyer sides included (tests/integration/page-versions.test.ts).

create or replace function private.refresh_prerendered_agents(agent_ids uuid[])
returns void
language sql
security definer
set search_path = ''
as $$
  update public.agent_page_versions v
     set prerender = coalesce(s.prerender, false)
    from (select distinct x.agent_id from unnest(agent_ids) as x (agent_id)) u
    left join lateral (
      select f.total_sales > 0 and exists (select 1 from private.zip_top_agents t where t.agent_id = f.agent_id)
             as prerender
        from public.agent_figures f
       where f.agent_id = u.agent_id
    ) s on true
   where v.agent_id = u.agent_id
     and v.prerender is distinct from coalesce(s.prerender, false);
$$;

comment on function private.refresh_prerendered_agents(uuid[]) is 'Recomputes which of agent_ids have prerendered pages (a counted sale, either side, in the window and among the first 25 of a ZIP page).';

create or replace function private.touch_zip_pages(zips text[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
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

  -- the ZIP page's order: agents with 5 or more sales there first, then sides, volume, name
  insert into private.zip_top_agents (zip_code, agent_id)
  select r.zip_code, r.agent_id
    from (
      select s.zip_code, s.agent_id,
             row_number() over (
               partition by s.zip_code
               order by (s.total_sales >= 5) desc, s.sides desc, s.volume desc, a.name, s.agent_id
             ) as position
        from public.agent_zip_sales s
        join public.agents a on a.id = s.agent_id
       where s.zip_code = any (zips) and s.zip_code ~ '^[0-9]{5}$' and s.total_sales > 0
    ) r
   where r.position <= 25;

  select coalesce(array_agg(t.agent_id), '{}') into current_top
    from private.zip_top_agents t where t.zip_code = any (zips);

  insert into public.zip_page_versions as v (zip_code, version, city, state, ranked_agents, changed_at)
  select z.zip_code, nextval('private.page_version_seq'),
         case when b.city is not null and b.state is not null then b.city else common.city end,
         case when b.city is not null and b.state is not null then b.state else common.state end,
         coalesce(listed.n, 0), now()
    from unnest(zips) as z (zip_code)
    left join public.zip_market_benchmarks b on b.zip_code = z.zip_code
    left join lateral (
      select count(*)::integer as n
        from public.agent_zip_sales s
        join public.agents a on a.id = s.agent_id
       where s.zip_code = z.zip_code and s.total_sales > 0
    ) listed on true
    left join lateral (
      select a.city, a.state
        from public.agent_zip_sales s
        join public.agents a on a.id = s.agent_id
       where s.zip_code = z.zip_code and s.total_sales > 0 and a.city is not null and a.state is not null
       group by a.city, a.state
       order by count(*) desc, a.state || '|' || a.city
       limit 1
    ) common on true
   order by z.zip_code
  on conflict (zip_code) do update
    set version = excluded.version, city = excluded.city, state = excluded.state,
        ranked_agents = excluded.ranked_agents, changed_at = excluded.changed_at;

  perform private.refresh_prerendered_agents(previous_top || current_top);
end;
$$;

comment on function private.touch_zip_pages(text[]) is 'Gives the ZIP pages of zips a new version and recomputes their place, listed agents (a counted sale there, either side), first 25 agents (5 or more sales first, then sides, volume, name) and those agents'' prerender flags.';

comment on column public.zip_page_versions.ranked_agents is 'Agents with a counted sale in this ZIP in the metrics window, either side: the ZIP page lists them (those with 5 or more sales there ranked by sides, the others after them without a rank).';

comment on table private.zip_top_agents is 'The first 25 agents of each five-digit ZIP page (5 or more sales there first, then sides, volume, name): an agent listed here with a counted sale in the window has a prerendered page. Kept by private.touch_zip_pages().';

-- zip_market_benchmarks: printed on the ZIP page and on the page of each agent who compares with it (the listing-side
-- primary ZIP or the figures' one)
create or replace function private.track_benchmark_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  zips text[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(n.zip_code), '{}') into zips from new_rows n;
  elsif tg_op = 'UPDATE' then
    select coalesce(array_agg(distinct x.zip_code), '{}') into zips
      from new_rows n
      join old_rows o on o.zip_code = n.zip_code
     cross join lateral (values (o.zip_code), (n.zip_code)) as x (zip_code)
     where (to_jsonb(n) - '{created_at,updated_at}'::text[]) is distinct from (to_jsonb(o) - '{created_at,updated_at}'::text[]);
    -- a changed zip_code (the key) is a delete and an insert for the pages
    select zips || coalesce(array_agg(n.zip_code), '{}') into zips
      from new_rows n where not exists (select 1 from old_rows o where o.zip_code = n.zip_code);
    select zips || coalesce(array_agg(o.zip_code), '{}') into zips
      from old_rows o where not exists (select 1 from new_rows n where n.zip_code = o.zip_code);
  else
    select coalesce(array_agg(o.zip_code), '{}') into zips from old_rows o;
  end if;
  if cardinality(zips) = 0 then
    return null;
  end if;
  perform private.touch_zip_pages(zips);
  perform private.bump_agent_pages(array(
    select a.id from public.agents a where a.primary_zip_code = any (zips)
    union
    select f.agent_id from public.agent_figures f where f.primary_zip_code = any (zips)
  ));
  return null;
end;
$$;

/*
 * The Redfin benchmarks of the ZIPs the pages of the agents in agent_ids compare with: each agent's listing-side
 * primary ZIP (agents.primary_zip_code) and the ZIP with most of their sides (agent_figures.primary_zip_code), each
 * ZIP once; ZIPs without a benchmark add nothing. 22023 for more than 100 agents.
 */
create or replace function public.agent_page_benchmarks(agent_ids uuid[])
returns setof public.zip_market_benchmarks
language plpgsql
stable
set search_path = ''
as $$
begin
  if agent_ids is null or cardinality(agent_ids) > 100 then
    raise exception 'agent_ids must name at most 100 agents' using errcode = '22023';
  end if;
  return query
    select b.*
      from public.zip_market_benchmarks b
     where b.zip_code in (
       select a.primary_zip_code from public.agents a where a.id = any (agent_ids)
       union
       select f.primary_zip_code from public.agent_figures f where f.agent_id = any (agent_ids)
     );
end;
$$;

comment on function public.agent_page_benchmarks(uuid[]) is
  'The ZIP benchmarks of the ZIPs up to 100 agents'' pages compare with (listing-side primary ZIP and the figures'' primary ZIP). Anyone may call it; it reads only what anyone may read.';

-- the ZIP pages that exist now, in the new order
select private.touch_zip_pages(array(
  select s.zip_code from public.agent_zip_sales s
  union select v.zip_code from public.zip_page_versions v
));
