-- the compare tray of a signed-in visitor (up to 4 agents, in the order picked), so it follows them to another
-- browser; visitors who are not signed in keep it in localStorage only

create table public.compare_lists (
  user_id uuid primary key references auth.users (id) on delete cascade,
  agent_ids uuid[] not null default '{}',
  updated_at timestamptz not null default now(),
  constraint compare_lists_agent_ids_check
    check (cardinality(agent_ids) <= 4 and array_position(agent_ids, null) is null)
);

comment on table public.compare_lists is
  'The compare tray of a signed-in visitor: up to 4 agent ids in the order picked. One row per user, read and written only by that user. Deleted with the account.';
comment on column public.compare_lists.agent_ids is
  'Agent ids, at most 4, no nulls; an agent removed later is simply not found by the compare view.';

alter table public.compare_lists enable row level security;

create policy "Users read their compare list" on public.compare_lists
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Users create their compare list" on public.compare_lists
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "Users change their compare list" on public.compare_lists
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "Users remove their compare list" on public.compare_lists
  for delete to authenticated using (user_id = (select auth.uid()));

revoke all on public.compare_lists from public, anon, authenticated;
grant select, insert, update, delete on public.compare_lists to authenticated;
grant select, insert, update, delete on public.compare_lists to service_role;

create trigger compare_lists_set_updated_at before update on public.compare_lists
  for each row execute function public.set_updated_at();
