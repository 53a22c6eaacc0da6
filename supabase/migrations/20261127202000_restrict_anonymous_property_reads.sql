-- Anonymous callers read listing data only as the public pages show it: per agent, bounded, and only the columns a
-- page prints. properties (coordinates, MLS ids, contract dates: what an MLS licence keeps off the open web) is no
-- longer readable by anon or by signed-in non-admins; admins keep their policy. The agent page's recent sales and
-- sales per quarter come from two security-definer functions that take the agents asked for (at most 100 per call,
-- at most 10 sales each), which is what the profile island (one agent) and the site build (every agent, 100 at a
-- time, with the anon key) call. Whole-table functions are no longer callable by anon or authenticated.

drop policy "Properties are readable by anyone" on public.properties;
revoke select on public.properties from anon;

/*
 * The newest closed sales (StandardStatus Closed with a ClosePrice) of each agent in agent_ids, newest CloseDate
 * first, at most max_per_agent (1-10) each: the columns the agent page prints. 22023 for more than 100 agents or a
 * max_per_agent outside 1-10.
 */
create function public.agent_page_sales(agent_ids uuid[], max_per_agent integer default 10)
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
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if agent_ids is null or cardinality(agent_ids) > 100 then
    raise exception 'agent_ids must name at most 100 agents' using errcode = '22023';
  end if;
  if max_per_agent is null or max_per_agent < 1 or max_per_agent > 10 then
    raise exception 'max_per_agent must be 1 to 10' using errcode = '22023';
  end if;
  return query
    select s.agent_id, s.id, s.address, s.city, s.state, s.zip_code, s.close_date, s.list_price, s.close_price,
           s.days_on_market, s.source
      from unnest(agent_ids) as a (agent_id)
      cross join lateral (
        select p.agent_id, p.id, p.address, p.city, p.state, p.zip_code, p.close_date, p.list_price, p.close_price,
               p.days_on_market, p.source
          from public.properties p
         where p.agent_id = a.agent_id and p.standard_status = 'Closed' and p.close_price is not null
         -- close_date is sale_date (generated); ordering by sale_date uses properties_agent_id_sale_date_idx
         order by p.sale_date desc nulls last, p.id
         limit max_per_agent
      ) s
     order by s.agent_id, s.close_date desc nulls last, s.id;
end;
$$;

comment on function public.agent_page_sales(uuid[], integer) is
  'The newest closed sales of up to 100 agents, at most 10 each, with the columns the agent page prints. Anyone may call it (the profile island and the site build).';

revoke execute on function public.agent_page_sales(uuid[], integer) from public;
grant execute on function public.agent_page_sales(uuid[], integer) to anon, authenticated, service_role;

/*
 * Closed sales per calendar quarter in each agent's metrics window, for each agent in agent_ids (the agent page's
 * chart). 22023 for more than 100 agents.
 */
create function public.agent_page_quarters(agent_ids uuid[])
returns table (agent_id uuid, quarter_start date, closed_sales integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if agent_ids is null or cardinality(agent_ids) > 100 then
    raise exception 'agent_ids must name at most 100 agents' using errcode = '22023';
  end if;
  return query
    select p.agent_id, date_trunc('quarter', p.close_date)::date, count(*)::integer
      from public.properties p
      join public.agents a on a.id = p.agent_id
     where p.agent_id = any (agent_ids)
       and p.standard_status = 'Closed' and p.close_price is not null
       and p.close_date between a.metrics_window_start and a.metrics_window_end
     group by p.agent_id, date_trunc('quarter', p.close_date)
     order by p.agent_id, 2;
end;
$$;

comment on function public.agent_page_quarters(uuid[]) is
  'Closed sales per quarter in the metrics window of up to 100 agents (the agent page''s chart). Anyone may call it.';

revoke execute on function public.agent_page_quarters(uuid[]) from public;
grant execute on function public.agent_page_quarters(uuid[]) to anon, authenticated, service_role;

-- whole-table readers: the local site builder's fingerprint and older builds only, with the service role
revoke execute on function public.agent_recent_sales(integer) from public, anon, authenticated;
revoke execute on function public.agent_quarterly_sales(uuid) from public, anon, authenticated;
revoke execute on function public.agent_pages_fingerprint() from public, anon, authenticated;
grant execute on function public.agent_recent_sales(integer) to service_role;
grant execute on function public.agent_quarterly_sales(uuid) to service_role;
grant execute on function public.agent_pages_fingerprint() to service_role;
