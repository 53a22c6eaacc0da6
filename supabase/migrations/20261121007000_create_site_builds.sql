-- Publishing rebuilds the static site. A change that alters what the public site shows (a post published,
-- unpublished, deleted while live or edited while live; a category created, renamed or deleted) fires a database
-- webhook: net.http_post to the URL in private.site_build_settings. The same SQL runs on hosted Supabase (real
-- pg_net) and locally (the pg_net stand-in in supabase/local/, sent after commit by supabase/local/webhooks.ts).
--
--   * locally `npm start` points the hook at its own builder (scripts/lib/site-builder.ts) with a shared secret
--     header; the builder records its builds in public.site_builds;
--   * in production the hook is the static host's build hook (Netlify, Vercel or Cloudflare Pages), set once with
--     SQL (see README "Deploy"); the trigger then records a 'requested' row, because the host reports nothing back.
--
-- Draft edits, saves that change no public column and scheduled posts whose time has not come fire nothing.


-- ---------------------------------------------------------------------------------------------------------------
-- pg_net on hosted Supabase (the local stack provides the same net.http_post without the extension)
-- ---------------------------------------------------------------------------------------------------------------

do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_net') then
    create extension if not exists pg_net;
  end if;
end
$$;


-- ---------------------------------------------------------------------------------------------------------------
-- private.site_build_settings: where the hook goes (never exposed through the API)
-- ---------------------------------------------------------------------------------------------------------------

-- the private schema is not in the API's exposed schemas, and visitors get no usage on it either
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

create table private.site_build_settings (
  -- a single row: the primary key can only be true
  id boolean primary key default true check (id),
  -- null turns the webhook off (a fresh database, tests that do not want builds)
  hook_url text check (hook_url ~ '^https?://'),
  -- sent as the X-Site-Build-Secret header when set; a static host's build hook carries its secret in the URL
  secret text check (char_length(secret) between 16 and 200),
  -- 'local': the builder reports in public.site_builds; 'build_hook': nobody reports, so the trigger records the request
  builder text not null default 'build_hook' check (builder in ('local', 'build_hook')),
  updated_at timestamptz not null default now()
);

comment on table private.site_build_settings is
  'Where the site-rebuild webhook goes: one row. Set by `npm start` locally and by hand (SQL editor) in production. No API access.';

alter table private.site_build_settings enable row level security;
revoke all on private.site_build_settings from public, anon, authenticated;

insert into private.site_build_settings (id) values (true);


-- ---------------------------------------------------------------------------------------------------------------
-- public.site_builds: what the admin's top bar shows
-- ---------------------------------------------------------------------------------------------------------------

create table public.site_builds (
  id bigint generated always as identity primary key,
  -- requested: sent to a static host's build hook (its outcome is not known here); queued -> building ->
  -- succeeded | failed: the local builder's own builds
  status text not null default 'queued' check (status in ('requested', 'queued', 'building', 'succeeded', 'failed')),
  trigger_reason text not null check (char_length(trigger_reason) between 1 and 2000),
  requested_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  -- the last lines of the build's output, kept for every finished build so a failure can be read in the admin
  log_tail text check (char_length(log_tail) <= 20000),
  constraint site_builds_started_when_building check (status not in ('building', 'succeeded', 'failed') or started_at is not null),
  constraint site_builds_finished_when_done check (status not in ('succeeded', 'failed') or finished_at is not null)
);

comment on table public.site_builds is
  'Rebuilds of the static public site: one row per build (local builder) or per build-hook request (production). Admins read; service_role (the builder) and the webhook trigger write.';
comment on column public.site_builds.trigger_reason is 'Why the build was asked for, e.g. ''post published: my-slug''; coalesced requests are joined with ''; ''.';
comment on column public.site_builds.log_tail is 'Last lines of the build output (at most 20,000 characters).';

-- the top bar reads the newest rows
create index site_builds_requested_at_idx on public.site_builds (requested_at desc);

alter table public.site_builds enable row level security;

revoke all on public.site_builds from anon, authenticated;
grant select on public.site_builds to authenticated;
grant all on public.site_builds to service_role;

create policy "Admins read site builds" on public.site_builds
  for select to authenticated
  using ((select public.is_admin()));


-- ---------------------------------------------------------------------------------------------------------------
-- private.request_site_build(reason): sends the webhook
-- ---------------------------------------------------------------------------------------------------------------

