-- search_agents(): the SQL behind the public search (edge function `search-agents`, contract in
-- supabase/functions/_shared/search-contract.ts): agent names (pg_trgm), ZIP codes and addresses.
--
-- Decisions:
--   * security invoker, `set search_path = ''`, execute granted to anon, authenticated and service_role. The
--     functions only read agents, properties and zip_market_benchmarks, which anon may read anyway (RLS
--     "readable by anyone"), so running as the caller gives nobody more than PostgREST already does and leaves no
--     definer function to audit. The edge function calls search_agents() with the anon key.
--   * "Closed sales" are counted exactly as refresh_agent_metrics() counts them: standard_status = 'Closed',
--     sale_price > 0, sale_date inside the metrics window of the latest refresh (agents.metrics_window_start/end
--     of the most recently refreshed row). Before the first refresh: 24 months ending at the latest close date.
--     ZIPs are compared as stored (properties.zip_code), like refresh_agent_metrics() groups them.
--   * Area ranking (zipcode and address searches): closed sales in the searched ZIP(s) desc, then sales volume
--     desc, the same order as local_ranking; area_rank is the rank() in the searched area.
--   * pg_trgm lives in the `extensions` schema (as on hosted Supabase); operators are written
--     operator(extensions.<%) because the functions run with an empty search_path.

create extension if not exists pg_trgm with schema extensions;


-- ---------------------------------------------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------------------------------------------

/**
 * The street part of an address in a comparable form: text before the first comma, lower case, unit designators
 * (#4, Apt 2B, Unit 7, Suite 100) removed, punctuation dropped, USPS suffix and directional abbreviations
 * (Street -> st, Avenue -> ave, North -> n ...), single spaces. '123 Main Street, Apt 4' -> '123 main st'.
 * Immutable: the address index is built on it.
 */
create function public.search_normalize_address(address text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select btrim(regexp_replace(
    regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
    regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
    regexp_replace(regexp_replace(regexp_replace(
      regexp_replace(
        regexp_replace(lower(split_part(address, ',', 1)), '(#|\m(apt|apartment|unit|suite|ste)\M\.?)\s*[a-z0-9-]*', ' ', 'g'),
        '[^a-z0-9 ]+', ' ', 'g'),
      '\mstreet\M', 'st', 'g'), '\mavenue\M', 'ave', 'g'), '\mroad\M', 'rd', 'g'), '\mdrive\M', 'dr', 'g'),
      '\mlane\M', 'ln', 'g'), '\mboulevard\M', 'blvd', 'g'), '\mcourt\M', 'ct', 'g'), '\mplace\M', 'pl', 'g'),
      '\mterrace\M', 'ter', 'g'), '\mcircle\M', 'cir', 'g'), '\mparkway\M', 'pkwy', 'g'), '\mhighway\M', 'hwy', 'g'),
      '\msquare\M', 'sq', 'g'), '\mnorth\M', 'n', 'g'), '\msouth\M', 's', 'g'), '\meast\M', 'e', 'g'), '\mwest\M', 'w', 'g'),
    '\s+', ' ', 'g'));
$$;

comment on function public.search_normalize_address(text) is
  'Comparable street address: first comma part, lower case, no unit, USPS abbreviations (''123 Main Street, Apt 4'' -> ''123 main st''). Used by search_agents() and its index.';

/**
 * The closed-sales window search ranks by: the window of the latest refresh_agent_metrics() run
 * (first and last close date counted, both inclusive); before any refresh, 24 months ending at the latest
 * close date. Both null when there are no closed sales at all.
 */
create function public.search_metrics_window(out window_start date, out window_end date)
language plpgsql
stable
set search_path = ''
as $$
begin
  select a.metrics_window_start, a.metrics_window_end
  into window_start, window_end
  from public.agents a
  where a.metrics_refreshed_at is not null and a.metrics_window_end is not null
  order by a.metrics_refreshed_at desc
  limit 1;
  if window_end is null then
    select max(p.sale_date) into window_end
    from public.properties p
    where p.standard_status = 'Closed' and p.sale_price > 0;
    window_start := (window_end - interval '24 months')::date + 1;
  end if;
end;
$$;

