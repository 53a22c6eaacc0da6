-- A correction filed by MLS number alone found only listings of the feeds in the latest metrics refresh: a sale of a
-- feed that refresh did not cover (an older import, a feed added since) was "not in our data".
--
-- Decisions:
--   * private.listing_by_mls_number looks in every feed we hold: properties.source_record_id (the ListingKey each
--     importer keeps), trimmed, as given or upper or lower case, through the (source, source_record_id) key: the
--     feeds are listed by a loose index scan of that key (a few), then each is looked up by the key.
--   * The same MLS number in two feeds is ambiguous: the address the agent gives (any kind may carry one) picks the
--     listing whose address matches (public.search_normalize_address on both); without an address, or when it
--     matches none or several, the filing is refused with a message naming the feeds and asking for the address
--     (PT400, field address). A number that names no listing is still null (the callers say so).
--   * The owner's form shows the address field for every kind (required for a missing sale, as before).
--   * The filing trigger and the decision pass the address; their bodies are otherwise those of
--     20261128950000_apply_sale_corrections_to_figures.sql.

drop function private.listing_by_mls_number(text);

/**
 * The properties.id an MLS number names in our data (ListingKey as source_record_id, in any feed we hold); null when
 * none. When several feeds have it, `address` picks the one at that address. Errors: PT400 (field address) when the
 * number is in several feeds and no address is given, or the address does not single one out.
 */
create function private.listing_by_mls_number(mls_number text, address text default null)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_number text := pg_catalog.btrim(coalesce(mls_number, ''));
  v_address text := public.search_normalize_address(nullif(pg_catalog.btrim(coalesce(address, '')), ''));
  v_ids uuid[];
  v_sources text[];
  v_matching uuid[];
begin
  if v_number = '' then
    return null;
  end if;
  with recursive feeds (source) as (
    select min(p.source) from public.properties p where p.source is not null
    union all
    select (select min(p.source) from public.properties p where p.source > f.source)
      from feeds f
     where f.source is not null
  )
  select coalesce(array_agg(p.id order by p.source, p.id), '{}'),
         coalesce(array_agg(distinct p.source), '{}'),
         coalesce(array_agg(p.id order by p.source, p.id)
                    filter (where v_address is not null and public.search_normalize_address(p.address) = v_address), '{}')
    into v_ids, v_sources, v_matching
    from feeds f
    join public.properties p on p.source = f.source
     and p.source_record_id in (v_number, pg_catalog.upper(v_number), pg_catalog.lower(v_number))
   where f.source is not null;
  if pg_catalog.cardinality(v_ids) = 0 then
    return null;
  end if;
  if pg_catalog.cardinality(v_ids) = 1 then
    return v_ids[1];
  end if;
  if pg_catalog.cardinality(v_matching) = 1 then
    return v_matching[1];
  end if;
  if v_address is null then
    raise exception 'address: More than one listing in our data has MLS number % (feeds: %). Give the address of the sale too, so we can tell which one you mean.',
      v_number, pg_catalog.array_to_string(v_sources, ', ') using errcode = 'PT400';
  end if;
  raise exception 'address: None of the listings with MLS number % in our data (feeds: %) is at that address alone. Check the address of the sale.',
    v_number, pg_catalog.array_to_string(v_sources, ', ') using errcode = 'PT400';
end;
$$;

comment on function private.listing_by_mls_number(text, text) is
  'The properties.id a sale''s MLS number (ListingKey as source_record_id) names in any feed we hold; null when none; the address picks one when several feeds have it (PT400 naming the feeds when it cannot).';
revoke execute on function private.listing_by_mls_number(text, text) from public, anon, authenticated;

/*
 * BEFORE INSERT of a correction through the API: the filer must own the profile (RLS checks it too), the sale (by
 * property_id, or by its MLS number) must be credited to the agent (not_my_sale, wrong_side, wrong_price_date) or not yet on the named side (missing_sale),
 * each kind's fields (a wrong price or date: the right ClosePrice, CloseDate and/or ListPrice) are checked with messages naming them, texts become plain text, the same pending correction is
 * refused, a filer files at most 20 a day, and the sale as our data has it is kept in recorded_*.
 */
create or replace function private.prepare_agent_correction()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_property public.properties%rowtype;
  v_sides text[];
  v_roles text[];
