-- An edit of an agent's own words (bio, specialties, languages, photo) or contact preferences gave every ZIP page that
-- ranks the agent a new version, and so a rebuild, though a ZIP page prints none of them: the agents trigger counted
-- any column.
--
-- Decisions:
--   * The agent's page still gets a new version on a change of any column but the bookkeeping stamps (it prints
--     nearly all of them).
--   * The ZIP pages that rank the agent get one only when a column they use changes: name (printed, and the ranking's
--     last tie-break), brokerage (printed), city and state (the page's place when its benchmark has none). Everything
--     else a ZIP page prints of an agent comes from agent_zip_sales and agent_figures, whose own triggers follow
--     them (src/pages/agents/[zip].astro, src/components/RankedAgentList.astro, src/lib/agent-pages.ts).
--   * Inserts and deletes are unchanged.

create or replace function private.track_agent_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed uuid[];
  zip_changed uuid[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(n.id), '{}') into changed from new_rows n;
    perform private.bump_agent_pages(changed);
  elsif tg_op = 'UPDATE' then
    select coalesce(array_agg(n.id), '{}'),
           coalesce(array_agg(n.id) filter (
             where (n.name, n.brokerage, n.city, n.state) is distinct from (o.name, o.brokerage, o.city, o.state)), '{}')
      into changed, zip_changed
      from new_rows n
      join old_rows o on o.id = n.id
     where (to_jsonb(n) - '{created_at,updated_at,metrics_refreshed_at}'::text[])
           is distinct from (to_jsonb(o) - '{created_at,updated_at,metrics_refreshed_at}'::text[]);
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
  'agents: a new version for the page of each changed agent (any column but the stamps), and for the ZIP pages that rank it when its name, brokerage, city or state changed (what those pages use of the agent row).';