comment on function public.search_metrics_window() is
  'Close-date window (inclusive) of the latest refresh_agent_metrics() run; 24 months to the latest close date before any refresh.';

/** One agent as the search returns it (AgentSearchResult in search-contract.ts). */
create function public.search_agent_json(a public.agents, sales_in_area integer, area_rank integer, match_score numeric)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', a.id, 'name', a.name, 'email', a.email, 'phone', a.phone, 'photo_url', a.photo_url,
    'brokerage', a.brokerage, 'license_number', a.license_number, 'years_experience', a.years_experience,
    'rating', a.rating, 'review_count', a.review_count, 'total_sales', a.total_sales,
    'average_sale_to_list_ratio', a.average_sale_to_list_ratio, 'average_days_on_market', a.average_days_on_market,
    'price_range_min', a.price_range_min, 'price_range_max', a.price_range_max, 'market_share', a.market_share,
    'local_ranking', a.local_ranking, 'total_agents_in_area', a.total_agents_in_area, 'ranking_note', a.ranking_note,
    'service_areas', to_jsonb(a.service_areas), 'city', a.city, 'state', a.state, 'zip_code', a.zip_code,
    'primary_zip_code', a.primary_zip_code, 'sales_in_area', sales_in_area, 'area_rank', area_rank,
    'match_score', match_score
  );
$$;

comment on function public.search_agent_json(public.agents, integer, integer, numeric) is
  'An agents row as search_agents() returns it (AgentSearchResult in supabase/functions/_shared/search-contract.ts).';


-- ---------------------------------------------------------------------------------------------------------------
-- The three searches
-- ---------------------------------------------------------------------------------------------------------------

/**
 * Agents whose name matches `search_query` despite typos or partial names: pg_trgm word_similarity of the query
 * to the best-matching part of the name >= 0.5 (the GIN trigram index on agents.name serves the <% filter).
 * Best first: word similarity, then whole-name similarity (an exact full name beats a longer one), then closed
 * sales, name, id. Returns {agents, totalResults}; match_score is the word similarity 0-1 (3 decimals).
 */
create function public.search_agents_by_name(search_query text, result_limit integer, result_offset integer)
returns jsonb
language sql
stable
set search_path = ''
set pg_trgm.word_similarity_threshold = 0.5
as $$
  with matches as (
    select a.id, extensions.word_similarity(search_query, a.name) as score,
           extensions.similarity(search_query, a.name) as full_score, a.total_sales, a.name
    from public.agents a
    where search_query operator(extensions.<%) a.name
  ),
  page as (
    select m.*, row_number() over (order by m.score desc, m.full_score desc, m.total_sales desc, m.name, m.id) as ord
    from matches m
    order by m.score desc, m.full_score desc, m.total_sales desc, m.name, m.id
    limit result_limit offset result_offset
  )
  select jsonb_build_object(
    'agents', coalesce((
      select jsonb_agg(public.search_agent_json(a, null, null, round(p.score::numeric, 3)) order by p.ord)
      from page p join public.agents a on a.id = p.id
    ), '[]'::jsonb),
    'totalResults', (select count(*) from matches)
  );
$$;

comment on function public.search_agents_by_name(text, integer, integer) is
  'Fuzzy agent-name search (pg_trgm word_similarity >= 0.5), best match first. Returns {agents, totalResults}.';

/**
 * Agents with closed sales in any of `zip_codes` inside the metrics window, ranked by those sales (desc), ties by
 * sales volume (USD, desc), then id. sales_in_area = closed sales in the ZIPs, area_rank = rank() in the area.
 * Returns {agents, totalResults}. Served by properties_closed_zip_sales_idx (index-only scan).
 */
create function public.search_agents_in_area(zip_codes text[], result_limit integer, result_offset integer)
returns jsonb
language sql
stable
set search_path = ''
as $$
  with w as (
    select * from public.search_metrics_window()
  ),
  sales as (
    select p.agent_id, count(*)::integer as sales, sum(p.sale_price) as volume
    from public.properties p
    cross join w
    where p.zip_code = any(zip_codes)
      and p.standard_status = 'Closed'
      and p.sale_price > 0
      and p.sale_date between w.window_start and w.window_end
      and p.agent_id is not null
    group by p.agent_id
  ),
  ranked as (
    select s.*, rank() over (order by s.sales desc, s.volume desc)::integer as area_rank,
           row_number() over (order by s.sales desc, s.volume desc, s.agent_id) as ord
    from sales s
  ),
  page as (
    select * from ranked r order by r.ord limit result_limit offset result_offset
  )
  select jsonb_build_object(
    'agents', coalesce((
      select jsonb_agg(public.search_agent_json(a, p.sales, p.area_rank, null) order by p.ord)
      from page p join public.agents a on a.id = p.agent_id
    ), '[]'::jsonb),
    'totalResults', (select count(*) from sales)
  );
