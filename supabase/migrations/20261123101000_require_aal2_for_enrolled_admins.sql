-- Security issue (admin MFA): an administrator who has a verified TOTP factor must have stepped up to aal2 before
-- any admin-only policy lets them through; an aal1 session of that user (password only) is treated as not admin.
-- Supabase's MFA guide enforces this with a restrictive policy comparing the JWT's aal with the user's verified
-- factors; every admin policy here goes through public.is_admin(), so the same comparison lives there once and
-- covers blog_posts, report_requests, the CRM, analytics and the AI functions (which call is_admin()) alike.
-- Users without a verified factor keep working at aal1.

create or replace function public.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.user_roles
    where user_id = (select auth.uid())
      and role = 'admin'
  )
  and (
    coalesce((select auth.jwt() ->> 'aal'), 'aal1') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
      where f.user_id = (select auth.uid()) and f.status = 'verified'
    )
  );
$$;

comment on function public.is_admin() is
  'True when the calling JWT subject is listed in public.user_roles with role admin and, if they have a verified MFA factor, the JWT is aal2. Used by RLS policies and by the admin app (rpc is_admin) to gate screens.';

revoke execute on function public.is_admin() from public;
grant execute on function public.is_admin() to anon, authenticated, service_role;
