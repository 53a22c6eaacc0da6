-- Per-page change tracking for the public site's data pages: agent pages (/agent/<id>) and ZIP pages
-- (/agents/<zip>; a city page is the sum of its ZIP pages).
--
-- Why: every build used to read every agent's page data (the agent row, recent sales, sales per quarter, the ZIP
-- benchmark, the ZIP rankings) to hash it into the page's build-cache key, so a data refresh that changed 1 % of the
-- agents still read and hashed all of them: tens of minutes at a million agents.
--
-- What: statement triggers on the tables those pages read write a new version (one sequence for all pages) for each
-- page whose data a statement changed, in the same transaction:
--   agents                   -> the agent's page (any column but the bookkeeping stamps), and the ZIP pages that
--                               rank the agent (they print the agent's name, brokerage and figures)
--   properties               -> for a closed sale (before or after the change), the pages of its listing agent and
--                               of every agent with a side of it (the pages list closed sales and count them)
--   transaction_sides        -> the pages of the agents a side names, before and after the change
--   agent_figures            -> the agent's page, and the ZIP pages that rank the agent
--   zip_market_benchmarks    -> the ZIP page, and the pages of agents whose primary ZIP it is (they show it)
--   agent_zip_sales          -> the ZIP page (its ranking)
--   zip_sales_coverage       -> the ZIP page
--   figures_refreshes        -> every page, when a refresh changes the methodology version or the shrinkage
--                               constant (a new window reaches every page through the agents' own rows)
-- The build takes each page's cache key from agent_page_versions / zip_page_versions instead of reading its data, and
-- reads the data of the pages it renders only. A version row outlives a deleted agent (a tombstone, prerender false)
-- so whoever serves cached copies of the page can tell it changed.
--
-- Which agent pages are prerendered: agents with closed sales in the metrics window (total_sales > 0) who are among
-- the 25 agents a ZIP page lists first (closed sales, then volume, then name) in at least one five-digit ZIP:
-- agent_page_versions.prerender, kept current by the same triggers through private.zip_top_agents. Every other agent
-- page is rendered on demand from the same page component.

create sequence private.page_version_seq;

comment on sequence private.page_version_seq is 'Versions of the public data pages (agent_page_versions, zip_page_versions): one sequence, so a version is also a watermark (everything changed after a build has a higher version than the build read).';

revoke all on sequence private.page_version_seq from anon, authenticated, public, service_role;

create table public.agent_page_versions (
  agent_id uuid not null,
  version bigint not null,
  prerender boolean not null default false,
  changed_at timestamp with time zone not null default now(),
  constraint agent_page_versions_pkey primary key (agent_id)
);

comment on table public.agent_page_versions is 'The version of each agent page (/agent/<id>): a new one whenever the data the page prints changes, written by triggers on agents, properties and zip_market_benchmarks. prerender: the build prerenders the page (closed sales in the metrics window and among the first 25 agents of a ZIP page); others are rendered on demand. Rows of deleted agents stay (prerender false). Anyone reads; nobody writes but the triggers.';
comment on column public.agent_page_versions.version is 'From private.page_version_seq; the build''s cache key of the page.';
comment on column public.agent_page_versions.changed_at is 'When the page''s data last changed (the sitemap''s lastmod).';

create index agent_page_versions_prerender_idx on public.agent_page_versions (agent_id) where prerender;
create index agent_page_versions_version_idx on public.agent_page_versions (version);

alter table public.agent_page_versions enable row level security;
create policy "Agent page versions are readable by anyone" on public.agent_page_versions
  for select to anon, authenticated using (true);
revoke all on table public.agent_page_versions from anon, authenticated, public, service_role;
grant select on table public.agent_page_versions to anon, authenticated, service_role;

create table public.zip_page_versions (
  zip_code text not null,
  version bigint not null,
  city text,
  state text,
  ranked_agents integer not null default 0,
  changed_at timestamp with time zone not null default now(),
  constraint zip_page_versions_pkey primary key (zip_code)
);

comment on table public.zip_page_versions is 'The version of each ZIP page (/agents/<zip>): a new one whenever its ranking, its benchmark or a ranked agent changes, written by triggers on agent_zip_sales, zip_market_benchmarks and agents. A five-digit ZIP with ranked_agents > 0 has a page; city and state (from the Redfin benchmark, else the ranked agents'' most common city) group ZIP pages into city pages. Anyone reads; nobody writes but the triggers.';
comment on column public.zip_page_versions.ranked_agents is 'Agents with closed sales in the metrics window who sold in this ZIP as listing agent (the ZIP page lists them).';

create index zip_page_versions_version_idx on public.zip_page_versions (version);

alter table public.zip_page_versions enable row level security;
create policy "ZIP page versions are readable by anyone" on public.zip_page_versions
  for select to anon, authenticated using (true);
revoke all on table public.zip_page_versions from anon, authenticated, public, service_role;
grant select on table public.zip_page_versions to anon, authenticated, service_role;

create table private.zip_top_agents (
  zip_code text not null,
  agent_id uuid not null,
  constraint zip_top_agents_pkey primary key (zip_code, agent_id)
);

comment on table private.zip_top_agents is 'The first 25 agents of each five-digit ZIP page (closed sales, then volume, then name): an agent listed here with closed sales in the window has a prerendered page. Kept by private.touch_zip_pages().';

create index zip_top_agents_agent_id_idx on private.zip_top_agents (agent_id);

alter table private.zip_top_agents enable row level security;
revoke all on table private.zip_top_agents from anon, authenticated, public, service_role;

/*
 * New versions for the pages of agent_ids (distinct, in id order so concurrent writers lock rows in one order).
 * A deleted agent's row stays as a tombstone.
 */
create function private.bump_agent_pages(agent_ids uuid[])
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.agent_page_versions as v (agent_id, version, changed_at)
  select x.agent_id, nextval('private.page_version_seq'), now()
    from (select distinct u.agent_id from unnest(agent_ids) as u (agent_id) where u.agent_id is not null order by 1) x
  on conflict (agent_id) do update set version = excluded.version, changed_at = excluded.changed_at;
$$;

comment on function private.bump_agent_pages(uuid[]) is 'Gives the pages of agent_ids a new version (their data changed).';

/* Sets agent_page_versions.prerender of agent_ids from the agent's sales and private.zip_top_agents. */
create function private.refresh_prerendered_agents(agent_ids uuid[])
returns void
language sql
security definer
set search_path = ''
as $$
  update public.agent_page_versions v
     set prerender = coalesce(s.prerender, false)
    from (select distinct x.agent_id from unnest(agent_ids) as x (agent_id)) u
    left join lateral (
      select a.total_sales > 0 and exists (select 1 from private.zip_top_agents t where t.agent_id = a.id) as prerender
        from public.agents a
       where a.id = u.agent_id
    ) s on true
   where v.agent_id = u.agent_id
     and v.prerender is distinct from coalesce(s.prerender, false);
$$;

comment on function private.refresh_prerendered_agents(uuid[]) is 'Recomputes which of agent_ids have prerendered pages (closed sales in the window and among the first 25 of a ZIP page).';

/*
 * New versions for the ZIP pages of zips: recomputes each one's ranked agents, its place (the benchmark's city and
 * state when it has both, else the most common city among its ranked agents) and its first 25 agents, and the
 * prerender flag of every agent who entered or left a first 25.
 */
create function private.touch_zip_pages(zips text[])
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

  -- the ZIP page's order: closed sales, then volume, then name
  insert into private.zip_top_agents (zip_code, agent_id)
  select r.zip_code, r.agent_id
    from (
      select s.zip_code, s.agent_id,
             row_number() over (
               partition by s.zip_code order by s.closed_sales desc, s.sales_volume desc, a.name, s.agent_id
             ) as position
        from public.agent_zip_sales s
        join public.agents a on a.id = s.agent_id and a.total_sales > 0
       where s.zip_code = any (zips) and s.zip_code ~ '^[0-9]{5}$' and s.closed_sales > 0
    ) r
   where r.position <= 25;

  select coalesce(array_agg(t.agent_id), '{}') into current_top
    from private.zip_top_agents t where t.zip_code = any (zips);

  insert into public.zip_page_versions as v (zip_code, version, city, state, ranked_agents, changed_at)
  select z.zip_code, nextval('private.page_version_seq'),
         case when b.city is not null and b.state is not null then b.city else common.city end,
         case when b.city is not null and b.state is not null then b.state else common.state end,
         coalesce(ranked.n, 0), now()
    from unnest(zips) as z (zip_code)
    left join public.zip_market_benchmarks b on b.zip_code = z.zip_code
    left join lateral (
      select count(*)::integer as n
        from public.agent_zip_sales s
        join public.agents a on a.id = s.agent_id and a.total_sales > 0
       where s.zip_code = z.zip_code and s.closed_sales > 0
    ) ranked on true
    left join lateral (
      select a.city, a.state
        from public.agent_zip_sales s
        join public.agents a on a.id = s.agent_id and a.total_sales > 0
       where s.zip_code = z.zip_code and s.closed_sales > 0 and a.city is not null and a.state is not null
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

comment on function private.touch_zip_pages(text[]) is 'Gives the ZIP pages of zips a new version and recomputes their place, ranked agents, first 25 agents and those agents'' prerender flags.';

/* The ZIP pages that rank any of agent_ids (their rows in agent_zip_sales). */
create function private.zips_ranking_agents(agent_ids uuid[])
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct s.zip_code), '{}')
    from public.agent_zip_sales s
   where s.agent_id = any (agent_ids);
$$;

-- agents: the page prints every column but the bookkeeping stamps (a metrics refresh restamps agents it did not change)
create function private.track_agent_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed uuid[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(n.id), '{}') into changed from new_rows n;
    perform private.bump_agent_pages(changed);
  elsif tg_op = 'UPDATE' then
    select coalesce(array_agg(n.id), '{}') into changed
      from new_rows n
      join old_rows o on o.id = n.id
     where (to_jsonb(n) - '{created_at,updated_at,metrics_refreshed_at}'::text[])
           is distinct from (to_jsonb(o) - '{created_at,updated_at,metrics_refreshed_at}'::text[]);
    if cardinality(changed) = 0 then
      return null;
    end if;
    perform private.bump_agent_pages(changed);
    perform private.touch_zip_pages(private.zips_ranking_agents(changed));
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

-- properties: a closed sale (before or after the change) is on the pages of its listing agent and of every agent with
-- a side of it (a new sale's sides are written by their own trigger, which tracks them)
create function private.track_property_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed uuid[];
  sales uuid[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(distinct n.agent_id), '{}') into changed
      from new_rows n where n.agent_id is not null and n.standard_status = 'Closed';
  elsif tg_op = 'UPDATE' then
    select coalesce(array_agg(distinct x.agent_id) filter (where x.agent_id is not null), '{}'),
           coalesce(array_agg(distinct n.id), '{}')
      into changed, sales
      from new_rows n
      join old_rows o on o.id = n.id
     cross join lateral (values (o.agent_id), (n.agent_id)) as x (agent_id)
     where (o.standard_status = 'Closed' or n.standard_status = 'Closed')
       and (to_jsonb(n) - '{updated_at,modification_timestamp}'::text[])
           is distinct from (to_jsonb(o) - '{updated_at,modification_timestamp}'::text[]);
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
$$;

-- transaction_sides: a side of a closed sale is on the page of the agent it names (a listing that closes later is
-- tracked through properties)
create function private.track_side_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed uuid[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(distinct n.agent_id), '{}') into changed
      from new_rows n
      join public.properties p on p.id = n.property_id and p.standard_status = 'Closed'
     where n.agent_id is not null;
  elsif tg_op = 'UPDATE' then
    select coalesce(array_agg(distinct x.agent_id), '{}') into changed
      from new_rows n
      join old_rows o on o.id = n.id
      join public.properties p on p.id = n.property_id and p.standard_status = 'Closed'
     cross join lateral (values (o.agent_id), (n.agent_id)) as x (agent_id)
     where x.agent_id is not null
       and (to_jsonb(n) - '{updated_at}'::text[]) is distinct from (to_jsonb(o) - '{updated_at}'::text[]);
  else
    -- the sale may be gone (the sides went with it): every agent the sides named
    select coalesce(array_agg(distinct o.agent_id), '{}') into changed from old_rows o where o.agent_id is not null;
  end if;
  perform private.bump_agent_pages(changed);
  return null;
end;
$$;

-- agent_figures: the agent's figures, on their page and in the rankings of their ZIP pages
create function private.track_figure_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed uuid[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(n.agent_id), '{}') into changed from new_rows n;
  elsif tg_op = 'UPDATE' then
    select coalesce(array_agg(distinct x.agent_id), '{}') into changed
      from new_rows n
      join old_rows o on o.agent_id = n.agent_id
     cross join lateral (values (o.agent_id), (n.agent_id)) as x (agent_id)
     where (to_jsonb(n) - '{updated_at}'::text[]) is distinct from (to_jsonb(o) - '{updated_at}'::text[]);
  else
    select coalesce(array_agg(o.agent_id), '{}') into changed from old_rows o;
  end if;
  if cardinality(changed) = 0 then
    return null;
  end if;
  perform private.bump_agent_pages(changed);
  perform private.touch_zip_pages(private.zips_ranking_agents(changed));
  return null;
end;
$$;

-- zip_sales_coverage: the ZIP's own sales figures
create function private.track_zip_coverage_pages()
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
     where (to_jsonb(n) - '{updated_at}'::text[]) is distinct from (to_jsonb(o) - '{updated_at}'::text[]);
  else
    select coalesce(array_agg(o.zip_code), '{}') into zips from old_rows o;
  end if;
  perform private.touch_zip_pages(zips);
  return null;
end;
$$;

-- figures_refreshes: the newest row describes the figures shown; a new methodology version or shrinkage constant there
-- changes how every page's figures read (a first refresh writes every agent's figures, which tracks them anyway)
create function private.track_methodology_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous record;
  newest record;
begin
  select p.methodology_version, p.sale_to_list_shrink_k, p.refreshed_at into previous
    from public.figures_refreshes p
   where not exists (select 1 from new_rows n where n.id = p.id)
   order by p.refreshed_at desc, p.id desc
   limit 1;
  select n.methodology_version, n.sale_to_list_shrink_k, n.refreshed_at into newest
    from new_rows n
   order by n.refreshed_at desc, n.id desc
   limit 1;
  if previous is null or newest.refreshed_at < previous.refreshed_at
     or (newest.methodology_version, newest.sale_to_list_shrink_k)
        is not distinct from (previous.methodology_version, previous.sale_to_list_shrink_k) then
    return null;
  end if;
  perform private.bump_agent_pages(array(select a.id from public.agents a));
  perform private.touch_zip_pages(array(select v.zip_code from public.zip_page_versions v));
  return null;
end;
$$;

-- zip_market_benchmarks: printed on the ZIP page and on the page of each agent whose primary ZIP it is
create function private.track_benchmark_pages()
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
  perform private.bump_agent_pages(array(select a.id from public.agents a where a.primary_zip_code = any (zips)));
  return null;
end;
$$;

-- agent_zip_sales: the ZIP page's ranking (written only by the metrics refresh, only rows that changed)
create function private.track_zip_ranking_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  zips text[];
begin
  if tg_op = 'INSERT' then
    select coalesce(array_agg(distinct n.zip_code), '{}') into zips from new_rows n;
  elsif tg_op = 'UPDATE' then
    select coalesce(array_agg(distinct x.zip_code), '{}') into zips
      from (select zip_code from new_rows union select zip_code from old_rows) x;
  else
    select coalesce(array_agg(distinct o.zip_code), '{}') into zips from old_rows o;
  end if;
  perform private.touch_zip_pages(zips);
  return null;
end;
$$;

revoke all on function private.bump_agent_pages(uuid[]) from anon, authenticated, public, service_role;
revoke all on function private.refresh_prerendered_agents(uuid[]) from anon, authenticated, public, service_role;
revoke all on function private.touch_zip_pages(text[]) from anon, authenticated, public, service_role;
revoke all on function private.zips_ranking_agents(uuid[]) from anon, authenticated, public, service_role;
revoke all on function private.track_agent_pages() from anon, authenticated, public, service_role;
revoke all on function private.track_property_pages() from anon, authenticated, public, service_role;
revoke all on function private.track_side_pages() from anon, authenticated, public, service_role;
revoke all on function private.track_figure_pages() from anon, authenticated, public, service_role;
revoke all on function private.track_zip_coverage_pages() from anon, authenticated, public, service_role;
revoke all on function private.track_methodology_pages() from anon, authenticated, public, service_role;
revoke all on function private.track_benchmark_pages() from anon, authenticated, public, service_role;
revoke all on function private.track_zip_ranking_pages() from anon, authenticated, public, service_role;

create trigger agents_track_pages_insert after insert on public.agents
  referencing new table as new_rows for each statement execute function private.track_agent_pages();
create trigger agents_track_pages_update after update on public.agents
  referencing old table as old_rows new table as new_rows for each statement execute function private.track_agent_pages();
create trigger agents_track_pages_delete after delete on public.agents
  referencing old table as old_rows for each statement execute function private.track_agent_pages();

create trigger properties_track_pages_insert after insert on public.properties
  referencing new table as new_rows for each statement execute function private.track_property_pages();
create trigger properties_track_pages_update after update on public.properties
  referencing old table as old_rows new table as new_rows for each statement execute function private.track_property_pages();
create trigger properties_track_pages_delete after delete on public.properties
  referencing old table as old_rows for each statement execute function private.track_property_pages();

create trigger transaction_sides_track_pages_insert after insert on public.transaction_sides
  referencing new table as new_rows for each statement execute function private.track_side_pages();
create trigger transaction_sides_track_pages_update after update on public.transaction_sides
  referencing old table as old_rows new table as new_rows for each statement execute function private.track_side_pages();
create trigger transaction_sides_track_pages_delete after delete on public.transaction_sides
  referencing old table as old_rows for each statement execute function private.track_side_pages();

create trigger agent_figures_track_pages_insert after insert on public.agent_figures
  referencing new table as new_rows for each statement execute function private.track_figure_pages();
create trigger agent_figures_track_pages_update after update on public.agent_figures
  referencing old table as old_rows new table as new_rows for each statement execute function private.track_figure_pages();
create trigger agent_figures_track_pages_delete after delete on public.agent_figures
  referencing old table as old_rows for each statement execute function private.track_figure_pages();

create trigger zip_sales_coverage_track_pages_insert after insert on public.zip_sales_coverage
  referencing new table as new_rows for each statement execute function private.track_zip_coverage_pages();
create trigger zip_sales_coverage_track_pages_update after update on public.zip_sales_coverage
  referencing old table as old_rows new table as new_rows for each statement execute function private.track_zip_coverage_pages();
create trigger zip_sales_coverage_track_pages_delete after delete on public.zip_sales_coverage
  referencing old table as old_rows for each statement execute function private.track_zip_coverage_pages();

create trigger figures_refreshes_track_pages_insert after insert on public.figures_refreshes
  referencing new table as new_rows for each statement execute function private.track_methodology_pages();

create trigger zip_market_benchmarks_track_pages_insert after insert on public.zip_market_benchmarks
  referencing new table as new_rows for each statement execute function private.track_benchmark_pages();
create trigger zip_market_benchmarks_track_pages_update after update on public.zip_market_benchmarks
  referencing old table as old_rows new table as new_rows for each statement execute function private.track_benchmark_pages();
create trigger zip_market_benchmarks_track_pages_delete after delete on public.zip_market_benchmarks
  referencing old table as old_rows for each statement execute function private.track_benchmark_pages();

create trigger agent_zip_sales_track_pages_insert after insert on public.agent_zip_sales
  referencing new table as new_rows for each statement execute function private.track_zip_ranking_pages();
create trigger agent_zip_sales_track_pages_update after update on public.agent_zip_sales
  referencing old table as old_rows new table as new_rows for each statement execute function private.track_zip_ranking_pages();
create trigger agent_zip_sales_track_pages_delete after delete on public.agent_zip_sales
  referencing old table as old_rows for each statement execute function private.track_zip_ranking_pages();

-- the pages that exist now
select private.bump_agent_pages(array(select a.id from public.agents a));
select private.touch_zip_pages(array(
  select s.zip_code from public.agent_zip_sales s
  union select b.zip_code from public.zip_market_benchmarks b
  union select c.zip_code from public.zip_sales_coverage c
));
