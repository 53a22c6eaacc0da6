-- The page-tracking and figures-noting triggers join their old and new transition tables by hashing, whatever plan
-- was cached before.
--
-- Why: a PL/pgSQL statement without variables is planned once per session and its plan kept; a transition table is
-- estimated at the size it had when the statement was first planned. In an import, the first UPDATE of agents (a few
-- rows, early in the apply) left private.track_agent_pages() a nested-loop plan for "new_rows join old_rows", which the
-- metrics refresh's UPDATE of every agent then ran: 10,000 x 10,000 rows compared, 70.4 s of a 200,000-sale import's
-- 98 s apply (auto_explain); at 1,000,000 sales (50,000 agents) the import's refresh had not finished after 15 minutes.
-- The triggers of properties, transaction sides, agents and the agent-linking step already hashed this join.
--
-- What: each statement that joins new_rows and old_rows turns enable_nestloop off for itself and back to the
-- session's value after it, so the plan made the first time (whatever the row count) hashes the join. Only those
-- statements: the pages and figures functions they call keep their index lookups. Bodies otherwise unchanged.

CREATE OR REPLACE FUNCTION private.note_property_figures()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_nestloop text := current_setting('enable_nestloop');
begin
  if tg_op = 'INSERT' then
    if (select count(*) from new_rows) > private.figures_note_limit() then
      perform private.figures_note_full();
      return null;
    end if;
    insert into private.figures_pending_zips (zip_code)
    select distinct n.zip_code from new_rows n where n.zip_code is not null
    on conflict do nothing;
  elsif tg_op = 'UPDATE' then
    if (select count(*) from new_rows) > private.figures_note_limit() then
      perform private.figures_note_full();
      return null;
    end if;
    -- hashed: a plan cached for a few rows must not nest-loop two large transition tables
    perform set_config('enable_nestloop', 'off', true);
    with changed as (
      select n.id, o.zip_code as old_zip, n.zip_code as new_zip
      from new_rows n
      join old_rows o on o.id = n.id
      where (o.standard_status, o.sale_price, o.list_price, o.sale_date, o.zip_code, o.property_type,
             o.days_on_market, o.source)
            is distinct from (n.standard_status, n.sale_price, n.list_price, n.sale_date, n.zip_code,
                              n.property_type, n.days_on_market, n.source)
    ),
    sales as (
      insert into private.figures_pending_sales (property_id)
      select c.id from changed c
      on conflict do nothing
    )
    insert into private.figures_pending_zips (zip_code)
    select z.zip_code
    from changed c
    cross join lateral (values (c.old_zip), (c.new_zip)) as z (zip_code)
    where z.zip_code is not null
    group by z.zip_code
    on conflict do nothing;
    perform set_config('enable_nestloop', v_nestloop, true);
  else
    if (select count(*) from old_rows) > private.figures_note_limit() then
      perform private.figures_note_full();
      return null;
    end if;
    insert into private.figures_pending_zips (zip_code)
    select distinct o.zip_code from old_rows o where o.zip_code is not null
    on conflict do nothing;
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_side_figures()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_nestloop text := current_setting('enable_nestloop');
begin
  if tg_op = 'INSERT' then
    if (select count(*) from new_rows) > private.figures_note_limit() then
      perform private.figures_note_full();
      return null;
    end if;
    insert into private.figures_pending_sales (property_id)
    select distinct n.property_id from new_rows n
    on conflict do nothing;
  elsif tg_op = 'UPDATE' then
    if (select count(*) from new_rows) > private.figures_note_limit() then
      perform private.figures_note_full();
      return null;
    end if;
    -- hashed: a plan cached for a few rows must not nest-loop two large transition tables
    perform set_config('enable_nestloop', 'off', true);
    insert into private.figures_pending_sales (property_id)
    select distinct n.property_id
    from new_rows n
    join old_rows o on o.id = n.id
    where (o.property_id, o.role, o.agent_id, o.agent_key, o.agent_mls_id)
          is distinct from (n.property_id, n.role, n.agent_id, n.agent_key, n.agent_mls_id)
    on conflict do nothing;
    perform set_config('enable_nestloop', v_nestloop, true);
    -- hashed: a plan cached for a few rows must not nest-loop two large transition tables
    perform set_config('enable_nestloop', 'off', true);
    insert into private.figures_pending_agents (agent_id)
    select distinct o.agent_id
    from new_rows n
    join old_rows o on o.id = n.id
    where o.agent_id is not null and (o.property_id, o.agent_id) is distinct from (n.property_id, n.agent_id)
    on conflict do nothing;
    perform set_config('enable_nestloop', v_nestloop, true);
  else
    if (select count(*) from old_rows) > private.figures_note_limit() then
      perform private.figures_note_full();
      return null;
    end if;
    insert into private.figures_pending_sales (property_id)
    select distinct o.property_id from old_rows o
    on conflict do nothing;
    insert into private.figures_pending_agents (agent_id)
    select distinct o.agent_id from old_rows o where o.agent_id is not null
    on conflict do nothing;
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.track_agent_pages()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
     where (to_jsonb(n) - '{created_at,updated_at,metrics_refreshed_at}'::text[])
           is distinct from (to_jsonb(o) - '{created_at,updated_at,metrics_refreshed_at}'::text[]);
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
$function$;

