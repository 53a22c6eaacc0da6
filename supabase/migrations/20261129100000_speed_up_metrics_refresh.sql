-- The daily metrics refresh at national size (1M agents, 12M sales): the same figures, in minutes.
--
-- Measured at 200,000 agents / 2,000,000 sales (npm run bench:search -- --agents 200000 --sales 2000000 --keep, then
-- EXPLAIN ANALYZE with auto_explain on the refresh's statements and the triggers they fire):
--   * private.touch_zip_pages, which the inserts and updates of agent_zip_sales, agent_figures and zip_sales_coverage
--     call with every ZIP whose ranking moved (on a first refresh: every ZIP, three times), counted each ZIP's listed
--     agents and found its most common agent city in two lookups per ZIP: 366 ZIPs x 2 x ~5,500 random heap rows =
--     12 million buffer reads, 100 s of the refresh; at 24,500 ZIPs it was the part that did not finish. It now
--     counts every ZIP of the call in one pass over agent_zip_sales joined to agents (one scan, two aggregates), so
--     a call costs the rows of its ZIPs once, read in index order for a few ZIPs or in one sequential scan for all.
--   * Every sort and hash of the refresh (credited sides, the per-agent figures, the ZIP rankings) spilled to disk at
--     the default work_mem of 4 MB (2.9 GB of temporary files at 2M sales); the refresh runs with 64 MB per sort or
--     hash (one session once a day; hosted instances have at least 1 GB).
-- Results are unchanged: the same rows, versions (one per ZIP, given in ZIP order) and tie-breaks as before.

/*
 * Gives the ZIP pages of zips a new version and recomputes their place, listed agents (agent_zip_sales rows with a
 * counted sale there, either side), first 25 agents (5 or more sales there first, then sides, volume, name, id) and
 * those agents' prerender flags. The place is the benchmark's city and state, else the city and state most of the
 * listed agents have (ties: state|city in text order). Set-based: one pass over the ZIPs' agent_zip_sales rows for
 * any number of ZIPs.
 */
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
  with listed_rows as materialized (
    select s.zip_code, a.city, a.state
      from public.agent_zip_sales s
      join public.agents a on a.id = s.agent_id
     where s.zip_code = any (zips) and s.total_sales > 0
  ),
  listed as (
    select l.zip_code, count(*)::integer as n
      from listed_rows l
     group by l.zip_code
  ),
  common as (
    select distinct on (c.zip_code) c.zip_code, c.city, c.state
      from (
        select l.zip_code, l.city, l.state, count(*) as agents
          from listed_rows l
         where l.city is not null and l.state is not null
         group by l.zip_code, l.city, l.state
      ) c
     order by c.zip_code, c.agents desc, c.state || '|' || c.city
  )
  select z.zip_code, nextval('private.page_version_seq'),
         case when b.city is not null and b.state is not null then b.city else common.city end,
         case when b.city is not null and b.state is not null then b.state else common.state end,
         coalesce(listed.n, 0), now()
    from unnest(zips) as z (zip_code)
    left join public.zip_market_benchmarks b on b.zip_code = z.zip_code
    left join listed on listed.zip_code = z.zip_code
    left join common on common.zip_code = z.zip_code
   order by z.zip_code
  on conflict (zip_code) do update
    set version = excluded.version, city = excluded.city, state = excluded.state,
        ranked_agents = excluded.ranked_agents, changed_at = excluded.changed_at;

  perform private.refresh_prerendered_agents(previous_top || current_top);
end;
$$;

revoke all on function private.touch_zip_pages(text[]) from anon, authenticated, public, service_role;

-- one refresh a day in one session: sorts and hashes in memory up to 64 MB each instead of spilling at 4 MB
alter function public.refresh_agent_metrics(integer, date) set work_mem = '64MB';
