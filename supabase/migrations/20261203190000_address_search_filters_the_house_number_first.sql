-- An address search with a ZIP normalises only the ZIP's addresses that hold the house number.
--
-- Why: when the exact street is not found, public.search_resolve_address looks for the closest street with the same
-- house number among the ZIP's sales, and normalised every one of them first (public.search_normalize_address: about
-- twenty regular expressions, about 16 microseconds an address): 9.7 ms of a 22.8 ms search for "8194 Cheroy Rd,
-- Sackets harbor, NY 13685" (593 addresses in the ZIP, one with the number) on the national benchmark database.
--
-- What: the ZIP's addresses are first filtered on the house number appearing in the raw address (lower-cased). The
-- normalising lower-cases, turns other characters into spaces and rewrites whole words, so a run of digits and a
-- letter such as "12a" at the start of a normalised address is in the raw one too: the filter drops no candidate.

CREATE OR REPLACE FUNCTION public.search_resolve_address(search_query text)
 RETURNS TABLE(resolved_by text, zip_code text, city text, state text, zip_codes text[])
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
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
    -- the exact normalised street first: one index lookup, no per-row normalising
    select p.zip_code, p.city, p.state, p.latitude::double precision as latitude, p.longitude::double precision as longitude
    into v_prop
    from public.properties p
    where public.search_normalize_address(p.address) = v_street
      and p.zip_code is not null
      and (v_zip is null or p.zip_code = v_zip)
      and (v_state is null or p.state = v_state)
    order by (lower(p.city) = v_city) desc nulls last, p.sale_date desc nulls last, p.id
    limit 1;
    -- else the same house number, closest street: the ZIP and state filters run before the (costly) normalising,
    -- which happens once per remaining candidate (offset 0 keeps the subquery from being flattened)
    -- With a ZIP in the text, the candidates are that ZIP's sales (its index: a few hundred rows): the optional
    -- filter "v_zip is null or ..." could use no index, and a common house number ("1 ...") then read every
    -- address with that number in the country (73 s at 12,000,000 sales).
    if v_prop.zip_code is null and v_zip is not null then
      select c.zip_code, c.city, c.state, c.latitude, c.longitude
      into v_prop
      from (
        select p.zip_code, p.city, p.state, p.latitude::double precision as latitude,
               p.longitude::double precision as longitude, p.sale_date, p.id,
               public.search_normalize_address(p.address) as street
        from public.properties p
        where p.zip_code = v_zip
          and (v_state is null or p.state = v_state)
          -- the house number in the raw address: normalising keeps a run of digits and letters as it is, so an
          -- address without it cannot start with it once normalised, and costs no normalising
          and strpos(lower(p.address), v_number) > 0
        offset 0
      ) c
      where c.street operator(pg_catalog.~>=~) (v_number || ' ')
        and c.street operator(pg_catalog.~<~) (v_number || '!')
        and extensions.similarity(c.street, v_street) >= 0.5
      order by extensions.similarity(c.street, v_street) desc, (lower(c.city) = v_city) desc nulls last,
               c.sale_date desc nulls last, c.id
      limit 1;
    elsif v_prop.zip_code is null and v_city is not null and v_state is not null then
      -- with a city and state in the text, the candidates are that city's sales with the house number: one range of
      -- properties_state_city_address_idx (state, city, normalised street), a few rows even for a common number
      select c.zip_code, c.city, c.state, c.latitude, c.longitude
      into v_prop
      from (
        select p.zip_code, p.city, p.state, p.latitude::double precision as latitude,
               p.longitude::double precision as longitude, p.sale_date, p.id,
               public.search_normalize_address(p.address) as street
        from public.properties p
        where p.state = v_state
          and lower(p.city) = v_city
          and public.search_normalize_address(p.address) operator(pg_catalog.~>=~) (v_number || ' ')
          and public.search_normalize_address(p.address) operator(pg_catalog.~<~) (v_number || '!')
          and p.zip_code is not null
        offset 0
      ) c
      where extensions.similarity(c.street, v_street) >= 0.5
      order by extensions.similarity(c.street, v_street) desc, c.sale_date desc nulls last, c.id
      limit 1;
    elsif v_prop.zip_code is null and v_state is not null then
      -- with a state alone (a named city took the branch above), the addresses with the house number are read in
      -- properties_normalized_address_state_idx (normalised street, state): other states' are passed over in the
      -- index, without reading their rows
      select c.zip_code, c.city, c.state, c.latitude, c.longitude
      into v_prop
      from (
        select p.zip_code, p.city, p.state, p.latitude::double precision as latitude,
               p.longitude::double precision as longitude, p.sale_date, p.id,
               public.search_normalize_address(p.address) as street
        from public.properties p
        where public.search_normalize_address(p.address) operator(pg_catalog.~>=~) (v_number || ' ')
          and public.search_normalize_address(p.address) operator(pg_catalog.~<~) (v_number || '!')
          and p.state = v_state
          and p.zip_code is not null
        offset 0
      ) c
      where extensions.similarity(c.street, v_street) >= 0.5
      order by extensions.similarity(c.street, v_street) desc, c.sale_date desc nulls last, c.id
      limit 1;
    elsif v_prop.zip_code is null then
      select c.zip_code, c.city, c.state, c.latitude, c.longitude
      into v_prop
      from (
        select p.zip_code, p.city, p.state, p.latitude::double precision as latitude,
               p.longitude::double precision as longitude, p.sale_date, p.id,
               public.search_normalize_address(p.address) as street
        from public.properties p
        where public.search_normalize_address(p.address) operator(pg_catalog.~>=~) (v_number || ' ')
          and public.search_normalize_address(p.address) operator(pg_catalog.~<~) (v_number || '!')
          and p.zip_code is not null
        offset 0
      ) c
      where extensions.similarity(c.street, v_street) >= 0.5
      order by extensions.similarity(c.street, v_street) desc, (lower(c.city) = v_city) desc nulls last,
               c.sale_date desc nulls last, c.id
      limit 1;
    end if;
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
$function$;