CREATE OR REPLACE FUNCTION private.track_benchmark_pages()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_nestloop text := current_setting('enable_nestloop');
  zips text[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(n.zip_code), '{}') into zips from new_rows n;
  elsif tg_op = 'UPDATE' then
    -- hashed: a plan cached for a few rows must not nest-loop two large transition tables
    perform set_config('enable_nestloop', 'off', true);
    select coalesce(array_agg(distinct x.zip_code), '{}') into zips
      from new_rows n
      join old_rows o on o.zip_code = n.zip_code
     cross join lateral (values (o.zip_code), (n.zip_code)) as x (zip_code)
     where (to_jsonb(n) - '{created_at,updated_at}'::text[]) is distinct from (to_jsonb(o) - '{created_at,updated_at}'::text[]);
    perform set_config('enable_nestloop', v_nestloop, true);
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
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(n.agent_id), '{}') into changed from new_rows n;
  elsif tg_op = 'UPDATE' then
    -- hashed: a plan cached for a few rows must not nest-loop two large transition tables
    perform set_config('enable_nestloop', 'off', true);
    select coalesce(array_agg(distinct x.agent_id), '{}') into changed
      from new_rows n
      join old_rows o on o.agent_id = n.agent_id
     cross join lateral (values (o.agent_id), (n.agent_id)) as x (agent_id)
     where (to_jsonb(n) - 'updated_at') is distinct from (to_jsonb(o) - 'updated_at');
    perform set_config('enable_nestloop', v_nestloop, true);
  else
    select coalesce(array_agg(o.agent_id), '{}') into changed from old_rows o;
  end if;
  if cardinality(changed) = 0 then
    return null;
  end if;
  perform private.bump_agent_pages(changed);
  -- a ZIP page's order, first 25 and place come from agent_zip_sales, the agents' names and places, the coverage and
  -- the benchmark, whose own triggers recompute them; the figures are only printed
  perform private.bump_zip_pages(private.zips_ranking_agents(changed));
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.track_property_pages()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_nestloop text := current_setting('enable_nestloop');
  changed uuid[];
  sales uuid[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(distinct n.agent_id), '{}') into changed
      from new_rows n where n.agent_id is not null and n.standard_status = 'Closed';
  elsif tg_op = 'UPDATE' then
    -- hashed: a plan cached for a few rows must not nest-loop two large transition tables
    perform set_config('enable_nestloop', 'off', true);
    select coalesce(array_agg(distinct x.agent_id) filter (where x.agent_id is not null), '{}'),
           coalesce(array_agg(distinct n.id), '{}')
      into changed, sales
      from new_rows n
      join old_rows o on o.id = n.id
     cross join lateral (values (o.agent_id), (n.agent_id)) as x (agent_id)
     where (o.standard_status = 'Closed' or n.standard_status = 'Closed')
       and (to_jsonb(n) - '{updated_at,modification_timestamp}'::text[])
           is distinct from (to_jsonb(o) - '{updated_at,modification_timestamp}'::text[]);
    perform set_config('enable_nestloop', v_nestloop, true);
    changed := changed || array(
      select t.agent_id from public.transaction_sides t where t.property_id = any (sales) and t.agent_id is not null
    );
  else
    -- the sides go with the sale (their own trigger tracks them)
    select coalesce(array_agg(distinct o.agent_id), '{}') into changed
      from old_rows o where o.agent_id is not null and o.standard_status = 'Closed';
  end if;
  perform private.bump_agent_pages(changed);
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.track_zip_coverage_pages()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_nestloop text := current_setting('enable_nestloop');
  zips text[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(n.zip_code), '{}') into zips from new_rows n;
  elsif tg_op = 'UPDATE' then
    -- hashed: a plan cached for a few rows must not nest-loop two large transition tables
    perform set_config('enable_nestloop', 'off', true);
    select coalesce(array_agg(distinct x.zip_code), '{}') into zips
      from new_rows n
      join old_rows o on o.zip_code = n.zip_code
     cross join lateral (values (o.zip_code), (n.zip_code)) as x (zip_code)
     where (to_jsonb(n) - '{updated_at}'::text[]) is distinct from (to_jsonb(o) - '{updated_at}'::text[]);
    perform set_config('enable_nestloop', v_nestloop, true);
  else
    select coalesce(array_agg(o.zip_code), '{}') into zips from old_rows o;
  end if;
  perform private.touch_zip_pages(zips);
  return null;
end;
$function$;
