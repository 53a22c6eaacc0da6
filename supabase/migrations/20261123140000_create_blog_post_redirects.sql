-- Editing a live post's slug must not break links to it: the old slug keeps answering with a redirect to the new
-- address. The trigger records old slugs; the static site builds one redirect page per row (src/pages/blog/[slug].astro).

create table public.blog_post_redirects (
  -- the slug that used to be the post's address (/blog/<old_slug>)
  old_slug text primary key check (old_slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(old_slug) <= 200),
  post_id uuid not null references public.blog_posts (id) on delete cascade,
  created_at timestamptz not null default now()
);

comment on table public.blog_post_redirects is
  'Old slugs of live posts whose slug was edited; /blog/<old_slug> redirects to the post. Anyone reads the redirects of live posts; written by trigger.';

create index blog_post_redirects_post_id_idx on public.blog_post_redirects (post_id);

alter table public.blog_post_redirects enable row level security;

revoke all on public.blog_post_redirects from anon, authenticated;
grant select on public.blog_post_redirects to anon, authenticated;
grant delete on public.blog_post_redirects to authenticated;
grant all on public.blog_post_redirects to service_role;

create policy "Redirects of live posts are readable by anyone" on public.blog_post_redirects
  for select to anon, authenticated
  using (exists (
    select 1 from public.blog_posts p
     where p.id = post_id and p.status = 'published' and p.published_at <= now()
  ));
create policy "Admins read every redirect" on public.blog_post_redirects
  for select to authenticated
  using ((select public.is_admin()));
create policy "Admins delete redirects" on public.blog_post_redirects
  for delete to authenticated
  using ((select public.is_admin()));

-- a slug that a post (re)claims can no longer redirect elsewhere; a live post's old slug starts redirecting
create function private.record_blog_post_redirect()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.blog_post_redirects where old_slug = new.slug;
  if TG_OP = 'UPDATE'
     and old.slug is distinct from new.slug
     and old.status = 'published' and old.published_at <= now() then
    insert into public.blog_post_redirects (old_slug, post_id) values (old.slug, new.id)
      on conflict (old_slug) do update set post_id = excluded.post_id, created_at = now();
  end if;
  return null;
end;
$$;

revoke execute on function private.record_blog_post_redirect() from public, anon, authenticated;

create trigger blog_posts_record_redirect
  after insert or update of slug on public.blog_posts
  for each row execute function private.record_blog_post_redirect();