$$;

comment on function public.search_agents_in_area(text[], integer, integer) is
  'Agents ranked by closed sales in the given ZIPs (metrics window), ties by volume. Returns {agents, totalResults}.';

/**
 * City and state of a ZIP: zip_market_benchmarks first, else a sample of the ZIP's properties (city and state of
 * the first one that has both, the mean of their coordinates as the centre). The sample is bounded (50 rows), so
 * a ZIP with thousands of sales costs the same as one with ten. Null fields when nothing is known; `known` says
 * whether the ZIP appears in either table.
 */
create function public.search_zip_location(zip text, out city text, out state text, out latitude double precision,
  out longitude double precision, out known boolean)
language plpgsql
stable
set search_path = ''
as $$
declare
  v_sample record;
begin
  select b.city, b.state, b.latitude::double precision, b.longitude::double precision, true
  into city, state, latitude, longitude, known
  from public.zip_market_benchmarks b
  where b.zip_code = zip;
  known := coalesce(known, false);
  if city is null or state is null or latitude is null or longitude is null then
    select (array_agg(s.city) filter (where s.city is not null and s.state is not null))[1] as city,
           (array_agg(s.state) filter (where s.city is not null and s.state is not null))[1] as state,
           avg(s.latitude::double precision) filter (where s.latitude is not null and s.longitude is not null) as latitude,
           avg(s.longitude::double precision) filter (where s.latitude is not null and s.longitude is not null) as longitude,
           count(*) > 0 as found
    into v_sample
    from (select p.city, p.state, p.latitude, p.longitude from public.properties p where p.zip_code = zip limit 50) s;
    if city is null or state is null then
      city := coalesce(city, v_sample.city);
      state := coalesce(state, v_sample.state);
    end if;
    if latitude is null or longitude is null then
      latitude := v_sample.latitude;
      longitude := v_sample.longitude;
    end if;
    known := known or v_sample.found;
  end if;
end;
$$;

comment on function public.search_zip_location(text) is
  'City, state and centre (degrees) of a ZIP from zip_market_benchmarks, falling back to its properties; known = the ZIP appears in either.';

/**
 * The ZIPs around a point: up to `max_nearby` ZIPs from zip_market_benchmarks (other than `center_zip`) whose
 * centre lies within `radius_miles` (great-circle, miles) of (latitude, longitude), nearest first. The GiST point
 * index picks candidates (planar degrees), the haversine distance orders and cuts them.
 */
create function public.search_nearby_zip_codes(center_zip text, latitude double precision, longitude double precision,
  max_nearby integer default 3, radius_miles double precision default 20)
returns text[]
language sql
stable
set search_path = ''
as $$
  select coalesce(array_agg(n.zip_code order by n.miles), '{}')
  from (
    select c.zip_code, c.miles
    from (
      select b.zip_code,
             3958.8 * 2 * asin(sqrt(
               power(sin(radians(b.latitude::double precision - search_nearby_zip_codes.latitude) / 2), 2)
               + cos(radians(search_nearby_zip_codes.latitude)) * cos(radians(b.latitude::double precision))
                 * power(sin(radians(b.longitude::double precision - search_nearby_zip_codes.longitude) / 2), 2)
             )) as miles
      from public.zip_market_benchmarks b
      where b.latitude is not null and b.longitude is not null
        and b.zip_code is distinct from center_zip
      order by point(b.longitude::double precision, b.latitude::double precision)
               operator(pg_catalog.<->) point(search_nearby_zip_codes.longitude, search_nearby_zip_codes.latitude)
      limit greatest(max_nearby, 0) * 3
    ) c
    where c.miles <= radius_miles
    order by c.miles
    limit greatest(max_nearby, 0)
  ) n
  where search_nearby_zip_codes.latitude is not null and search_nearby_zip_codes.longitude is not null;
