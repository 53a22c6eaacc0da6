-- An agent's page gets a new version only when an agents column it can print changed: local_ranking, market_share and
-- total_agents_in_area no longer count.
--
-- Why: those three are the listing-side ranking kept on the agents row for search and the API (rank by listing sales
-- in the primary ZIP, listing sales / the ZIP's closed sales x 100, the agents ranked there). No prerendered page
-- prints them: the agent page's rank, share and "of N" come from agent_figures (sides, both roles), whose own trigger
-- versions the page when they move. A metrics refresh rewrites the three for every agent of a ZIP with a new sale, so
-- they alone gave pages new versions whose bytes did not change: on a national day (1,000,000 agents, a new sale for
-- 1 % of them) 19,389 of the 67,536 prerendered agent pages with a new version had no other change, rendered again for
-- nothing.
--
-- What: private.track_agent_pages() compares the rows without created_at, updated_at, metrics_refreshed_at and those
-- three; everything else it did is unchanged. A page that starts printing one of them must take it out of this list
-- (src/lib/agent-page-columns.test.ts checks the page templates read none of them).

create or replace function private.track_agent_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_nestloop text := current_setting('enable_nestloop');
  changed uuid[];
  zip_changed uuid[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(n.id), '{}') into changed from new_rows n;
    perform private.bump_agent_pages(changed);
  elsif tg_op = 'UPDATE' then
    -- hashed: a plan cached for a few rows must not nest-loop two large transition tables
    perform set_config('enable_nestloop', 'off', true);
    select coalesce(array_agg(n.id), '{}'),
           coalesce(array_agg(n.id) filter (
             where (n.name, n.brokerage, n.city, n.state) is distinct from (o.name, o.brokerage, o.city, o.state)), '{}')
      into changed, zip_changed
      from new_rows n
      join old_rows o on o.id = n.id
     -- bookkeeping, and the listing-side ranking no prerendered page prints
     where (to_jsonb(n) - '{created_at,updated_at,metrics_refreshed_at,local_ranking,market_share,total_agents_in_area}'::text[])
           is distinct from
           (to_jsonb(o) - '{created_at,updated_at,metrics_refreshed_at,local_ranking,market_share,total_agents_in_area}'::text[]);
    perform set_config('enable_nestloop', v_nestloop, true);
    if cardinality(changed) = 0 then
      return null;
    end if;
    perform private.bump_agent_pages(changed);
    if cardinality(zip_changed) > 0 then
      perform private.touch_zip_pages(private.zips_ranking_agents(zip_changed));
    end if;
    perform private.refresh_prerendered_agents(changed);
  else
    -- the ZIP pages lose the agent through the cascade on agent_zip_sales
    select coalesce(array_agg(o.id), '{}') into changed from old_rows o;
    perform private.bump_agent_pages(changed);
    update public.agent_page_versions v set prerender = false where v.agent_id = any (changed) and v.prerender;
  end if;
  return null;
end;
$$;

comment on function private.track_agent_pages() is
  'agents: a new version for the page of each agent inserted, deleted or updated in a column its pages can print (any but created_at, updated_at, metrics_refreshed_at and the listing-side local_ranking, market_share and total_agents_in_area, which no prerendered page prints); a changed name, brokerage, city or state recomputes the ZIP pages ranking the agent; the prerender flag of updated agents is recomputed.';