begin
  new.user_id := (select auth.uid());
  new.status := 'pending';
  new.decided_by := null;
  new.decided_at := null;
  new.decision_reason := null;
  if not private.owns_agent(new.user_id, new.agent_id) then
    raise exception 'Only the agent who claimed this profile can file corrections of its record.' using errcode = 'PT403';
  end if;
  new.explanation := private.plain_text(new.explanation, true);
  new.address := private.plain_text(new.address);
  new.listing_number := private.plain_text(new.listing_number);
  if pg_catalog.char_length(new.explanation) > 1000 then
    raise exception 'explanation: Keep the explanation to 1,000 characters.' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(new.listing_number) > 100 then
    raise exception 'listingNumber: An MLS number has at most 100 characters.' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(new.address) > 300 then
    raise exception 'address: Keep the address to 300 characters.' using errcode = 'PT400';
  end if;

  if new.kind = 'missing_sale' then
    if new.listing_number is null then
      raise exception 'listingNumber: Give the MLS number of the sale.' using errcode = 'PT400';
    end if;
    if new.address is null then
      raise exception 'address: Give the address of the sale.' using errcode = 'PT400';
    end if;
    if new.side is null then
      raise exception 'side: Say which side of the sale you had.' using errcode = 'PT400';
    end if;
    new.property_id := private.listing_by_mls_number(new.listing_number, new.address);
    new.close_price := null;
    new.close_date := null;
    new.list_price := null;
    if new.property_id is not null and exists (
      select 1 from private.effective_transaction_sides e
       where e.property_id = new.property_id and e.agent_id = new.agent_id and e.side = new.side) then
      raise exception 'This sale is already credited to you on the % side.', new.side using errcode = 'PT409';
    end if;
  else
    if new.property_id is null and new.listing_number is not null then
      new.property_id := private.listing_by_mls_number(new.listing_number, new.address);
      if new.property_id is null then
        raise exception 'listingNumber: No sale with this MLS number is in our data.' using errcode = 'PT400';
      end if;
    end if;
    if new.property_id is null then
      raise exception 'listingNumber: Pick the sale from your sales, or give its MLS number.' using errcode = 'PT400';
    end if;
    select array_agg(e.side order by e.role), array_agg(e.role order by array_position(array['list', 'co_list', 'buyer', 'co_buyer'], e.role))
      into v_sides, v_roles
      from private.effective_transaction_sides e
     where e.property_id = new.property_id and e.agent_id = new.agent_id;
    if v_roles is null then
      raise exception 'This sale is not credited to you, so there is nothing to correct.' using errcode = 'PT400';
    end if;
    new.recorded_role := v_roles[1];
    if new.kind = 'wrong_side' then
      if new.side is null then
        raise exception 'side: Say which side of the sale you had.' using errcode = 'PT400';
      end if;
      if new.side = all (v_sides) then
        raise exception 'side: You are credited with the % side already; pick the side you had.', new.side using errcode = 'PT400';
      end if;
    else
      new.side := null;
    end if;
    if new.kind <> 'wrong_price_date' then
      new.close_price := null;
      new.close_date := null;
      new.list_price := null;
    end if;
  end if;

  if new.property_id is not null then
    select * into v_property from public.properties p where p.id = new.property_id;
    new.recorded_close_price := v_property.sale_price;
    new.recorded_close_date := v_property.sale_date;
    new.recorded_list_price := v_property.list_price;
    new.address := coalesce(new.address, v_property.address);
    new.listing_number := coalesce(new.listing_number, v_property.source_record_id);
  end if;

  if new.kind = 'wrong_price_date' then
    if new.listing_number is null then
      raise exception 'listingNumber: Give the MLS number of the sale.' using errcode = 'PT400';
    end if;
    if new.close_price is null and new.close_date is null and new.list_price is null then
      raise exception 'closePrice: Give the right close price, close date or list price.' using errcode = 'PT400';
    end if;
    if new.close_date > current_date then
      raise exception 'closeDate: A close date cannot be in the future.' using errcode = 'PT400';
    end if;
    if new.close_price is not distinct from new.recorded_close_price then
      new.close_price := null;
    end if;
    if new.close_date is not distinct from new.recorded_close_date then
      new.close_date := null;
    end if;
    if new.list_price is not distinct from new.recorded_list_price then
      new.list_price := null;
    end if;
    if new.close_price is null and new.close_date is null and new.list_price is null then
      raise exception 'closePrice: That is the close price, close date and list price we have already.' using errcode = 'PT400';
    end if;
  end if;

  if exists (
    select 1 from public.agent_corrections c
     where c.agent_id = new.agent_id and c.kind = new.kind and c.status = 'pending'
       and (c.property_id = new.property_id
            or (new.property_id is null and pg_catalog.lower(c.listing_number) = pg_catalog.lower(new.listing_number)))) then
    raise exception 'You have already filed this correction; it is waiting for review.' using errcode = 'PT409';
  end if;
  perform private.enforce_agent_rate_limit('correction', new.user_id, 20, 86400,
    'You have filed 20 corrections today. Please wait until tomorrow to file more.');
  return new;
