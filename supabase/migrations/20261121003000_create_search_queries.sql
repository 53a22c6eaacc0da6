-- Searches made on the public site, logged by the search-agents edge function (service_role) so that topic
-- discovery can ground its topics in what visitors look for. No personal data: no IP, no user agent, no user id.

create table public.search_queries (
  id uuid primary key default gen_random_uuid(),
  query text not null check (char_length(query) between 1 and 200),
  search_type text not null check (search_type in ('agent', 'zipcode', 'address')),
  resolved_zip_code text check (resolved_zip_code ~ '^[0-9]{5}$'),
  resolved_city text,
  resolved_state text check (resolved_state ~ '^[A-Z]{2}$'),
  results_count integer not null default 0 check (results_count >= 0),
  created_at timestamptz not null default now()
);

comment on table public.search_queries is
  'Public-site searches (query, type, resolved location, result count). Written by search-agents with service_role; admins read.';

create index search_queries_created_at_idx on public.search_queries (created_at desc);
create index search_queries_resolved_zip_code_idx on public.search_queries (resolved_zip_code) where resolved_zip_code is not null;

alter table public.search_queries enable row level security;
revoke all on public.search_queries from anon, authenticated;
grant select on public.search_queries to authenticated;
grant all on public.search_queries to service_role;

create policy "Admins read search queries" on public.search_queries
  for select to authenticated using ((select public.is_admin()));
