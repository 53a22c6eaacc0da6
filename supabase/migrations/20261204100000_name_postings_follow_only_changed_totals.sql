-- The name-search trigger on agents reads only the postings of the agents it changes.
--
-- Why: a metrics refresh updates every agent whose figures, rank or share moved in one statement (60,801 agents on a
-- 1 % day at 1,000,000 agents; about 350,000 when the window moves), and this trigger then joined the updated rows
-- with the whole agent_name_postings table twice (3 to 4 rows per agent): once to delete the postings of renamed
-- agents (a refresh renames none) and once to copy total_sales (which most updated agents keep: only a rank or a share
-- moved). Those hash joins read every posting: 25 s of that day on a cold cache at 1,000,000 agents; 200 ms of an
-- update of 5,000 agents (1,000 with a new total) at 100,000, 150 ms of it the two joins.
-- What: the renamed agents are found first; without any, the four rename statements are skipped, and with some their
-- postings are deleted through the agent_id index. The total is copied only for the agents whose total changed,
-- their postings reached through the same index (an array, so the index answers with nested loops off, as the
-- function runs). What the trigger writes is unchanged.

CREATE OR REPLACE FUNCTION private.agent_name_tokens_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
 SET enable_nestloop TO 'off'
AS $function$
declare
  v_renamed uuid[];
begin
  v_renamed := array(
    select n.id from new_agents n join old_agents o on o.id = n.id where o.name is distinct from n.name
  );
  if cardinality(v_renamed) > 0 then
    delete from public.agent_name_postings p
    where p.agent_id = any (v_renamed);

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
  end if;

  -- sales changed (the refresh updates many agents in one statement, most with the same total): copy the figure to
  -- the postings of the agents whose total changed, reached by agent_id; a renamed agent's postings were rewritten
  -- above with the new figure already
  with changed as materialized (
    select n.id, n.total_sales
    from new_agents n
    join old_agents o on o.id = n.id
    where o.total_sales is distinct from n.total_sales
  )
  update public.agent_name_postings p
  set total_sales = c.total_sales
  from changed c
  where p.agent_id = any (array(select c2.id from changed c2))
    and p.agent_id = c.id
    and p.total_sales is distinct from c.total_sales;
  return null;
end;
$function$;
