-- ZIP and address searches rank agents by their sides in the area (listing and buyer sides, an agent and a co-agent
-- half each), ties by their credited volume there, and take a sort and filters so a visitor compares like with like:
--
--   area_options jsonb (all optional):
--     sort           'sides' (default), 'listing_sales' (listing sides), 'buyer_sales' (buyer sides), 'volume'
--                    (credited volume), 'sale_to_list' (the shrunk sale-to-list in the area: agents with fewer than
--                    5 listing-side sales with a list price there sort after the others); ties by volume, then sides
--     side           'any' (default), 'listing' or 'buyer': count only that side
--     min_price, max_price   ClosePrice band, USD, both ends included
--     property_type  one PropertyType, case-insensitive
--
-- Decisions:
--   * Without filters the ranking reads public.agent_zip_sales (sides per ZIP and agent, kept by the metrics refresh),
--     as before; a filter (or a database never refreshed) credits the area's closed sales on the fly through
--     private.credited_sides(), the refresh's own rule, over the same window.
--   * The shrunk sale-to-list of an agent in the area: (sum of their listing-side ratios there + k x the area's mean)
--     / (n + k), with the area's mean over all its sales in the filter and k the refresh's shrinkage weight.
--   * Each result carries `area_figures` (sales, sides per side, volume, sale-to-list in the area with n and the
--     shrunk value) and, from public.agent_figures, `sides` (the agent's both-sides figures in the window), so a card
--     shows both sides; the answer carries the sort used and the property types sold in the area (`facets`).
--   * Agent-name searches take no sort or filter (22023); their results carry `sides` too.
--   * Only the ranking changes: the caps (1-50 rows, offset 0-10000), the bounded top-N sort before rank(), the
--     location and the search log stay as they were.

create or replace function public.search_agent_json(a public.agents, sales_in_area integer, area_rank integer, match_score numeric)
returns jsonb
language sql
stable
as $$
  select pg_catalog.jsonb_build_object(
    'id', a.id, 'name', a.name, 'email', a.email, 'phone', a.phone, 'photo_url', a.photo_url,
    'brokerage', a.brokerage, 'license_number', a.license_number, 'years_experience', a.years_experience,
    'rating', a.rating, 'review_count', a.review_count, 'total_sales', a.total_sales,
    'average_sale_to_list_ratio', a.average_sale_to_list_ratio, 'average_days_on_market', a.average_days_on_market,
    'price_range_min', a.price_range_min, 'price_range_max', a.price_range_max, 'market_share', a.market_share,
    'local_ranking', a.local_ranking, 'total_agents_in_area', a.total_agents_in_area, 'ranking_note', a.ranking_note,
    'service_areas', pg_catalog.to_jsonb(a.service_areas), 'city', a.city, 'state', a.state, 'zip_code', a.zip_code,
    'primary_zip_code', a.primary_zip_code, 'sales_in_area', sales_in_area, 'area_rank', area_rank,
    'match_score', match_score,
    'sides', (
      select pg_catalog.jsonb_build_object(
        'listing_sales', f.listing_sales, 'listing_sides', f.listing_sides, 'buyer_sales', f.buyer_sales,
        'buyer_sides', f.buyer_sides, 'total_sales', f.total_sales, 'total_sides', f.total_sides,
        'total_volume', f.total_volume, 'sale_to_list_median', f.sale_to_list_median,
        'sale_to_list_n', f.sale_to_list_n, 'sale_to_list_shrunk', f.sale_to_list_shrunk,
        'zip_rank', f.zip_rank, 'zip_agents', f.zip_agents, 'ranking_note', f.ranking_note,
        'last_close_date', f.last_close_date, 'window_start', f.window_start, 'window_end', f.window_end
      )
      from public.agent_figures f
      where f.agent_id = a.id
    )
  );
$$;


/**
 * Ranks the agents of the ZIPs `zip_codes` by sides there (see the migration's header for area_options), page
 * result_offset / result_limit (capped 0-10000 / 1-50). Returns {agents, totalResults, sort, facets}: each agent as
 * search_agent_json() plus `area_figures`; totalResults counts every agent with a side in the area (in the filter).
 * 22023 for a bad option. Security definer: a filtered search credits sides through private.credited_sides(), which
 * only the owner may run; it is executable by service_role only (search_agents()).
 */
create function public.search_agents_in_area(
  zip_codes text[],
  result_limit integer,
  result_offset integer,
  area_options jsonb
)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  -- the same caps as search_agents(): 1-50 rows, offset 0-10000, whatever the caller asks
  v_limit integer := least(greatest(coalesce(result_limit, 20), 1), 50);
  v_offset integer := least(greatest(coalesce(result_offset, 0), 0), 10000);
  v_options jsonb := coalesce(area_options, '{}'::jsonb);
  v_sort text := coalesce(v_options ->> 'sort', 'sides');
  v_side text := coalesce(v_options ->> 'side', 'any');
  v_min numeric;
  v_max numeric;
  v_type text := nullif(btrim(v_options ->> 'property_type'), '');
  v_filtered boolean;
  v_k numeric;
  v_prior numeric;
  -- agent_zip_sales is filled by refresh_agent_metrics(); before the first refresh the sides are credited directly
  v_refreshed boolean := exists (
    select 1 from public.agents a where a.metrics_refreshed_at is not null and a.metrics_window_end is not null
  );
  v_types text[];
  v_facets jsonb;
begin
  if v_sort not in ('sides', 'listing_sales', 'buyer_sales', 'volume', 'sale_to_list') then
    raise exception 'sort must be sides, listing_sales, buyer_sales, volume or sale_to_list, got %', v_sort
      using errcode = '22023';
  end if;
  if v_side not in ('any', 'listing', 'buyer') then
    raise exception 'side must be any, listing or buyer, got %', v_side using errcode = '22023';
  end if;
  if pg_catalog.jsonb_typeof(v_options -> 'min_price') not in ('number', 'null')
     or pg_catalog.jsonb_typeof(v_options -> 'max_price') not in ('number', 'null') then
    raise exception 'min_price and max_price must be numbers (USD)' using errcode = '22023';
  end if;
  v_min := (v_options ->> 'min_price')::numeric;
  v_max := (v_options ->> 'max_price')::numeric;
  if v_min < 0 or v_max < 0 or v_min > v_max then
    raise exception 'the price band must run from a lower to a higher amount of 0 or more, got % to %', v_min, v_max
      using errcode = '22023';
  end if;
  if pg_catalog.char_length(v_type) > 100 then
    raise exception 'property_type must be at most 100 characters' using errcode = '22023';
  end if;
  v_filtered := v_side <> 'any' or v_min is not null or v_max is not null or v_type is not null;

  select coalesce((select r.sale_to_list_shrink_k from public.figures_refreshes r
                   order by r.refreshed_at desc, r.id desc limit 1), 10)
  into v_k;
  select coalesce(pg_catalog.array_agg(distinct t.property_type order by t.property_type), '{}')
  into v_types
  from public.zip_sales_coverage c cross join lateral unnest(c.property_types) as t(property_type)
  where c.zip_code = any(zip_codes);
  v_facets := pg_catalog.jsonb_build_object('propertyTypes', pg_catalog.to_jsonb(v_types));

  if v_refreshed and not v_filtered then
    select sum(c.sale_to_list_sum) / nullif(sum(c.sale_to_list_n), 0)
    into v_prior
    from public.zip_sales_coverage c
    where c.zip_code = any(zip_codes);

    return (
      with area as (
        select s.agent_id, sum(s.total_sales)::integer as sales, sum(s.sides) as sides,
               sum(s.listing_sides) as listing_sides, sum(s.buyer_sides) as buyer_sides, sum(s.volume) as volume,
               sum(s.sale_to_list_sum) as stl_sum, sum(s.sale_to_list_n)::integer as stl_n
        from public.agent_zip_sales s
        where s.zip_code = any(zip_codes)
        group by s.agent_id
      ),
      keyed as (
        select ar.*,
               case when ar.stl_n > 0 then (ar.stl_sum + v_k * v_prior) / (ar.stl_n + v_k) end as stl_shrunk,
               case when v_sort = 'sale_to_list' then (ar.stl_n >= 5)::integer else 0 end as sort_group,
               case v_sort
                 when 'listing_sales' then ar.listing_sides
                 when 'buyer_sales' then ar.buyer_sides
                 when 'volume' then ar.volume
                 when 'sale_to_list' then case when ar.stl_n > 0 then (ar.stl_sum + v_k * v_prior) / (ar.stl_n + v_k) end
                 else ar.sides
               end as sort_key,
               case when v_sort = 'volume' then ar.sides else ar.volume end as tie_key
        from area ar
      ),
      ranked as (
        select k.*,
               rank() over (order by k.sort_group desc, k.sort_key desc nulls last, k.tie_key desc)::integer as area_rank,
               row_number() over (order by k.sort_group desc, k.sort_key desc nulls last, k.tie_key desc, k.agent_id) as ord
        from (
          -- the agents up to the end of the requested page, by a bounded (top-N) sort: rank() and row_number() need
          -- only the agents before them in this order, so computing them on this prefix gives the whole-area values
          select * from keyed k
          order by k.sort_group desc, k.sort_key desc nulls last, k.tie_key desc, k.agent_id
          limit v_limit + v_offset
        ) k
      ),
      page as (
        select * from ranked r order by r.ord limit v_limit offset v_offset
      )
      select pg_catalog.jsonb_build_object(
        'agents', coalesce((
          select pg_catalog.jsonb_agg(
                   public.search_agent_json(a, p.sales, p.area_rank, null)
                   || pg_catalog.jsonb_build_object('area_figures', pg_catalog.jsonb_build_object(
                        'sales', p.sales, 'sides', p.sides, 'listing_sides', p.listing_sides,
                        'buyer_sides', p.buyer_sides, 'volume', p.volume,
                        'sale_to_list_mean', round(p.stl_sum / nullif(p.stl_n, 0), 2), 'sale_to_list_n', p.stl_n,
                        'sale_to_list_shrunk', round(p.stl_shrunk, 2)))
                   order by p.ord)
          from page p join public.agents a on a.id = p.agent_id
        ), '[]'::jsonb),
        'totalResults', (select count(*) from area),
        'sort', v_sort,
        'facets', v_facets
      )
    );
  end if;

  -- a filter, or no refresh yet: credit the area's closed sales in the window now
  select avg(p.sale_price / p.list_price * 100)
  into v_prior
  from public.properties p
  cross join public.search_metrics_window() w
  where p.zip_code = any(zip_codes)
    and p.standard_status = 'Closed' and p.sale_price > 0 and p.list_price > 0
    and p.sale_date between w.window_start and w.window_end
    and (v_min is null or p.sale_price >= v_min)
    and (v_max is null or p.sale_price <= v_max)
    and (v_type is null or lower(p.property_type) = lower(v_type));

  return (
    with credited as (
      select cs.*
      from public.search_metrics_window() w
      cross join lateral private.credited_sides(w.window_start, w.window_end, null, zip_codes) cs
      where (v_side = 'any' or cs.side = v_side)
        and (v_min is null or cs.sale_price >= v_min)
        and (v_max is null or cs.sale_price <= v_max)
        and (v_type is null or lower(cs.property_type) = lower(v_type))
    ),
    area as (
      select c.agent_id, count(distinct c.property_id)::integer as sales, sum(c.credit) as sides,
             coalesce(sum(c.credit) filter (where c.side = 'listing'), 0) as listing_sides,
             coalesce(sum(c.credit) filter (where c.side = 'buyer'), 0) as buyer_sides,
             sum(c.credited_volume) as volume,
             coalesce(sum(c.ratio) filter (where c.side = 'listing'), 0) as stl_sum,
             count(c.ratio) filter (where c.side = 'listing')::integer as stl_n
      from credited c
      group by c.agent_id
    ),
    keyed as (
      select ar.*,
             case when ar.stl_n > 0 and v_prior is not null then (ar.stl_sum + v_k * v_prior) / (ar.stl_n + v_k) end as stl_shrunk,
             case when v_sort = 'sale_to_list' then (ar.stl_n >= 5)::integer else 0 end as sort_group,
             case v_sort
               when 'listing_sales' then ar.listing_sides
               when 'buyer_sales' then ar.buyer_sides
               when 'volume' then ar.volume
               when 'sale_to_list' then case when ar.stl_n > 0 and v_prior is not null
                                             then (ar.stl_sum + v_k * v_prior) / (ar.stl_n + v_k) end
               else ar.sides
             end as sort_key,
             case when v_sort = 'volume' then ar.sides else ar.volume end as tie_key
      from area ar
    ),
    ranked as (
      select k.*,
             rank() over (order by k.sort_group desc, k.sort_key desc nulls last, k.tie_key desc)::integer as area_rank,
             row_number() over (order by k.sort_group desc, k.sort_key desc nulls last, k.tie_key desc, k.agent_id) as ord
      from (
        select * from keyed k
        order by k.sort_group desc, k.sort_key desc nulls last, k.tie_key desc, k.agent_id
        limit v_limit + v_offset
      ) k
    ),
    page as (
      select * from ranked r order by r.ord limit v_limit offset v_offset
    )
    select pg_catalog.jsonb_build_object(
      'agents', coalesce((
        select pg_catalog.jsonb_agg(
                 public.search_agent_json(a, p.sales, p.area_rank, null)
                 || pg_catalog.jsonb_build_object('area_figures', pg_catalog.jsonb_build_object(
                      'sales', p.sales, 'sides', p.sides, 'listing_sides', p.listing_sides,
                      'buyer_sides', p.buyer_sides, 'volume', p.volume,
                      'sale_to_list_mean', round(p.stl_sum / nullif(p.stl_n, 0), 2), 'sale_to_list_n', p.stl_n,
                      'sale_to_list_shrunk', round(p.stl_shrunk, 2)))
                 order by p.ord)
        from page p join public.agents a on a.id = p.agent_id
      ), '[]'::jsonb),
      'totalResults', (select count(*) from area),
      'sort', v_sort,
      'facets', v_facets
    )
  );
end;
$$;

comment on function public.search_agents_in_area(text[], integer, integer, jsonb) is
  'Ranks the agents of some ZIPs by sides there (or the sort asked for), with filters by side, price band and property type. Service role only (search_agents()).';

drop function public.search_agents_in_area(text[], integer, integer);
revoke execute on function public.search_agents_in_area(text[], integer, integer, jsonb) from public, anon, authenticated;
grant execute on function public.search_agents_in_area(text[], integer, integer, jsonb) to service_role;


/**
 * The site's agent search: `agent` (a name), `zipcode` (a 5-digit ZIP) or `address` (a property, a ZIP in the text
 * or "City, ST", ranked with its nearest ZIPs). area_options: the sort and filters of ZIP and address searches
 * (search_agents_in_area()); an agent search refuses them. Returns {agents, totalResults, location, message?, sort?,
 * facets?}. 22023 for bad input, naming it.
 */
create function public.search_agents(
  search_query text,
  search_type text default 'agent',
  result_limit integer default 20,
  result_offset integer default 0,
  area_options jsonb default null
)
returns jsonb
language plpgsql
stable
set search_path = ''
set plan_cache_mode = 'force_generic_plan'
as $$
declare
  v_query text := btrim(search_query);
  v_zip text;
  v_loc record;
  v_place record;
begin
  if v_query is null or char_length(v_query) not between 1 and 200 then
    raise exception 'search_query must be 1-200 characters after trimming' using errcode = '22023';
  end if;
  if result_limit is null or result_limit not between 1 and 50 then
    raise exception 'result_limit must be between 1 and 50, got %', result_limit using errcode = '22023';
  end if;
  if result_offset is null or result_offset not between 0 and 10000 then
    raise exception 'result_offset must be between 0 and 10000, got %', result_offset using errcode = '22023';
  end if;
  if area_options is not null and pg_catalog.jsonb_typeof(area_options) <> 'object' then
    raise exception 'area_options must be a JSON object' using errcode = '22023';
  end if;

  if search_type = 'agent' then
    if area_options is not null and area_options <> '{}'::jsonb then
      raise exception 'sort and filters apply to zipcode and address searches only' using errcode = '22023';
    end if;
    return public.search_agents_by_name(v_query, result_limit, result_offset) || jsonb_build_object('location', null);
  elsif search_type = 'zipcode' then
    v_zip := (regexp_match(v_query, '^(\d{5})(-\d{4})?$'))[1];
    if v_zip is null then
      raise exception 'search_query must be a 5-digit ZIP code for a zipcode search, got %', v_query using errcode = '22023';
    end if;
    select * into v_loc from public.search_zip_location(v_zip);
    return public.search_agents_in_area(array[v_zip], result_limit, result_offset, area_options)
      || jsonb_build_object('location', jsonb_build_object('city', v_loc.city, 'state', v_loc.state, 'zipCode', v_zip));
  elsif search_type = 'address' then
    select * into v_place from public.search_resolve_address(v_query);
    if v_place.resolved_by is null then
      return jsonb_build_object(
        'agents', '[]'::jsonb, 'totalResults', 0, 'location', null,
        'message', 'We could not find that address. Check the spelling, or search by ZIP code or "City, ST".'
      );
    end if;
    return public.search_agents_in_area(v_place.zip_codes, result_limit, result_offset, area_options)
      || jsonb_build_object('location', jsonb_build_object('city', v_place.city, 'state', v_place.state, 'zipCode', v_place.zip_code));
  else
    raise exception 'search_type must be agent, zipcode or address, got %', search_type using errcode = '22023';
  end if;
end;
$$;

comment on function public.search_agents(text, text, integer, integer, jsonb) is
  'The site''s agent search by name, ZIP or address, with the sort and filters of area searches. Service role only (the search-agents function).';

/**
 * public.search_agents() plus its public.search_queries row (without house numbers: log_query), in one call; a
 * failed insert is a WARNING and never fails the search. Returns search_agents()'s answer unchanged.
 */
create function public.search_agents_logged(
  search_query text,
  search_type text,
  result_limit integer,
  result_offset integer,
  log_query text,
  area_options jsonb default null
)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_result jsonb := public.search_agents(search_query, search_type, result_limit, result_offset, area_options);
  v_zip text := v_result #>> '{location,zipCode}';
  v_state text := v_result #>> '{location,state}';
begin
  begin
    insert into public.search_queries (query, search_type, resolved_zip_code, resolved_city, resolved_state, results_count)
    values (
      log_query, search_agents_logged.search_type,
      case when v_zip ~ '^[0-9]{5}$' then v_zip end,
      v_result #>> '{location,city}',
      case when v_state ~ '^[A-Z]{2}$' then v_state end,
      coalesce((v_result ->> 'totalResults')::integer, 0)
    );
  exception when others then
    raise warning 'search_agents_logged: could not log the search: % (SQLSTATE %)', sqlerrm, sqlstate;
  end;
  return v_result;
end;
$$;

comment on function public.search_agents_logged(text, text, integer, integer, text, jsonb) is
  'search_agents() and its search_queries row in one round trip. Service role only (the search-agents function).';

drop function public.search_agents_logged(text, text, integer, integer, text);
drop function public.search_agents(text, text, integer, integer);

revoke execute on function public.search_agents(text, text, integer, integer, jsonb) from public, anon, authenticated;
grant execute on function public.search_agents(text, text, integer, integer, jsonb) to service_role;
revoke execute on function public.search_agents_logged(text, text, integer, integer, text, jsonb) from public, anon, authenticated;
grant execute on function public.search_agents_logged(text, text, integer, integer, text, jsonb) to service_role;
