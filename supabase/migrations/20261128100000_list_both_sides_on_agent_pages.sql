-- The agent page's recent sales and sales per quarter cover both sides of the deal, as its figures do: an agent who
-- mostly represents buyers has a sales list and a chart too.
--
-- Decisions:
--   * Sides come from private.effective_transaction_sides, where accepted corrections will apply, like every figure.
--   * agent_page_sales: the newest closed sales (StandardStatus Closed with a ClosePrice) where the agent had a side,
--     one row per sale and side with the agent's role there (an agent named twice on one side is listed once, in
--     the first role: list before co_list, buyer before co_buyer); a dual-agency sale is two rows, one per side.
--     Not bound to the window, as before: the list shows the newest sales on record.
--   * agent_page_quarters: sales counted as the figures count them (Closed, ClosePrice > 0, CloseDate inside the
--     agent's window), distinct sales per quarter and per side, so the quarters add up to the agent's sales.
--   * The return types change, so both are dropped and created again (same names, limits, grants).

drop function public.agent_page_sales(uuid[], integer);

/**
 * The newest closed sales of up to 100 agents (at most max_per_agent, 1-10, each), either side, with the columns the
 * agent page prints and the agent's role on each (list, co_list, buyer, co_buyer) and its side (listing, buyer).
 * Errors: 22023 for more than 100 agents or max_per_agent outside 1-10. Anyone may call it.
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
  source text,
  role text,
  side text
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
           s.days_on_market, s.source, s.role, s.side
      from unnest(agent_ids) as a (agent_id)
      cross join lateral (
        select a.agent_id, p.id, p.address, p.city, p.state, p.zip_code, p.close_date, p.list_price, p.close_price,
               p.days_on_market, p.source,
               (array['list', 'co_list', 'buyer', 'co_buyer'])[e.role_order] as role, e.side
          from (
            select x.property_id, x.side,
                   min(array_position(array['list', 'co_list', 'buyer', 'co_buyer'], x.role)) as role_order
              from private.effective_transaction_sides x
             where x.agent_id = a.agent_id
             group by x.property_id, x.side
          ) e
          join public.properties p on p.id = e.property_id
         where p.standard_status = 'Closed' and p.close_price is not null
         order by p.sale_date desc nulls last, p.id, e.side desc
         limit max_per_agent
      ) s
     order by s.agent_id, s.close_date desc nulls last, s.id, s.side desc;
end;
$$;

comment on function public.agent_page_sales(uuid[], integer) is
  'The newest closed sales of up to 100 agents, at most 10 each, either side, with the columns the agent page prints and the agent''s role and side on each. Anyone may call it (the profile island and the site build).';
revoke execute on function public.agent_page_sales(uuid[], integer) from public;
grant execute on function public.agent_page_sales(uuid[], integer) to anon, authenticated, service_role;


drop function public.agent_page_quarters(uuid[]);

/**
 * Closed sales per calendar quarter (quarter_start = its first day) inside each agent's metrics window, for up to 100
 * agents: distinct sales with either side (closed_sales), and those with the listing side and the buyer side (a
 * dual-agency sale is in both and once in closed_sales). Counted as the figures count (Closed, ClosePrice > 0), so
 * the quarters add up to agent_figures.total_sales. Errors: 22023 for more than 100 agents. Anyone may call it.
 */
create function public.agent_page_quarters(agent_ids uuid[])
returns table (agent_id uuid, quarter_start date, closed_sales integer, listing_sales integer, buyer_sales integer)
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
    select e.agent_id, date_trunc('quarter', p.sale_date)::date,
           count(distinct p.id)::integer,
           (count(distinct p.id) filter (where e.side = 'listing'))::integer,
           (count(distinct p.id) filter (where e.side = 'buyer'))::integer
      from private.effective_transaction_sides e
      join public.agent_figures f on f.agent_id = e.agent_id
      join public.properties p on p.id = e.property_id
     where e.agent_id = any (agent_ids)
       and p.standard_status = 'Closed' and p.sale_price > 0
       and p.sale_date between f.window_start and f.window_end
     group by e.agent_id, date_trunc('quarter', p.sale_date)
     order by e.agent_id, 2;
end;
$$;

comment on function public.agent_page_quarters(uuid[]) is
  'Closed sales per quarter in the metrics window of up to 100 agents, either side and per side (the agent page''s chart). Anyone may call it.';
revoke execute on function public.agent_page_quarters(uuid[]) from public;
grant execute on function public.agent_page_quarters(uuid[]) to anon, authenticated, service_role;
