-- The name-token triggers of 20261124030000 made refresh_agent_metrics() run for minutes at 50,000 agents (a
-- 1,000,000-sale import had not finished its refresh after 11 minutes on a nearly idle machine; the import bench's
-- apply took about a minute of Postgres CPU before): every UPDATE of public.agents, the refresh included, runs the
-- rename statements, which join the two transition tables on id. Transition tables carry no statistics, and the
-- planner nested-looped 50,000 x 50,000 rows. (A column list, UPDATE OF name, cannot be used: PostgreSQL refuses
-- transition tables on triggers with column lists.)
--
-- Now the trigger functions run with enable_nestloop off, so those joins are hashed, and the sales copy joins only
-- the new rows to the postings. The search behaviour is unchanged (tests/integration/search-agents.test.ts: renamed
-- agent findable at once, new sales counted after a refresh).

/**
 * AFTER UPDATE (statement) on agents: a renamed agent's postings are rewritten (new tokens added to the dictionary,
 * tokens nobody carries any more removed); a changed total_sales is copied into the agent's postings. Hash joins
 * forced (enable_nestloop off): transition tables have no statistics.
 */
create or replace function private.agent_name_tokens_after_update()
returns trigger
language plpgsql
security definer
set search_path = ''
set enable_nestloop = off
as $$
begin
  delete from public.agent_name_postings p
  using new_agents n join old_agents o on o.id = n.id
  where p.agent_id = n.id and o.name is distinct from n.name;

  insert into public.agent_name_postings (token, agent_id, total_sales, name)
  select t.token, n.id, n.total_sales, n.name
  from new_agents n
  join old_agents o on o.id = n.id
  cross join lateral unnest(public.search_name_tokens(n.name)) as t(token)
  where o.name is distinct from n.name;

  insert into public.agent_name_tokens (token)
  select distinct t.token
  from new_agents n
  join old_agents o on o.id = n.id
  cross join lateral unnest(public.search_name_tokens(n.name)) as t(token)
  where o.name is distinct from n.name
  on conflict (token) do nothing;

  delete from public.agent_name_tokens d
  where d.token in (
    select t.token
    from new_agents n
    join old_agents o on o.id = n.id
    cross join lateral unnest(public.search_name_tokens(o.name)) as t(token)
    where o.name is distinct from n.name
  )
    and not exists (select 1 from public.agent_name_postings p where p.token = d.token);

  -- sales changed (the refresh updates many agents in one statement): copy the figure; a renamed agent's postings
  -- were rewritten above with the new figure already
  update public.agent_name_postings p
  set total_sales = n.total_sales
  from new_agents n
  where p.agent_id = n.id
    and p.total_sales is distinct from n.total_sales;
  return null;
end;
$$;

alter function private.agent_name_tokens_after_insert() set enable_nestloop = off;
alter function private.agent_name_tokens_after_delete() set enable_nestloop = off;
