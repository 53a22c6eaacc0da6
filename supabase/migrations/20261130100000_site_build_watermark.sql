-- The local builder renders only what changed since the build being served (a data refresh that changed 1 % of the
-- agents re-renders those pages through the site's own worker instead of running a whole static build). It needs a
-- watermark it can trust: a page version such that every version at or below it is committed and visible, and every
-- later change gets a higher one.
--
-- Page versions come from one sequence (private.page_version_seq), taken inside the transactions that write
-- public.agent_page_versions and public.zip_page_versions. A transaction that has taken a version holds ROW EXCLUSIVE
-- on the table it wrote; SHARE mode conflicts with it, so taking SHARE on both tables waits until every such
-- transaction has committed or rolled back. The sequence's last value read then is the watermark: everything at or
-- below it is settled, and the sequence only grows. The lock is released when this function's transaction ends (it
-- reads one value) and blocks no reader. It waits at most 5 s (lock_timeout): writers queue behind a waiting SHARE
-- request, so waiting out a long import would hold up every page-version write; past 5 s it fails with 55P03 and the
-- builder makes a static build instead.

create function public.site_build_watermark()
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
set lock_timeout = '5s'
as $$
declare
  mark bigint;
begin
  lock table public.agent_page_versions, public.zip_page_versions in share mode;
  select last_value into mark from private.page_version_seq;
  return mark;
end;
$$;

comment on function public.site_build_watermark() is
  'The page-version watermark of a site build: waits for every transaction that has written a page version to finish, then returns the sequence''s last value. Every page version at or below it is committed; every later change gets a higher one. For the site builder (service_role) only.';

revoke execute on function public.site_build_watermark() from public, anon, authenticated;
grant execute on function public.site_build_watermark() to service_role;