$$;

comment on function public.search_nearby_zip_codes(text, double precision, double precision, integer, double precision) is
  'Up to max_nearby ZIPs (zip_market_benchmarks) within radius_miles of a point, nearest first.';

/**
 * Resolves free text to a place, most specific first:
 *   1. a known property: the street part (before the first comma) normalised by search_normalize_address() and
 *      starting with a house number; candidates share the house number (btree prefix range on the normalised
 *      address), must lie in the ZIP and state the text names (if it names them), and the best trigram similarity
 *      >= 0.5 wins, preferring the city the text names;
 *   2. a ZIP inside the text (5 digits, optionally +4, standing alone and not the leading house number) that
 *      zip_market_benchmarks or properties know;
 *   3. "City, ST" / "City ST" (or a bare city name) matched case-insensitively against zip_market_benchmarks
 *      (the city's busiest ZIPs by homes_sold, at most 4), else against properties.
 * resolved_by is 'property', 'zip' or 'city'; no row when nothing matched. zip_codes is the area to rank in:
 * the ZIP and its 3 nearest neighbours within 20 miles for 1 and 2, the city's ZIPs for 3. zip_code is null for
 * a city with several ZIPs.
 */
create function public.search_resolve_address(search_query text)
returns table (resolved_by text, zip_code text, city text, state text, zip_codes text[])
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_text text := btrim(search_query);
  v_zip text;
  v_street text;
  v_number text;
  v_lat double precision;
  v_lon double precision;
  v_prop record;
  v_loc record;
  v_rest text;
  v_parts text[];
  v_last text;
  v_city text;
  v_state text;
  v_zips text[];
