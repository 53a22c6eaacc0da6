-- agents a signed-in visitor saved with the heart on a result card, profile, ZIP or city page; listed on /account

create table public.saved_agents (
  user_id uuid not null references auth.users (id) on delete cascade,
  agent_id uuid not null references public.agents (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, agent_id)
);

comment on table public.saved_agents is
  'Agents a signed-in visitor saved (the heart). Each user reads, adds and removes only their own rows; operators do not read them. Deleted with the account.';
comment on column public.saved_agents.created_at is 'When the agent was saved.';

-- the primary key serves the policies (user_id first); agent_id needs its own index for the cascade from agents
create index saved_agents_agent_id_idx on public.saved_agents (agent_id);

alter table public.saved_agents enable row level security;

create policy "Users read their saved agents" on public.saved_agents
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Users save agents for themselves" on public.saved_agents
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "Users remove their saved agents" on public.saved_agents
  for delete to authenticated using (user_id = (select auth.uid()));

revoke all on public.saved_agents from public, anon, authenticated;
grant select, insert, delete on public.saved_agents to authenticated;
grant select, insert, update, delete on public.saved_agents to service_role;

-- a bound on what one account can store: saving is a click, and a script could click forever
create function public.limit_saved_agents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select count(*) from public.saved_agents where user_id = new.user_id) >= 500 then
    raise exception 'You can save at most 500 agents. Remove some on your account page first.'
      using errcode = 'P0001';
  end if;
  return new;
end;
$$;

comment on function public.limit_saved_agents() is 'Refuses a 501st saved agent of one user (P0001, answered as 400).';
revoke execute on function public.limit_saved_agents() from public, anon, authenticated;

create trigger saved_agents_limit before insert on public.saved_agents
  for each row execute function public.limit_saved_agents();
