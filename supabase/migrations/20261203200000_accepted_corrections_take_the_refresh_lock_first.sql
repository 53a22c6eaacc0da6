-- Accepting a correction waits for a running metrics refresh before it writes anything.
--
-- Why: accepting a correction writes first (the override row, whose triggers give every agent of the sale new page
-- versions and queue their figures) and then refreshes the figures, which takes the refresh's advisory lock. A
-- refresh already running holds that lock and, when it gives the same pages (or their city pages) new versions,
-- waits for the rows the decision wrote: each waited for the other, PostgreSQL cancelled the decision as a deadlock
-- and the administrator saw "Could not record the decision". Taking the lock before the first write orders the two:
-- the decision waits for the refresh, then runs whole.

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
  -- an accepted correction ends in a metrics refresh: wait for a running one before writing, never while holding rows
  -- it may need
  if decision = 'accept' then
    perform pg_advisory_xact_lock(hashtext('public.refresh_agent_metrics'));
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
