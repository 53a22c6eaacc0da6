-- The admin's Builds page has a "Rebuild now" button: an RPC that admins (only) may call, sending the same
-- webhook as a publish (private.request_site_build).

create function public.request_site_rebuild()
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  request_id bigint;
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators may rebuild the site.' using errcode = '42501';
  end if;
  if not exists (select 1 from private.site_build_settings where id and hook_url is not null) then
    raise exception 'No site build hook is configured (private.site_build_settings.hook_url).' using errcode = '55000';
  end if;
  request_id := private.request_site_build(
    'rebuild requested by ' || coalesce((select u.email from auth.users u where u.id = (select auth.uid())), 'an administrator')
  );
  return request_id;
end;
$$;

comment on function public.request_site_rebuild() is
  'Asks for a rebuild of the static site now (admins only; 42501 otherwise, 55000 when no hook is configured). Returns the webhook request id.';

revoke execute on function public.request_site_rebuild() from public, anon;
grant execute on function public.request_site_rebuild() to authenticated;
