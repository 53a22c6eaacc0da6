-- Build-time reads of the prerendered agent, ZIP and city pages (issue "Agents findable by search engines").
--
-- Decisions:
--   * The static build renders every agent with figures, so it needs each agent's recent sales and closed sales per
--     quarter in a few paged requests instead of one request per agent: two set-returning functions over
--     anon-readable rows (security invoker, so RLS of properties and agents still decides what is visible).
--   * Same closed-sale rule as refresh_agent_metrics(): standard_status 'Closed' with a ClosePrice.

-- newest `max_per_agent` closed sales of every agent, newest CloseDate first (ties by id, so paging is stable)
create function public.agent_recent_sales(max_per_agent integer default 10)
returns table (
  agent_id uuid,
  id uuid,
  address text,
  city text,
  state text,
  zip_code text,
  close_date date,
  list_price numeric,
  close_price numeric,
  days_on_market integer,
  source text
)
language sql
stable
security invoker
set search_path = ''
as $$
  select r.agent_id, r.id, r.address, r.city, r.state, r.zip_code, r.close_date, r.list_price, r.close_price, r.days_on_market, r.source
  from (
    select p.*, row_number() over (partition by p.agent_id order by p.close_date desc nulls last, p.id) as position
    from public.properties p
    where p.agent_id is not null and p.standard_status = 'Closed' and p.close_price is not null
  ) r
  where r.position <= greatest(1, least(max_per_agent, 50))
  order by r.agent_id, r.position;
$$;

comment on function public.agent_recent_sales(integer) is
  'Newest closed sales (ClosePrice set) per agent, at most max_per_agent (1-50) each, ordered by agent then newest first. Build-time read of the agent pages.';

revoke execute on function public.agent_recent_sales(integer) from public;
grant execute on function public.agent_recent_sales(integer) to anon, authenticated, service_role;

-- closed sales per calendar quarter inside each agent's metrics window (the profile's bar chart)
create function public.agent_quarterly_sales(only_agent uuid default null)
returns table (agent_id uuid, quarter_start date, closed_sales integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select p.agent_id, date_trunc('quarter', p.close_date)::date as quarter_start, count(*)::integer as closed_sales
  from public.properties p
  join public.agents a on a.id = p.agent_id
  where p.standard_status = 'Closed' and p.close_price is not null
    and p.close_date between a.metrics_window_start and a.metrics_window_end
    and (only_agent is null or p.agent_id = only_agent)
  group by p.agent_id, date_trunc('quarter', p.close_date)
  order by p.agent_id, quarter_start;
$$;

comment on function public.agent_quarterly_sales(uuid) is
  'Closed sales per agent (all, or only_agent) and calendar quarter (quarter_start = first day) inside the agent''s metrics window. Build-time read of the agent pages.';

revoke execute on function public.agent_quarterly_sales(uuid) from public;
grant execute on function public.agent_quarterly_sales(uuid) to anon, authenticated, service_role;

-- Data-refresh rebuilds: the agent, ZIP and city pages are built from agents, their closed sales and the ZIP
-- benchmarks, so a metrics refresh (refresh_agent_metrics stamps agents.metrics_refreshed_at), a new or removed agent,
-- an edited agent or a benchmark import asks for a site build, once per statement, through the same webhook as blog
-- publishes. The reason starts with 'agent data' so the builder can rebuild only the data pages that changed.
create function private.agent_data_site_webhook()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.request_site_build(format('agent data changed: %s %s', tg_table_name, lower(tg_op)));
  return null;
end;
$$;

comment on function private.agent_data_site_webhook() is
  'Statement trigger: asks for a site build (private.request_site_build) after agents or ZIP benchmarks change.';

revoke execute on function private.agent_data_site_webhook() from public, anon, authenticated;

create trigger agents_site_webhook_insert
  after insert on public.agents
  for each statement execute function private.agent_data_site_webhook();
create trigger agents_site_webhook_update
  after update on public.agents
  for each statement execute function private.agent_data_site_webhook();
create trigger agents_site_webhook_delete
  after delete on public.agents
  for each statement execute function private.agent_data_site_webhook();
create trigger zip_market_benchmarks_site_webhook
  after insert or update or delete on public.zip_market_benchmarks
  for each statement execute function private.agent_data_site_webhook();

-- what the agent, ZIP and city pages are built from, as one hash: the site builder skips a data-change build when
-- it equals the hash of the site being served (an agent inserted without sales, a no-op update)
create function public.agent_pages_fingerprint()
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select md5(
    coalesce((select string_agg(a.id::text || ':' || a.updated_at::text || ':' || coalesce(a.metrics_refreshed_at::text, ''), ',' order by a.id)
              from public.agents a where a.total_sales > 0), '')
    || '|' ||
    coalesce((select string_agg(b.zip_code || ':' || b.updated_at::text, ',' order by b.zip_code) from public.zip_market_benchmarks b), '')
  );
$$;

comment on function public.agent_pages_fingerprint() is
  'md5 over the agents with figures (id, updated_at, metrics_refreshed_at) and the ZIP benchmarks (zip_code, updated_at): changes whenever an agent, ZIP or city page would.';

revoke execute on function public.agent_pages_fingerprint() from public;
grant execute on function public.agent_pages_fingerprint() to anon, authenticated, service_role;