end;
$$;

/**
 * An administrator's decision on a pending correction, mailed to the agent with the reason:
 *   'accept': the correction applies (overrides, see private.apply_side_correction and agent_sale_overrides) and the
 *     figures are recomputed at once (refresh_agent_metrics over the window shown); the raw record is not touched;
 *   'reject': it does not apply (reason required).
 * Errors: 42501 not an administrator at aal2; PT404 unknown correction; PT409 not pending, or nothing in our data it
 * can apply to (the message says what); PT400 a missing reason. Returns the correction as stored.
 */
create or replace function public.decide_agent_correction(correction uuid, decision text, reason text default null)
returns public.agent_corrections
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_correction public.agent_corrections%rowtype;
  v_reason text := nullif(pg_catalog.btrim(coalesce(reason, '')), '');
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators decide corrections.' using errcode = '42501';
  end if;
  if decision is null or decision not in ('accept', 'reject') then
    raise exception 'decision must be accept or reject' using errcode = 'PT400';
  end if;
  if pg_catalog.char_length(v_reason) > 1000 then
    raise exception 'reason: Keep the reason to 1,000 characters.' using errcode = 'PT400';
  end if;
  select * into v_correction from public.agent_corrections c where c.id = correction for update;
  if not found then
    raise exception 'No correction has this id.' using errcode = 'PT404';
  end if;
  if v_correction.status <> 'pending' then
    raise exception 'Only a pending correction can be decided; this one is %.', v_correction.status using errcode = 'PT409';
  end if;
  if decision = 'reject' then
    if v_reason is null then
      raise exception 'reason: Give a reason: it is mailed to the agent.' using errcode = 'PT400';
    end if;
    update public.agent_corrections c
       set status = 'rejected', decided_by = (select auth.uid()), decided_at = now(), decision_reason = v_reason
     where c.id = correction
    returning * into v_correction;
    perform private.add_agent_notice(v_correction.user_id, 'correction_rejected', v_correction.agent_id, correction, v_reason,
      jsonb_build_object('kind', v_correction.kind, 'address', v_correction.address, 'listing_number', v_correction.listing_number));
    return v_correction;
  end if;

  -- a missing sale whose listing arrived since it was filed
  if v_correction.kind = 'missing_sale' and v_correction.property_id is null then
    v_correction.property_id := private.listing_by_mls_number(v_correction.listing_number, v_correction.address);
  end if;
  if v_correction.kind <> 'missing_sale' and v_correction.property_id is null then
    raise exception 'The sale is no longer in our data, so the correction cannot apply.' using errcode = 'PT409';
  end if;
  if v_correction.kind = 'wrong_price_date' then
    if exists (select 1 from private.agent_sale_overrides o
                where o.property_id = v_correction.property_id and o.correction_id <> v_correction.id) then
      raise exception 'Another accepted correction already sets the price and date of this sale.' using errcode = 'PT409';
    end if;
    insert into private.agent_sale_overrides (correction_id, property_id, close_price, close_date, list_price)
    values (v_correction.id, v_correction.property_id, v_correction.close_price, v_correction.close_date,
            v_correction.list_price);
  else
    perform private.apply_side_correction(v_correction);
  end if;
  update public.agent_corrections c
     set status = 'accepted', property_id = v_correction.property_id, decided_by = (select auth.uid()),
         decided_at = now(), decision_reason = v_reason
   where c.id = correction
  returning * into v_correction;
  perform private.refresh_figures_for_correction();
  perform private.add_agent_notice(v_correction.user_id, 'correction_accepted', v_correction.agent_id, correction, v_reason,
    jsonb_build_object('kind', v_correction.kind, 'address', v_correction.address, 'listing_number', v_correction.listing_number));
  return v_correction;
end;
$$;