create function private.request_site_build(reason text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings private.site_build_settings;
  headers jsonb := '{"Content-Type": "application/json"}'::jsonb;
  request_id bigint;
begin
  select * into settings from private.site_build_settings where id;
  if settings.hook_url is null then
    return null;
  end if;
  if settings.secret is not null then
    headers := headers || jsonb_build_object('X-Site-Build-Secret', settings.secret);
  end if;
  request_id := net.http_post(
    url := settings.hook_url,
    body := jsonb_build_object('reason', left(reason, 2000), 'source', 'database webhook'),
    headers := headers,
    timeout_milliseconds := 5000
  );
  if settings.builder = 'build_hook' then
    insert into public.site_builds (status, trigger_reason) values ('requested', left(reason, 2000));
  end if;
  return request_id;
end;
$$;

comment on function private.request_site_build(text) is
  'Posts {reason, source} to private.site_build_settings.hook_url (with X-Site-Build-Secret when a secret is set) through net.http_post; a no-op when no hook is configured. Returns the pg_net request id or null.';

revoke execute on function private.request_site_build(text) from public, anon, authenticated;

-- 'post published: a; post edited: b' or, for a bulk change, the first three and a count
create function private.summarize_site_changes(reasons text[])
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when cardinality(reasons) <= 3 then array_to_string(reasons, '; ')
    else array_to_string(reasons[1:3], '; ') || format('; and %s more', cardinality(reasons) - 3)
  end;
$$;

revoke execute on function private.summarize_site_changes(text[]) from public, anon, authenticated;


-- ---------------------------------------------------------------------------------------------------------------
-- triggers: one webhook per statement that changes the public site
-- ---------------------------------------------------------------------------------------------------------------

-- statement-level with transition tables, so a bulk import of 1,000 published posts sends one request, not 1,000
create function private.blog_posts_site_webhook()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  reasons text[];
begin
  -- "live" is the public RLS policy's rule: status published and published_at passed
  if TG_OP = 'INSERT' then
    select array_agg('post published: ' || n.slug order by n.slug) into reasons
      from new_rows n
     where n.status = 'published' and n.published_at <= now();
  elsif TG_OP = 'DELETE' then
    select array_agg('post deleted: ' || o.slug order by o.slug) into reasons
      from old_rows o
     where o.status = 'published' and o.published_at <= now();
  else
    select array_agg(
             case
               when was_live and not is_live then 'post unpublished: ' || old_slug
               when is_live and not was_live then 'post published: ' || new_slug
               else 'post edited: ' || new_slug
             end order by new_slug) into reasons
      from (
        select coalesce(o.status = 'published' and o.published_at <= now(), false) as was_live,
               coalesce(n.status = 'published' and n.published_at <= now(), false) as is_live,
               o.slug as old_slug,
               n.slug as new_slug,
               -- the columns the site reads (src/lib/blog.ts); updated_at alone is not a public change
               (o.title, o.slug, o.content, o.excerpt, o.featured_image_url, o.category_id, o.meta_title,
                o.meta_description, o.location, o.hack_density_score, o.unique_insights, o.insights, o.published_at)
                 is distinct from
               (n.title, n.slug, n.content, n.excerpt, n.featured_image_url, n.category_id, n.meta_title,
                n.meta_description, n.location, n.hack_density_score, n.unique_insights, n.insights, n.published_at)
                 as public_columns_changed
          from old_rows o
          join new_rows n on n.id = o.id
      ) change
     where was_live <> is_live or (is_live and public_columns_changed);
  end if;
  if reasons is not null then
    perform private.request_site_build(private.summarize_site_changes(reasons));
  end if;
  return null;
end;
$$;

revoke execute on function private.blog_posts_site_webhook() from public, anon, authenticated;

create trigger blog_posts_site_webhook_insert
  after insert on public.blog_posts
  referencing new table as new_rows
  for each statement execute function private.blog_posts_site_webhook();
create trigger blog_posts_site_webhook_update
  after update on public.blog_posts
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.blog_posts_site_webhook();
create trigger blog_posts_site_webhook_delete
  after delete on public.blog_posts
  referencing old table as old_rows
  for each statement execute function private.blog_posts_site_webhook();

-- every category has a page (/blog/category/<slug>) and a name on its posts' cards
create function private.blog_categories_site_webhook()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  reasons text[];
begin
  if TG_OP = 'INSERT' then
    select array_agg('category created: ' || n.slug order by n.slug) into reasons from new_rows n;
  elsif TG_OP = 'DELETE' then
    select array_agg('category deleted: ' || o.slug order by o.slug) into reasons from old_rows o;
  else
    select array_agg('category renamed: ' || n.slug order by n.slug) into reasons
      from old_rows o
      join new_rows n on n.id = o.id
     where (o.name, o.slug, o.description) is distinct from (n.name, n.slug, n.description);
  end if;
  if reasons is not null then
    perform private.request_site_build(private.summarize_site_changes(reasons));
  end if;
  return null;
end;
$$;

revoke execute on function private.blog_categories_site_webhook() from public, anon, authenticated;

create trigger blog_categories_site_webhook_insert
  after insert on public.blog_categories
  referencing new table as new_rows
  for each statement execute function private.blog_categories_site_webhook();
create trigger blog_categories_site_webhook_update
  after update on public.blog_categories
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.blog_categories_site_webhook();
create trigger blog_categories_site_webhook_delete
  after delete on public.blog_categories
  referencing old table as old_rows
  for each statement execute function private.blog_categories_site_webhook();
