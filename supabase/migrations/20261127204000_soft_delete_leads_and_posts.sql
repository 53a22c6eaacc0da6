-- Nothing an administrator deletes is gone for good. Leads (report_requests) and posts (blog_posts) are moved to the
-- trash instead: deleted_at / deleted_by are stamped, the row, its notes and its revisions stay, admins no longer
-- see it in their lists (RLS), the public site drops it, and public.restore_lead / public.restore_post bring it
-- back. A DELETE through the API (PostgREST) by a signed-in user is turned into that soft delete by a trigger, and
-- a request may delete at most one row of each table: DELETE /rest/v1/report_requests?id=not.is.null is refused
-- before anything changes. The service role and the database owner still delete for real (an erasure request is
-- run in the SQL editor). merge_leads moves the merged requests to the trash too.

alter table public.report_requests
  add column deleted_at timestamptz,
  add column deleted_by uuid references auth.users (id) on delete set null;
alter table public.blog_posts
  add column deleted_at timestamptz,
  add column deleted_by uuid references auth.users (id) on delete set null;

comment on column public.report_requests.deleted_at is
  'When an administrator moved the lead to the trash (null: live). Hidden from admin lists; public.restore_lead brings it back.';
comment on column public.report_requests.deleted_by is 'The administrator who moved the lead to the trash.';
comment on column public.blog_posts.deleted_at is
  'When an administrator moved the post to the trash (null: live). Off the public site and the admin lists; public.restore_post brings it back with its revisions.';
comment on column public.blog_posts.deleted_by is 'The administrator who moved the post to the trash.';

-- the trash lists and the policies filter on deleted_at; the foreign keys are looked up on delete of a user
create index report_requests_deleted_at_idx on public.report_requests (deleted_at) where deleted_at is not null;
create index blog_posts_deleted_at_idx on public.blog_posts (deleted_at) where deleted_at is not null;
create index report_requests_deleted_by_idx on public.report_requests (deleted_by) where deleted_by is not null;
create index blog_posts_deleted_by_idx on public.blog_posts (deleted_by) where deleted_by is not null;

-- policies: admins work on live rows only; the trash is read and restored through the functions below
drop policy "Admins manage report requests" on public.report_requests;
create policy "Admins read live leads" on public.report_requests
  for select to authenticated using ((select public.is_admin()) and deleted_at is null);
create policy "Admins update live leads" on public.report_requests
  for update to authenticated using ((select public.is_admin()) and deleted_at is null)
  with check ((select public.is_admin()));
create policy "Admins delete live leads" on public.report_requests
  for delete to authenticated using ((select public.is_admin()) and deleted_at is null);

drop policy "Admins manage posts" on public.blog_posts;
create policy "Admins read posts that are not deleted" on public.blog_posts
  for select to authenticated using ((select public.is_admin()) and deleted_at is null);
create policy "Admins add posts" on public.blog_posts
  for insert to authenticated with check ((select public.is_admin()));
create policy "Admins update posts that are not deleted" on public.blog_posts
  for update to authenticated using ((select public.is_admin()) and deleted_at is null)
  with check ((select public.is_admin()));
create policy "Admins delete posts that are not deleted" on public.blog_posts
  for delete to authenticated using ((select public.is_admin()) and deleted_at is null);

drop policy "Published posts are readable by anyone" on public.blog_posts;
create policy "Published posts are readable by anyone" on public.blog_posts
  for select to anon, authenticated using (status = 'published' and published_at <= now() and deleted_at is null);

/*
 * BEFORE DELETE on report_requests and blog_posts. For a signed-in user's request (JWT role authenticated; only
 * admins get past RLS) the row is moved to the trash instead (deleted_at, deleted_by) and the delete is skipped;
 * the second row a request tries to delete raises 42501, which undoes the whole statement, so a bulk delete
 * changes nothing. PostgREST runs each request in one transaction, so the count is per transaction. The service
 * role and database sessions (no JWT) delete for real.
 */
create function private.move_to_trash_instead_of_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  setting text := 'app.deletes_in_request.' || tg_table_name;
  deleted integer;
begin
  if coalesce((select auth.role()), '') not in ('authenticated', 'anon') then
    return old;
  end if;
  deleted := coalesce(nullif(current_setting(setting, true), ''), '0')::integer + 1;
  perform set_config(setting, deleted::text, true);
  if deleted > 1 then
    raise exception 'Refused: a request may delete one row of % at a time, so every delete can be restored.', tg_table_name
      using errcode = '42501',
            hint = 'Delete rows one by one; deleted rows go to the trash and can be restored.';
  end if;
  execute format('update %I.%I set deleted_at = now(), deleted_by = $1 where id = $2', tg_table_schema, tg_table_name)
    using (select auth.uid()), old.id;
  return null;