begin
  -- the ZIP named in the text: the whole text, or a standalone 5-digit group after the first word
  v_zip := (regexp_match(v_text, '^(\d{5})(-\d{4})?$'))[1];
  if v_zip is null then
    select m[1] into v_zip
    from regexp_matches(coalesce(substring(v_text from '^\S+\s+(.*)$'), ''), '(?:^|[\s,])(\d{5})(?:-\d{4})?(?=$|[\s,])', 'g')
      with ordinality as t(m, n)
    order by n desc
    limit 1;
  end if;

  -- the city and state named in the text: "..., City, ST [ZIP]", "City ST [ZIP]" or a bare "City"
  v_rest := btrim(regexp_replace(v_text, '\s*\m\d{5}(-\d{4})?\M\s*$', ''));
  v_parts := regexp_split_to_array(v_rest, '\s*,\s*');
  v_last := v_parts[cardinality(v_parts)];
  if cardinality(v_parts) >= 2 and v_last ~* '^[a-z]{2}$' then
    v_state := upper(v_last);
    v_city := v_parts[cardinality(v_parts) - 1];
  elsif v_last ~* '^[a-z][a-z .''-]*\s+[a-z]{2}$' then
    v_state := upper(substring(v_last from '([A-Za-z]{2})$'));
    v_city := substring(v_last from '^(.*\S)\s+[A-Za-z]{2}$');
  elsif cardinality(v_parts) = 1 and v_rest ~* '^[a-z][a-z .''-]*$' then
    v_city := v_rest;
  end if;
  v_city := nullif(lower(btrim(regexp_replace(v_city, '\s+', ' ', 'g'))), '');
  if v_city ~ '\d' then
    v_city := null;
  end if;

  -- 1. a known property
  v_street := public.search_normalize_address(v_text);
  v_number := (regexp_match(v_street, '^(\d+[a-z]?) [a-z0-9]'))[1];
  if v_number is not null then
    select p.zip_code, p.city, p.state, p.latitude::double precision as latitude, p.longitude::double precision as longitude
    into v_prop
    from public.properties p
    where public.search_normalize_address(p.address) operator(pg_catalog.~>=~) (v_number || ' ')
      and public.search_normalize_address(p.address) operator(pg_catalog.~<~) (v_number || '!')
      and extensions.similarity(public.search_normalize_address(p.address), v_street) >= 0.5
      and p.zip_code is not null
      and (v_zip is null or p.zip_code = v_zip)
      and (v_state is null or p.state = v_state)
    order by extensions.similarity(public.search_normalize_address(p.address), v_street) desc,
             (lower(p.city) = v_city) desc nulls last,
             p.sale_date desc nulls last, p.id
    limit 1;
    if v_prop.zip_code is not null then
      select * into v_loc from public.search_zip_location(v_prop.zip_code);
      v_lat := coalesce(v_prop.latitude, v_loc.latitude);
      v_lon := coalesce(v_prop.longitude, v_loc.longitude);
      return query select 'property'::text, v_prop.zip_code::text, coalesce(v_loc.city, v_prop.city)::text,
        coalesce(v_loc.state, v_prop.state)::text,
        array[v_prop.zip_code::text] || public.search_nearby_zip_codes(v_prop.zip_code, v_lat, v_lon);
      return;
    end if;
  end if;

  -- 2. a ZIP in the text
  if v_zip is not null then
    select * into v_loc from public.search_zip_location(v_zip);
    if v_loc.known then
      return query select 'zip'::text, v_zip, v_loc.city, v_loc.state,
        array[v_zip] || public.search_nearby_zip_codes(v_zip, v_loc.latitude, v_loc.longitude);
      return;
    end if;
  end if;

  -- 3. the city
  if v_city is null then
    return;
  end if;
  -- a bare city name takes the state where the city is busiest
  if v_state is null then
    select b.state into v_state
    from public.zip_market_benchmarks b
    where lower(b.city) = v_city and b.state is not null
    group by b.state
    order by sum(coalesce(b.homes_sold, 0)) desc, b.state
    limit 1;
  end if;

  select array_agg(z.zip_code order by z.ord), min(z.city)
  into v_zips, city
  from (
    select b.zip_code, b.city, row_number() over (order by b.homes_sold desc nulls last, b.zip_code) as ord
    from public.zip_market_benchmarks b
    where lower(b.city) = v_city and b.state = v_state
    order by ord
    limit 4
  ) z;
  if v_zips is not null then
    return query select 'city'::text, case when cardinality(v_zips) = 1 then v_zips[1] end, city, v_state, v_zips;
    return;
  end if;

  if v_state is not null then
    select p.zip_code, p.city into v_prop
    from public.properties p
    where p.state = v_state and lower(p.city) = v_city and p.zip_code is not null
    limit 1;
    if v_prop.zip_code is not null then
      select * into v_loc from public.search_zip_location(v_prop.zip_code);
      return query select 'city'::text, null::text, v_prop.city::text, v_state,
        array[v_prop.zip_code::text] || public.search_nearby_zip_codes(v_prop.zip_code, v_loc.latitude, v_loc.longitude);
      return;
    end if;
  end if;
end;
$$;

comment on function public.search_resolve_address(text) is
  'Resolves an address to a property, a ZIP in the text or a "City, ST"; returns the place and the ZIPs to rank agents in, or no row.';


-- ---------------------------------------------------------------------------------------------------------------
-- The entry point
-- ---------------------------------------------------------------------------------------------------------------

/**
 * One search, as the search-agents edge function answers it (SearchAgentsResponse without limit/offset):
 *   {agents: AgentSearchResult[], totalResults: integer, location: {city, state, zipCode} | null, message?: text}
 * search_type: 'agent' (fuzzy name), 'zipcode' (a 5-digit ZIP, optionally +4) or 'address' (free text).
 * result_limit 1-50, result_offset 0-10000. Bad arguments raise SQLSTATE 22023 with a message naming the
 * argument. An address that cannot be resolved answers no agents and a message (not an error).
 */
create function public.search_agents(search_query text, search_type text default 'agent', result_limit integer default 20,
  result_offset integer default 0)
