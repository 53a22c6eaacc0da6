-- A statement on agents or ZIP benchmarks asks for a site build only when it changed a row. Statement triggers fire
-- even for statements that match nothing, and many do: deleting an account clears an agent ownership nobody had, a
-- metrics refresh updates the agents whose figures moved (often none), a clean-up deletes agents that are gone. Each
-- asked for a full build, so the builder rarely went idle and the admin's top bar rarely said Live. The triggers now
-- read the statement's transition table (the rows it inserted, updated or deleted) and stay quiet when it is empty.

create or replace function private.agent_data_site_webhook()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    if not exists (select 1 from old_rows) then
      return null;
    end if;
  elsif not exists (select 1 from new_rows) then
    return null;
  end if;
  perform private.request_site_build(format('agent data changed: %s %s', tg_table_name, lower(tg_op)));
  return null;
end;
$$;

comment on function private.agent_data_site_webhook() is
  'Statement trigger: asks for a site build (private.request_site_build) after a statement inserted, updated or deleted at least one row of agents or zip_market_benchmarks (its transition table new_rows or old_rows); a statement that changed no row asks for nothing.';

drop trigger agents_site_webhook_insert on public.agents;
drop trigger agents_site_webhook_update on public.agents;
drop trigger agents_site_webhook_delete on public.agents;
drop trigger zip_market_benchmarks_site_webhook on public.zip_market_benchmarks;

create trigger agents_site_webhook_insert after insert on public.agents
  referencing new table as new_rows for each statement execute function private.agent_data_site_webhook();
create trigger agents_site_webhook_update after update on public.agents
  referencing new table as new_rows for each statement execute function private.agent_data_site_webhook();
create trigger agents_site_webhook_delete after delete on public.agents
  referencing old table as old_rows for each statement execute function private.agent_data_site_webhook();
create trigger zip_market_benchmarks_site_webhook_insert after insert on public.zip_market_benchmarks
  referencing new table as new_rows for each statement execute function private.agent_data_site_webhook();
create trigger zip_market_benchmarks_site_webhook_update after update on public.zip_market_benchmarks
  referencing new table as new_rows for each statement execute function private.agent_data_site_webhook();
create trigger zip_market_benchmarks_site_webhook_delete after delete on public.zip_market_benchmarks
  referencing old table as old_rows for each statement execute function private.agent_data_site_webhook();
