-- post-media: featured and inline images of blog posts, uploaded from the admin editor. Anyone reads (the public
-- site shows them; public buckets serve objects without a select policy), only admins write. The bucket limits
-- (5 MB, raster image types) are enforced by the Storage API itself: larger files get 413 "Payload too large",
-- other types 415 "invalid_mime_type" (supabase storage-api error codes).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('post-media', 'post-media', true, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'])
on conflict (id) do update set public = excluded.public, file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

create policy "Admins upload post media" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'post-media' and (select public.is_admin()));

create policy "Admins replace post media" on storage.objects
  for update to authenticated
  using (bucket_id = 'post-media' and (select public.is_admin()))
  with check (bucket_id = 'post-media' and (select public.is_admin()));

create policy "Admins delete post media" on storage.objects
  for delete to authenticated
  using (bucket_id = 'post-media' and (select public.is_admin()));

-- listing (the admin's media picker) and upsert need select; public reads of single objects do not
create policy "Admins list post media" on storage.objects
  for select to authenticated
  using (bucket_id = 'post-media' and (select public.is_admin()));
