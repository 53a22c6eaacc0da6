-- pg_cron stand-in: the same cron.schedule(job_name, schedule, command) / cron.unschedule(job_name) signatures and
-- cron.job table, so a migration that schedules a job runs unchanged here and on hosted Supabase. The jobs are run
-- by supabase/local/cron.ts; it understands pg_cron's interval form ('30 seconds'), '* * * * *' and '*/N * * * *'.
-- Run by the local stack only (supabase/local/stack.ts), not by the hosted-like migration test: a hosted project
-- without pg_cron enabled has no cron schema.
create schema if not exists cron;
create table if not exists cron.job (
  jobid bigserial primary key,
  jobname text not null unique,
  schedule text not null,
  command text not null,
  active boolean not null default true
);
revoke all on schema cron from public, anon, authenticated;
revoke all on cron.job from public, anon, authenticated;

create or replace function cron.schedule(job_name text, schedule text, command text)
returns bigint
language sql
security definer
set search_path = ''
as $$
  insert into cron.job (jobname, schedule, command) values (job_name, schedule, command)
  on conflict (jobname) do update set schedule = excluded.schedule, command = excluded.command, active = true
  returning jobid;
$$;

create or replace function cron.unschedule(job_name text)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with removed as (delete from cron.job where jobname = job_name returning 1) select exists (select 1 from removed);
$$;
revoke execute on all functions in schema cron from public, anon, authenticated;
