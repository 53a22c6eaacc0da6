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
  request_id := private.request_site_build(
    'rebuild requested by ' || coalesce((select u.email from auth.users u where u.id = (select auth.uid())), 'an administrator')
  );
  -- null: no hook is configured, so nothing will rebuild
  if request_id is null then
    raise exception 'No site build hook is configured, so the site cannot be rebuilt from here.' using errcode = '55000';
  end if;
  return request_id;
end;
$$;

comment on function public.request_site_rebuild() is
  'Asks for a rebuild of the static site now (admins only; 42501 otherwise, 55000 when no hook is configured). Returns the webhook request id.';

revoke execute on function public.request_site_rebuild() from public, anon;
grant execute on function public.request_site_rebuild() to authenticated;
