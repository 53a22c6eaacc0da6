-- A rebuild request no longer waits for another open transaction's request (found by CI, stop 27: an import failed
-- with a deadlock).
--
-- private.request_site_build() updated the one row of private.site_build_settings (last_requested_at), and the row
-- lock lasted until the requesting transaction ended. An import applies its rows in one transaction: its agents
-- statement fires the site-rebuild trigger (a statement trigger fires even when no agent row changed), so it held
-- that lock, then waited in refresh_agent_metrics() for the refresh lock (pg_advisory_xact_lock). A refresh running
-- meanwhile held the refresh lock and, updating agents, fired the same trigger and waited for the settings row:
-- a deadlock, and the import was rolled back. Any two transactions requesting rebuilds also queued behind each
-- other until the first committed.
--
-- Now the update skips the row when another transaction holds it. last_requested_at only tells
-- private.request_site_build_if_due() which scheduled posts went live after the last request. Skipping leaves it
-- earlier than it could be, never later, and that transaction sets it when it commits. The worst case is one extra
-- rebuild for a post that was already live, never a missed one. The webhook itself is sent exactly as before.

create or replace function private.request_site_build(reason text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  request_id bigint;
begin
  request_id := private.send_webhook(
    'site_build', jsonb_build_object('reason', left(reason, 2000), 'source', 'database webhook'));
  if request_id is null then
    return null;
  end if;
  -- skip locked: another open transaction is requesting a rebuild right now and records the time itself
  update private.site_build_settings s set last_requested_at = now()
   where s.id and s.id in (select l.id from private.site_build_settings l where l.id for update skip locked);
  if (select builder from private.site_build_settings where id) = 'build_hook' then
    insert into public.site_builds (status, trigger_reason) values ('requested', left(reason, 2000));
  end if;
  return request_id;
end;
$$;