end;
$$;

comment on function private.move_to_trash_instead_of_delete() is
  'Turns an API user''s DELETE of a lead or post into a soft delete (deleted_at, deleted_by) and refuses a second row per request (42501).';

revoke execute on function private.move_to_trash_instead_of_delete() from public, anon, authenticated, service_role;

create trigger report_requests_move_to_trash before delete on public.report_requests
  for each row execute function private.move_to_trash_instead_of_delete();
create trigger blog_posts_move_to_trash before delete on public.blog_posts
  for each row execute function private.move_to_trash_instead_of_delete();

/*
 * Moves one lead to the trash; returns its id. 42501 for non-admins, P0002 when there is no live lead with that id.
 */
create function public.delete_lead(lead_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  moved uuid;
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators may delete leads.' using errcode = '42501';
  end if;
  update public.report_requests r set deleted_at = now(), deleted_by = (select auth.uid())
   where r.id = lead_id and r.deleted_at is null
  returning r.id into moved;
  if moved is null then
    raise exception 'Lead % does not exist or is already in the trash.', lead_id using errcode = 'P0002';
  end if;
  return moved;
end;
$$;

comment on function public.delete_lead(uuid) is 'Moves one lead to the trash (restorable). Admins only.';
revoke execute on function public.delete_lead(uuid) from public, anon;
grant execute on function public.delete_lead(uuid) to authenticated, service_role;

/*
 * Moves one post to the trash; returns its id, status and published_at (the admin tells a live post's removal,
 * which rebuilds the site). 42501 for non-admins, P0002 when there is no post with that id outside the trash.
 */
create function public.delete_post(post_id uuid)
returns table (id uuid, status text, published_at timestamptz)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators may delete posts.' using errcode = '42501';
  end if;
  return query
    update public.blog_posts p set deleted_at = now(), deleted_by = (select auth.uid())
     where p.id = post_id and p.deleted_at is null
    returning p.id, p.status, p.published_at;
  if not found then
    raise exception 'Post % does not exist or is already in the trash.', post_id using errcode = 'P0002';
  end if;
end;
$$;

comment on function public.delete_post(uuid) is 'Moves one post to the trash (restorable, revisions kept). Admins only.';
revoke execute on function public.delete_post(uuid) from public, anon;
grant execute on function public.delete_post(uuid) to authenticated, service_role;

/* Brings a lead back from the trash; returns its id. 42501 for non-admins, P0002 when it is not in the trash. */
create function public.restore_lead(lead_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  restored uuid;
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators may restore leads.' using errcode = '42501';
  end if;
  update public.report_requests r set deleted_at = null, deleted_by = null
   where r.id = lead_id and r.deleted_at is not null
  returning r.id into restored;
  if restored is null then
    raise exception 'Lead % is not in the trash.', lead_id using errcode = 'P0002';
  end if;
  return restored;
end;
$$;

comment on function public.restore_lead(uuid) is 'Brings a lead back from the trash. Admins only.';
revoke execute on function public.restore_lead(uuid) from public, anon;
grant execute on function public.restore_lead(uuid) to authenticated, service_role;

/*
 * Brings a post back from the trash as it was (a published post goes live again and the site rebuilds); returns
 * its id. 42501 for non-admins, P0002 when it is not in the trash.
 */
create function public.restore_post(post_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  restored uuid;
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators may restore posts.' using errcode = '42501';
  end if;
  update public.blog_posts p set deleted_at = null, deleted_by = null
   where p.id = post_id and p.deleted_at is not null
  returning p.id into restored;
  if restored is null then
    raise exception 'Post % is not in the trash.', post_id using errcode = 'P0002';
  end if;
  return restored;
end;
$$;

comment on function public.restore_post(uuid) is 'Brings a post back from the trash, revisions and all. Admins only.';
revoke execute on function public.restore_post(uuid) from public, anon;
grant execute on function public.restore_post(uuid) to authenticated, service_role;

/*
 * The trash: deleted leads and posts, newest deletion first, at most 500, with who deleted them.
 * item_type is 'lead' or 'post'; 42501 for non-admins, 22023 for another type.
 */
create function public.trash_items(item_type text)
returns table (id uuid, title text, detail text, deleted_at timestamptz, deleted_by_email text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators may read the trash.' using errcode = '42501';
  end if;
  if item_type = 'lead' then
    return query
      select r.id, r.full_name, r.email || coalesce(' · ' || r.agent_name, ''), r.deleted_at, u.email::text
        from public.report_requests r
        left join auth.users u on u.id = r.deleted_by
       where r.deleted_at is not null
       order by r.deleted_at desc
       limit 500;
  elsif item_type = 'post' then
    return query
      select p.id, p.title, p.status || ' · /blog/' || p.slug, p.deleted_at, u.email::text
        from public.blog_posts p
        left join auth.users u on u.id = p.deleted_by
       where p.deleted_at is not null
       order by p.deleted_at desc
       limit 500;
  else
    raise exception 'item_type must be lead or post, got %', item_type using errcode = '22023';
  end if;
end;
$$;

comment on function public.trash_items(text) is
  'Deleted leads or posts (item_type lead | post), newest first, at most 500, with who deleted them. Admins only.';
revoke execute on function public.trash_items(text) from public, anon;
grant execute on function public.trash_items(text) to authenticated, service_role;

-- the site rebuilds when a live post goes to the trash or comes back: "live" now also means not deleted
create or replace function private.blog_posts_site_webhook()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  reasons text[];
begin
  -- "live" is the public RLS policy's rule: status published, published_at passed, not in the trash
  if TG_OP = 'INSERT' then
    select array_agg('post published: ' || n.slug order by n.slug) into reasons
      from new_rows n
     where n.status = 'published' and n.published_at <= now() and n.deleted_at is null;
  elsif TG_OP = 'DELETE' then
    select array_agg('post deleted: ' || o.slug order by o.slug) into reasons
      from old_rows o
     where o.status = 'published' and o.published_at <= now() and o.deleted_at is null;
  else
    select array_agg(
             case
               when was_live and not is_live and trashed then 'post deleted: ' || old_slug
               when was_live and not is_live then 'post unpublished: ' || old_slug
               when is_live and not was_live and restored then 'post restored: ' || new_slug
               when is_live and not was_live then 'post published: ' || new_slug
               else 'post edited: ' || new_slug
             end order by new_slug) into reasons
      from (
        select coalesce(o.status = 'published' and o.published_at <= now() and o.deleted_at is null, false) as was_live,
               coalesce(n.status = 'published' and n.published_at <= now() and n.deleted_at is null, false) as is_live,
               o.deleted_at is null and n.deleted_at is not null as trashed,
               o.deleted_at is not null and n.deleted_at is null as restored,
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

-- merging moves the merged requests to the trash (their notes move to the kept lead) instead of deleting them
create or replace function public.merge_leads(keep_id uuid, merge_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  merged integer;
begin
  if not (select public.is_admin()) then
    raise exception 'Only administrators may merge leads.' using errcode = '42501';
  end if;
  if merge_ids is null or cardinality(merge_ids) = 0 then
    raise exception 'merge_ids must name at least one lead.' using errcode = '22023';
  end if;
  if keep_id = any (merge_ids) then
    raise exception 'The kept lead cannot also be merged away.' using errcode = '22023';
  end if;
  if not exists (select 1 from public.report_requests where id = keep_id and deleted_at is null) then
    raise exception 'Lead % does not exist.', keep_id using errcode = 'P0002';
  end if;
  if (select count(*) from public.report_requests where id = any (merge_ids) and deleted_at is null)
     <> cardinality(merge_ids) then
    raise exception 'Some leads to merge do not exist.' using errcode = 'P0002';
  end if;
  if exists (
    select 1 from public.report_requests m, public.report_requests k
     where k.id = keep_id and m.id = any (merge_ids) and lower(m.email) <> lower(k.email)
  ) then
    raise exception 'Only requests with the same email can be merged.' using errcode = '22023';
  end if;

  update public.lead_notes set report_request_id = keep_id where report_request_id = any (merge_ids);
  insert into public.lead_notes (report_request_id, author_id, body)
  select keep_id, (select auth.uid()),
         format('Merged request of %s: agent %s%s%s', to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"'),
                coalesce(m.agent_name, 'not named'),
                case when m.phone is not null then ', phone ' || m.phone else '' end,
                case when m.property_address is not null then ', address ' || m.property_address else '' end)
    from public.report_requests m where m.id = any (merge_ids);
  -- the kept lead inherits the earliest contact and any follow-up or owner it lacked
  update public.report_requests k set
    -- least() skips nulls
    contacted_at = least(k.contacted_at, (select min(m.contacted_at) from public.report_requests m where m.id = any (merge_ids))),
    follow_up_on = coalesce(k.follow_up_on, (select min(m.follow_up_on) from public.report_requests m where m.id = any (merge_ids))),
    owner_id = coalesce(k.owner_id, (select m.owner_id from public.report_requests m where m.id = any (merge_ids) and m.owner_id is not null limit 1))
   where k.id = keep_id;
  update public.report_requests set deleted_at = now(), deleted_by = (select auth.uid())
   where id = any (merge_ids) and deleted_at is null;
  get diagnostics merged = row_count;
  return merged;
end;
$$;