returns jsonb
language plpgsql
stable
set search_path = ''
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

  if search_type = 'agent' then
    return public.search_agents_by_name(v_query, result_limit, result_offset) || jsonb_build_object('location', null);
  elsif search_type = 'zipcode' then
    v_zip := (regexp_match(v_query, '^(\d{5})(-\d{4})?$'))[1];
    if v_zip is null then
      raise exception 'search_query must be a 5-digit ZIP code for a zipcode search, got %', v_query using errcode = '22023';
    end if;
    select * into v_loc from public.search_zip_location(v_zip);
    return public.search_agents_in_area(array[v_zip], result_limit, result_offset)
      || jsonb_build_object('location', jsonb_build_object('city', v_loc.city, 'state', v_loc.state, 'zipCode', v_zip));
  elsif search_type = 'address' then
    select * into v_place from public.search_resolve_address(v_query);
    if v_place.resolved_by is null then
      return jsonb_build_object(
        'agents', '[]'::jsonb, 'totalResults', 0, 'location', null,
        'message', 'We could not find that address. Check the spelling, or search by ZIP code or "City, ST".'
      );
    end if;
    return public.search_agents_in_area(v_place.zip_codes, result_limit, result_offset)
      || jsonb_build_object('location', jsonb_build_object('city', v_place.city, 'state', v_place.state, 'zipCode', v_place.zip_code));
  else
    raise exception 'search_type must be agent, zipcode or address, got %', search_type using errcode = '22023';
  end if;
end;
$$;

comment on function public.search_agents(text, text, integer, integer) is
  'Public agent search (name, ZIP, address) for the search-agents edge function; returns {agents, totalResults, location, message?}. Anyone may call it (security invoker over anon-readable tables).';


-- ---------------------------------------------------------------------------------------------------------------
-- Grants: invoker functions over public data; hosted default privileges would grant them anyway, say it explicitly
-- ---------------------------------------------------------------------------------------------------------------

revoke execute on function public.search_normalize_address(text) from public;
revoke execute on function public.search_metrics_window() from public;
revoke execute on function public.search_agent_json(public.agents, integer, integer, numeric) from public;
revoke execute on function public.search_agents_by_name(text, integer, integer) from public;
revoke execute on function public.search_agents_in_area(text[], integer, integer) from public;
revoke execute on function public.search_zip_location(text) from public;
revoke execute on function public.search_nearby_zip_codes(text, double precision, double precision, integer, double precision) from public;
revoke execute on function public.search_resolve_address(text) from public;
revoke execute on function public.search_agents(text, text, integer, integer) from public;

grant execute on function public.search_normalize_address(text) to anon, authenticated, service_role;
grant execute on function public.search_metrics_window() to anon, authenticated, service_role;
grant execute on function public.search_agent_json(public.agents, integer, integer, numeric) to anon, authenticated, service_role;
grant execute on function public.search_agents_by_name(text, integer, integer) to anon, authenticated, service_role;
grant execute on function public.search_agents_in_area(text[], integer, integer) to anon, authenticated, service_role;
grant execute on function public.search_zip_location(text) to anon, authenticated, service_role;
grant execute on function public.search_nearby_zip_codes(text, double precision, double precision, integer, double precision) to anon, authenticated, service_role;
grant execute on function public.search_resolve_address(text) to anon, authenticated, service_role;
grant execute on function public.search_agents(text, text, integer, integer) to anon, authenticated, service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------------------------------------------

-- agent-name search: `query <% name` (word similarity) and similarity ordering
create index agents_name_trgm_idx on public.agents using gin (name extensions.gin_trgm_ops);

-- search_metrics_window(): the latest refreshed row
create index agents_metrics_refreshed_at_idx on public.agents (metrics_refreshed_at desc)
  where metrics_refreshed_at is not null and metrics_window_end is not null;

-- area ranking: closed sales per ZIP in a date window, answered from the index alone (agent_id, sale_price included)
create index properties_closed_zip_sales_idx on public.properties (zip_code, sale_date) include (agent_id, sale_price)
  where standard_status = 'Closed' and sale_price > 0;

-- address resolution: exact and house-number prefix ranges on the normalised street address
create index properties_normalized_address_idx on public.properties (public.search_normalize_address(address) text_pattern_ops);

-- "City, ST" fallback when zip_market_benchmarks does not know the city
create index properties_state_city_idx on public.properties (state, lower(city));

-- "City, ST" and bare city names
create index zip_market_benchmarks_city_state_idx on public.zip_market_benchmarks (lower(city), state);

-- nearest ZIPs (KNN on the centre point, degrees)
create index zip_market_benchmarks_point_idx on public.zip_market_benchmarks
  using gist (point(longitude::double precision, latitude::double precision))
  where latitude is not null and longitude is not null;
