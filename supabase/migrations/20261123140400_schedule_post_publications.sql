-- A post published with a future published_at is scheduled: the public RLS policy hides it until its time, but the
-- static site only shows it after a rebuild, and nothing changes in the database when the time comes. A job run
-- every 30 seconds asks for a rebuild when scheduled posts became live since its previous run: pg_cron on hosted
-- Supabase, the stand-in's cron (supabase/local/cron.ts, same cron.schedule call) locally.

create table private.scheduled_publication_checks (
  id boolean primary key default true check (id),
  -- posts whose published_at is after this and not after now() went live since the previous run
  checked_until timestamptz not null default now()
);

comment on table private.scheduled_publication_checks is 'One row: how far private.rebuild_for_due_posts() has looked.';
alter table private.scheduled_publication_checks enable row level security;
revoke all on private.scheduled_publication_checks from public, anon, authenticated;
insert into private.scheduled_publication_checks (id) values (true);

create function private.rebuild_for_due_posts()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  since timestamptz;
  until timestamptz := clock_timestamp();
  reasons text[];
begin
  -- one run at a time; a second concurrent run waits and then sees nothing new
  select checked_until into since from private.scheduled_publication_checks where id for update;
  select array_agg('scheduled post went live: ' || p.slug order by p.published_at) into reasons
    from public.blog_posts p
   where p.status = 'published' and p.published_at > since and p.published_at <= until
     -- saved before its time (a scheduled post); a post published now already fired the webhook when it was saved
     and p.published_at > p.updated_at;
  update private.scheduled_publication_checks set checked_until = until where id;
  if reasons is not null then
    perform private.request_site_build(private.summarize_site_changes(reasons));
  end if;
  return coalesce(cardinality(reasons), 0);
end;
$$;

comment on function private.rebuild_for_due_posts() is
  'Asks for a site rebuild when scheduled posts went live since the previous run; returns how many did. Run every 30 s by cron.';
revoke execute on function private.rebuild_for_due_posts() from public, anon, authenticated;

do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    create extension if not exists pg_cron;
  end if;
  -- pg_cron (hosted) or the stand-in's cron schema (local); neither: nothing schedules it (plain Postgres)
  if to_regprocedure('cron.schedule(text,text,text)') is not null then
    perform cron.schedule('rebuild-for-due-posts', '30 seconds', 'select private.rebuild_for_due_posts()');
  end if;
end
$$;
