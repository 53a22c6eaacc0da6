-- A ZIP page's first 25 are found reading the agents' names only where a name can decide them, and an agent's new
-- figures give ZIP pages a new version only when a figure those pages print moved.
--
-- Why: a daily refresh at national size (1,000,000 agents / 12,000,000 sales, a new sale for 1 % of the agents)
-- gave every one of the 24,547 ZIP pages a new version, and with them every city page, to be rendered again:
--   * an agent's figures bumped every ZIP page where the agent has a side (private.zips_ranking_agents) when any
--     figure moved, but a ZIP page (and the city page made of its ZIPs) prints one figure per agent, the
--     sale-to-list mean with its n (src/components/RankedAgentList.astro); the rank and share in the primary ZIP,
--     which a day's sales move for tens of thousands of agents, are printed on the agent's own page only;
--   * private.touch_zip_pages_now sorted every (ZIP, agent) row of the ZIPs it recomputes with the agent's name, a
--     join to agents for every row, to keep 25 per ZIP.
--
-- What:
--   * private.track_figure_pages: the agent pages of every changed figures row, as before; the ZIP pages only of the
--     agents whose sale_to_list_mean or sale_to_list_n changed, or whose figures row came or went.
--   * private.touch_zip_pages_now: rank() by (5 or more sales there, sides, volume) first; only rows placed 25th or
--     better can be among the first 25 (tied rows share a place, so a row placed after 25 has 25 rows before it
--     whatever the names), and only those are joined to agents for the name tie-break. The ZIP's place is the
--     benchmark's city and state; the most common city of its listed agents is read only for ZIPs without one.
--   Two transactions recomputing the same ZIP page no longer fail on zip_top_agents' key (the second skips the rows
--   the first wrote; seen in a test run where a benchmark edit met another refresh).
--   Same versions, first 25, places and prerender flags otherwise (tests/integration/page-versions.test.ts).

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
  insert into public.zip_page_versions as v (zip_code, version, city, state, ranked_agents, changed_at)
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
$function$;

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
    perform private.bump_zip_pages(private.zips_ranking_agents(printed));
  end if;
  return null;
end;
$function$;
