-- The agent page's recent sales read the agent's own sales first, then the accepted price/date corrections of just
-- those sales, instead of going through private.effective_sales.
--
-- Why: ordered by close date with a limit of ten, public.agent_page_sales joined to private.effective_sales (a UNION
-- ALL over public.properties) let the planner walk every sale of the table in close-date order through the date
-- index and keep the ones of the agent: about 77 ms for one agent and 2.5 s for a batch of 100 at 20,000 agents and
-- 50,200 sales, growing with the table. It bounded how fast agent pages prerender and answer on demand.
--
-- What: the same rows and order. The agent's sides (private.effective_transaction_sides, by the agent's index), their
-- sales by primary key, and the one override per sale (private.agent_sale_overrides.property_id is unique) laid over
-- them with coalesce, exactly as private.effective_sales lays it: CloseDate, ClosePrice and ListPrice of an accepted
-- correction over the feed's. Sorting on the coalesced date has no index to walk, so the plan starts from the agent.
-- Signature, grants and comment are unchanged (create or replace).

create or replace function public.agent_page_sales(agent_ids uuid[], max_per_agent integer default 10)
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
as $function$
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
        select a.agent_id, p.id, p.address, p.city, p.state, p.zip_code,
               coalesce(o.close_date, p.sale_date) as close_date,
               coalesce(o.list_price, p.list_price) as list_price,
               coalesce(o.close_price, p.sale_price) as close_price,
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
          left join private.agent_sale_overrides o on o.property_id = p.id
         where p.standard_status = 'Closed' and coalesce(o.close_price, p.sale_price) is not null
         order by coalesce(o.close_date, p.sale_date) desc nulls last, p.id, e.side desc
         limit max_per_agent
      ) s
     order by s.agent_id, s.close_date desc nulls last, s.id, s.side desc;
end;
$function$;
