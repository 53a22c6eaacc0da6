-- Every administrator works at aal2: a password alone (aal1) no longer passes public.is_admin(), whether or not the
-- account has enrolled a factor yet. The admin app walks an administrator without a factor through enrolling an
-- authenticator app at their first sign-in (enrolling the first factor needs only aal1; GoTrue asks for aal2 to add
-- another). Every admin policy and admin SQL function goes through is_admin(), so this one definition covers
-- blog_posts, report_requests, the CRM, analytics, storage and the admin-only functions alike.

create or replace function public.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select auth.jwt() ->> 'aal'), 'aal1') = 'aal2'
     and exists (
       select 1
         from public.user_roles
        where user_id = (select auth.uid())
          and role = 'admin'
     );
$$;

comment on function public.is_admin() is
  'True when the calling JWT is aal2 (stepped up with an authenticator code) and its subject is listed in public.user_roles with role admin. Used by RLS policies, the admin SQL functions and the admin app (rpc is_admin) to gate screens.';

revoke execute on function public.is_admin() from public;
grant execute on function public.is_admin() to anon, authenticated, service_role;
