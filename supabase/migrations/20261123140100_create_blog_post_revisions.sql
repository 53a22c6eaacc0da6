-- Every save of a post keeps a revision (who, when, what) that the editor can show and restore.

create table public.blog_post_revisions (
  id bigint generated always as identity primary key,
  post_id uuid not null references public.blog_posts (id) on delete cascade,
  -- the admin who saved; null for saves by the service role (AI generation, imports)
  saved_by uuid references auth.users (id) on delete set null,
  saved_at timestamptz not null default now(),
  status text not null check (status in ('draft', 'published')),
  -- the editable columns as saved: title, slug, content, excerpt, featured_image_url, category_id, meta_title,
  -- meta_description, location, hack_density_score, unique_insights, insights, published_at
  snapshot jsonb not null check (jsonb_typeof(snapshot) = 'object')
);

comment on table public.blog_post_revisions is
  'One row per save of a blog post, written by trigger. Admins read them and restore one by saving its snapshot.';

create index blog_post_revisions_post_id_saved_at_idx on public.blog_post_revisions (post_id, saved_at desc);
create index blog_post_revisions_saved_by_idx on public.blog_post_revisions (saved_by);

alter table public.blog_post_revisions enable row level security;

revoke all on public.blog_post_revisions from anon, authenticated;
grant select on public.blog_post_revisions to authenticated;
grant all on public.blog_post_revisions to service_role;

create policy "Admins read post revisions" on public.blog_post_revisions
  for select to authenticated
  using ((select public.is_admin()));

create function private.record_blog_post_revision()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  snapshot jsonb := jsonb_build_object(
    'title', new.title, 'slug', new.slug, 'content', new.content, 'excerpt', new.excerpt,
    'featured_image_url', new.featured_image_url, 'category_id', new.category_id, 'meta_title', new.meta_title,
    'meta_description', new.meta_description, 'location', new.location, 'hack_density_score', new.hack_density_score,
    'unique_insights', new.unique_insights, 'insights', to_jsonb(new.insights), 'published_at', new.published_at
  );
  previous jsonb;
begin
  -- a save that changed nothing the editor holds (e.g. only status) still counts when the status moved
  select r.snapshot || jsonb_build_object('status', r.status) into previous
    from public.blog_post_revisions r where r.post_id = new.id order by r.id desc limit 1;
  if previous is not null and previous = snapshot || jsonb_build_object('status', new.status) then
    return null;
  end if;
  insert into public.blog_post_revisions (post_id, saved_by, status, snapshot)
  values (new.id, (select auth.uid()), new.status, snapshot);
  return null;
end;
$$;

revoke execute on function private.record_blog_post_revision() from public, anon, authenticated;

create trigger blog_posts_record_revision
  after insert or update on public.blog_posts
  for each row execute function private.record_blog_post_revision();
