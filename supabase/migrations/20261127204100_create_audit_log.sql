-- Who changed what, when: every write a signed-in user makes through the API (only administrators get past RLS on
-- these tables) is recorded with the values before and after, and so is every change of user_roles whoever makes
-- it. Rows are written only by the trigger; admins read them in the admin app's Audit Log; nobody (the service role
-- included) may change or delete them through the API.

create table public.audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor_id uuid references auth.users (id) on delete set null,
  actor_email text,
  table_name text not null,
  row_id text not null,
  action text not null check (action in ('insert', 'update', 'delete', 'trash', 'restore')),
  before jsonb,
  after jsonb
);

comment on table public.audit_log is
  'Admin writes: who (actor), what (table, row, action: insert, update, delete, trash = moved to the trash, restore), when, and the values before and after. Written by private.record_audit_entry(); admins read; append-only.';
comment on column public.audit_log.actor_id is 'The signed-in user whose request made the change (null: a database session, e.g. the SQL editor).';
comment on column public.audit_log.actor_email is 'The actor''s email at the time, kept if the user is deleted later.';
comment on column public.audit_log.row_id is 'The changed row''s id (user_roles: the user id; blog_post_redirects: the old slug).';
comment on column public.audit_log.before is
  'The row before the change: the whole row for delete and trash, the changed columns for update and restore, null for insert.';
comment on column public.audit_log.after is
  'The row after the change: the whole row for insert and restore, the changed columns for update and trash, null for delete.';

-- the admin page lists newest first and filters by table and row; actors are looked up on user deletion
create index audit_log_at_idx on public.audit_log (at desc);
create index audit_log_table_row_idx on public.audit_log (table_name, row_id, at desc);
create index audit_log_actor_id_idx on public.audit_log (actor_id);

alter table public.audit_log enable row level security;
create policy "Admins read the audit log" on public.audit_log
  for select to authenticated using ((select public.is_admin()));
revoke all on public.audit_log from public, anon, authenticated, service_role;
grant select on public.audit_log to authenticated, service_role;

/*
 * AFTER INSERT, UPDATE or DELETE, for each row: records the change in public.audit_log when a signed-in user made
 * it (auth.uid() set), or always for user_roles. An update that only moves deleted_at is recorded as trash or
 * restore; an update that changes nothing is not recorded.
 */
create function private.record_audit_entry()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := (select auth.uid());
  old_row jsonb := case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end;
  new_row jsonb := case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end;
  row_data jsonb := coalesce(new_row, old_row);
  changed text[];
  entry_action text := lower(tg_op);
  entry_before jsonb;
  entry_after jsonb;
begin
  if actor is null and tg_table_name <> 'user_roles' then
    return null;
  end if;
  if tg_op = 'UPDATE' then
    select array_agg(key) into changed
      from jsonb_each(new_row) n
     where n.value is distinct from old_row -> n.key and n.key <> 'updated_at';
    if changed is null then
      return null;
    end if;
    entry_before := (select jsonb_object_agg(key, old_row -> key) from unnest(changed) key);
    entry_after := (select jsonb_object_agg(key, new_row -> key) from unnest(changed) key);
    if 'deleted_at' = any (changed) then
      if old_row ->> 'deleted_at' is null then
        entry_action := 'trash';
        entry_before := old_row;
      else
        entry_action := 'restore';
        entry_after := new_row;
      end if;
    end if;
  elsif tg_op = 'INSERT' then
    entry_after := new_row;
  else
    entry_before := old_row;
  end if;
  insert into public.audit_log (actor_id, actor_email, table_name, row_id, action, before, after)
  values (
    actor,
    (select u.email from auth.users u where u.id = actor),
    tg_table_name,
    coalesce(row_data ->> 'id', row_data ->> 'user_id', row_data ->> 'old_slug', ''),
    entry_action,
    entry_before,
    entry_after
  );
  return null;
end;
$$;

comment on function private.record_audit_entry() is
  'Records a signed-in user''s insert, update or delete (and every user_roles change) in public.audit_log.';
revoke execute on function private.record_audit_entry() from public, anon, authenticated, service_role;

-- every table an administrator writes through the API (only when a user's JWT is set, so imports, metric refreshes
-- and the functions' service-role writes skip the trigger altogether), and every change of the role table
do $$
declare
  audited text;
begin
  foreach audited in array array[
    'agents', 'properties', 'blog_posts', 'blog_categories', 'blog_post_redirects', 'report_requests',
    'lead_notes', 'trending_topics', 'content_generation_jobs', 'newsletter_subscriptions'
  ] loop
    execute format(
      'create trigger %I after insert or update or delete on public.%I for each row when (auth.uid() is not null) execute function private.record_audit_entry()',
      audited || '_audit', audited);
  end loop;
end
$$;

create trigger user_roles_audit after insert or update or delete on public.user_roles
  for each row execute function private.record_audit_entry();
