-- A metrics refresh reads every agent, computes their figures and then writes them (agent_figures, agent_zip_sales and
-- the agents' own totals). An agent deleted in between makes that write fail on its foreign key, and the refresh fails
-- with it, and so does an import that ran the refresh in its own transaction, which then saves nothing.
-- Deleting agents therefore waits for a running refresh, and a refresh that starts meanwhile waits for the delete to
-- commit. The delete takes the refresh's advisory lock shared, so deletes do not wait for each other.

create function private.agents_delete_waits_for_metrics_refresh()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock_shared(hashtext('public.refresh_agent_metrics'));
  return null;
end;
$$;

comment on function private.agents_delete_waits_for_metrics_refresh() is
  'Before a delete on public.agents: waits for a running metrics refresh (its advisory lock, shared), so a refresh never writes figures for an agent deleted while it ran.';

create trigger agents_delete_waits_for_metrics_refresh
  before delete on public.agents
  for each statement execute function private.agents_delete_waits_for_metrics_refresh();

revoke execute on function private.agents_delete_waits_for_metrics_refresh() from public, anon, authenticated;
