-- Core schema for the public agent directory, the blog, topic discovery, AI generation and the lead CRM.
--
-- Access model (see each table's comment):
--   * anon / authenticated visitors read the directory (agents, properties) and the live blog;
--   * visitors may only insert leads (report_requests) and newsletter sign-ups, never read them back;
--   * an administrator is an authenticated user listed in user_roles; admins write everything editorial and work leads;
--   * service_role (edge functions, scripts, tests) bypasses RLS and holds every privilege.
--
-- Hosted Supabase grants anon and authenticated every privilege on new public tables by default, so each table
-- below starts with `revoke all` and grants back only what its policies need: a missing policy and a missing grant
-- must both be broken before data leaks. Each table enables RLS in the same file that creates it, because the CLI
-- applies migrations one file per transaction and a table must never be committed without RLS.


-- ---------------------------------------------------------------------------------------------------------------
-- Shared trigger functions
-- ---------------------------------------------------------------------------------------------------------------

-- keeps updated_at honest without trusting clients to send it
create function public.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- trigger functions cannot be called directly, but hosted default privileges would still list them as executable
revoke execute on function public.set_updated_at() from public, anon, authenticated;


-- ---------------------------------------------------------------------------------------------------------------
-- user_roles and is_admin(): who is an administrator
-- ---------------------------------------------------------------------------------------------------------------

-- the roles table; the start script and service_role add admins, nobody grants themselves a role through the API
create table public.user_roles (
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (role in ('admin')),
  created_at timestamptz not null default now(),
  primary key (user_id, role)
);

comment on table public.user_roles is
  'Roles granted to auth users; an administrator is a user listed here with role admin. A signed-in user reads their own rows; only service_role writes.';

alter table public.user_roles enable row level security;

revoke all on public.user_roles from anon, authenticated;
grant select on public.user_roles to authenticated;
grant all on public.user_roles to service_role;

-- lets the admin app show "you are not an admin" instead of a blank screen; no write policy, so writes are refused
create policy "Users read their own roles" on public.user_roles
  for select to authenticated
  using (user_id = (select auth.uid()));

-- security definer so policies on other tables can consult user_roles without granting visitors access to it;
-- an empty search_path stops a caller from shadowing public.user_roles or auth.uid() with their own objects
create function public.is_admin()
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
  );
$$;

comment on function public.is_admin() is
  'True when the calling JWT subject is listed in public.user_roles with role admin. Used by RLS policies and by the admin app (rpc is_admin) to gate screens.';

revoke execute on function public.is_admin() from public;
grant execute on function public.is_admin() to anon, authenticated, service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- agents: the public directory
-- ---------------------------------------------------------------------------------------------------------------

-- one row per agent; performance figures are precomputed so the static site and the API never aggregate on read
create table public.agents (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  email text,
  phone text,
  photo_url text,
  brokerage text,
  license_number text,
  bio text,
  years_experience integer check (years_experience >= 0),
  rating numeric(2, 1) check (rating between 0 and 5),
  review_count integer not null default 0 check (review_count >= 0),
  total_sales integer not null default 0 check (total_sales >= 0),
  -- percent, not a fraction: a value of 1 or less is almost certainly 0.987 stored by mistake for 98.7
  average_sale_to_list_ratio numeric(5, 2) check (average_sale_to_list_ratio > 1 and average_sale_to_list_ratio <= 300),
  average_days_on_market numeric(6, 1) check (average_days_on_market >= 0),
  price_range_min numeric(14, 2) check (price_range_min >= 0),
  price_range_max numeric(14, 2) check (price_range_max >= 0),
  market_share numeric(5, 2) check (market_share between 0 and 100),
  local_ranking integer check (local_ranking >= 1),
  total_agents_in_area integer check (total_agents_in_area >= 1),
  service_areas text[] not null default '{}',
  city text,
  state text check (state ~ '^[A-Z]{2}$'),
  zip_code text check (zip_code ~ '^[0-9]{5}(-[0-9]{4})?$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint agents_price_range_ordered check (price_range_min <= price_range_max),
  constraint agents_ranking_within_area check (local_ranking <= total_agents_in_area)
);

comment on table public.agents is
  'Public agent directory with precomputed performance figures. Anyone reads; admins and service_role (import) write.';
comment on column public.agents.rating is 'Average review rating, 0.0-5.0.';
comment on column public.agents.average_sale_to_list_ratio is 'Average sale price / list price as a PERCENT (98.7 means 98.7%), not a fraction.';
comment on column public.agents.average_days_on_market is 'Average days on market, in days.';
comment on column public.agents.price_range_min is 'Lowest sale price the agent typically handles, USD.';
comment on column public.agents.price_range_max is 'Highest sale price the agent typically handles, USD.';
comment on column public.agents.market_share is 'Share of local sales as a PERCENT 0-100.';
comment on column public.agents.local_ranking is 'Rank among total_agents_in_area, 1 is best.';
comment on column public.agents.state is 'Two-letter USPS state code, upper case.';
comment on column public.agents.zip_code is 'Five-digit ZIP or ZIP+4.';

create index agents_zip_code_idx on public.agents (zip_code);
create index agents_local_ranking_idx on public.agents (local_ranking);
create index agents_name_idx on public.agents (name);

create trigger agents_set_updated_at
  before update on public.agents
  for each row execute function public.set_updated_at();

alter table public.agents enable row level security;

revoke all on public.agents from anon, authenticated;
grant select on public.agents to anon;
grant select, insert, update, delete on public.agents to authenticated;
grant all on public.agents to service_role;

create policy "Agents are readable by anyone" on public.agents
  for select to anon, authenticated
  using (true);
create policy "Admins manage agents" on public.agents
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));


-- ---------------------------------------------------------------------------------------------------------------
-- properties: an agent's sales history
-- ---------------------------------------------------------------------------------------------------------------

-- listings and sales behind the agent pages; a sale outlives its agent (set null) so market figures stay complete
create table public.properties (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid references public.agents (id) on delete set null,
  address text not null check (char_length(btrim(address)) between 1 and 300),
  city text,
  state text check (state ~ '^[A-Z]{2}$'),
  zip_code text check (zip_code ~ '^[0-9]{5}(-[0-9]{4})?$'),
  list_price numeric(14, 2) check (list_price > 0),
  sale_price numeric(14, 2) check (sale_price > 0),
  sale_date date,
  days_on_market integer check (days_on_market >= 0),
  bedrooms integer check (bedrooms >= 0),
  bathrooms numeric(4, 1) check (bathrooms >= 0),
  square_feet integer check (square_feet > 0),
  property_type text,
  status text,
  created_at timestamptz not null default now(),
  -- not in the spec's field list; added because admins edit rows and the convention is updated_at where rows change
  updated_at timestamptz not null default now()
);

comment on table public.properties is
  'Listings and sales per agent (RESO ListPrice, ClosePrice, CloseDate, DaysOnMarket). Anyone reads; admins and service_role (import) write.';
comment on column public.properties.list_price is 'List price, USD (RESO ListPrice).';
comment on column public.properties.sale_price is 'Sale price, USD (RESO ClosePrice).';
comment on column public.properties.sale_date is 'Closing date (RESO CloseDate).';
comment on column public.properties.days_on_market is 'Days on market, in days (RESO DaysOnMarket).';

-- recent sales on an agent page: where agent_id = $1 order by sale_date desc; also serves the agent_id foreign key
create index properties_agent_id_sale_date_idx on public.properties (agent_id, sale_date desc);
create index properties_zip_code_idx on public.properties (zip_code);

create trigger properties_set_updated_at
  before update on public.properties
  for each row execute function public.set_updated_at();

alter table public.properties enable row level security;

revoke all on public.properties from anon, authenticated;
grant select on public.properties to anon;
grant select, insert, update, delete on public.properties to authenticated;
grant all on public.properties to service_role;

create policy "Properties are readable by anyone" on public.properties
  for select to anon, authenticated
  using (true);
create policy "Admins manage properties" on public.properties
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));


-- ---------------------------------------------------------------------------------------------------------------
-- blog_categories
-- ---------------------------------------------------------------------------------------------------------------

create table public.blog_categories (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(btrim(name)) between 1 and 100),
  -- slugs become URLs (/blog/category/<slug>), so only lower-case words joined by single hyphens
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 100),
  description text,
  created_at timestamptz not null default now(),
  -- not in the spec's field list; admins rename categories
  updated_at timestamptz not null default now()
);

comment on table public.blog_categories is
  'Blog categories. Anyone reads; admins write.';

create trigger blog_categories_set_updated_at
  before update on public.blog_categories
  for each row execute function public.set_updated_at();

alter table public.blog_categories enable row level security;

revoke all on public.blog_categories from anon, authenticated;
grant select on public.blog_categories to anon;
grant select, insert, update, delete on public.blog_categories to authenticated;
grant all on public.blog_categories to service_role;

create policy "Categories are readable by anyone" on public.blog_categories
  for select to anon, authenticated
  using (true);
create policy "Admins manage categories" on public.blog_categories
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));


-- ---------------------------------------------------------------------------------------------------------------
-- blog_posts
-- ---------------------------------------------------------------------------------------------------------------

-- blog posts written in admin; published rows are built into the static site
create table public.blog_posts (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title)) between 1 and 300),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 200),
  content text not null default '',
  excerpt text,
  featured_image_url text,
  category_id uuid references public.blog_categories (id) on delete set null,
  author_id uuid references auth.users (id) on delete set null,
  status text not null default 'draft' check (status in ('draft', 'published')),
  meta_title text,
  meta_description text,
  location text,
  hack_density_score numeric(3, 1) check (hack_density_score between 0 and 10),
  unique_insights integer not null default 0 check (unique_insights >= 0),
  insights text[] not null default '{}',
  published_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- a published post with no date cannot be ordered, listed in the sitemap or given JSON-LD datePublished
  constraint blog_posts_published_has_date check (status <> 'published' or published_at is not null)
);

comment on table public.blog_posts is
  'Blog articles (HTML content). Anyone reads published rows whose published_at has passed; admins read and write all; the generation function writes drafts as service_role.';
comment on column public.blog_posts.content is 'Article body as HTML (h2/p/ul...), sanitised before rendering.';
comment on column public.blog_posts.location is 'Place the article is about, e.g. ''Austin, TX''; null for nationwide articles.';
comment on column public.blog_posts.hack_density_score is 'Actionable-tip density, 0-10 (higher means more concrete advice per paragraph).';
comment on column public.blog_posts.unique_insights is 'Number of distinct insights the article offers; normally cardinality(insights).';
comment on column public.blog_posts.insights is 'The insight sentences counted by unique_insights.';
comment on column public.blog_posts.published_at is 'When the post goes live. A published row with a future date is scheduled: hidden from visitors until then.';

-- the public list: where status = 'published' and published_at <= now() order by published_at desc
create index blog_posts_status_published_at_idx on public.blog_posts (status, published_at desc);
create index blog_posts_category_id_idx on public.blog_posts (category_id);
-- the admin list orders every post, drafts included, by creation
create index blog_posts_created_at_idx on public.blog_posts (created_at desc);
create index blog_posts_author_id_idx on public.blog_posts (author_id);

create trigger blog_posts_set_updated_at
  before update on public.blog_posts
  for each row execute function public.set_updated_at();

alter table public.blog_posts enable row level security;

revoke all on public.blog_posts from anon, authenticated;
grant select on public.blog_posts to anon;
grant select, insert, update, delete on public.blog_posts to authenticated;
grant all on public.blog_posts to service_role;

-- scheduling is "published with a future published_at", so the date is part of what makes a post public
create policy "Published posts are readable by anyone" on public.blog_posts
  for select to anon, authenticated
  using (status = 'published' and published_at <= now());
create policy "Admins manage posts" on public.blog_posts
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));


-- ---------------------------------------------------------------------------------------------------------------
-- trending_topics: topic discovery queue
-- ---------------------------------------------------------------------------------------------------------------

create table public.trending_topics (
  id uuid primary key default gen_random_uuid(),
  topic text not null check (char_length(btrim(topic)) between 1 and 500),
  location text,
  hack_type text,
  consumer_benefit text,
  suggested_cta text,
  priority_score integer check (priority_score between 0 and 100),
  search_volume_estimate integer check (search_volume_estimate between 0 and 100),
  competition_level text check (competition_level in ('low', 'medium', 'high')),
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'generated')),
  created_at timestamptz not null default now(),
  -- not in the spec's field list; admins approve and reject topics, so rows change
  updated_at timestamptz not null default now()
);

comment on table public.trending_topics is
  'Topic ideas found by the discovery function (service_role) and approved or rejected by admins. Admins only; visitors have no access.';
comment on column public.trending_topics.priority_score is 'Editorial priority, 0-100.';
comment on column public.trending_topics.search_volume_estimate is 'Relative search interest, 0-100 (an index, not a count of searches).';

-- the review queue: where status = 'pending' order by priority_score desc
create index trending_topics_status_priority_score_idx on public.trending_topics (status, priority_score desc);
create index trending_topics_created_at_idx on public.trending_topics (created_at desc);

create trigger trending_topics_set_updated_at
  before update on public.trending_topics
  for each row execute function public.set_updated_at();

alter table public.trending_topics enable row level security;

revoke all on public.trending_topics from anon, authenticated;
grant select, insert, update, delete on public.trending_topics to authenticated;
grant all on public.trending_topics to service_role;

create policy "Admins manage trending topics" on public.trending_topics
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));


-- ---------------------------------------------------------------------------------------------------------------
-- content_generation_jobs: one row per AI article generation
-- ---------------------------------------------------------------------------------------------------------------

create table public.content_generation_jobs (
  id uuid primary key default gen_random_uuid(),
  topic_id uuid references public.trending_topics (id) on delete set null,
  custom_topic text check (char_length(custom_topic) <= 2000),
  category_id uuid references public.blog_categories (id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'generating', 'completed', 'failed')),
  blog_post_id uuid references public.blog_posts (id) on delete set null,
  ai_prompt_used text,
  error_message text,
  generation_started_at timestamptz,
  completed_at timestamptz,
  -- provider-reported usage, e.g. {"input_tokens": 1200, "output_tokens": 3400}
  token_usage jsonb check (jsonb_typeof(token_usage) = 'object'),
  created_at timestamptz not null default now(),
  -- not in the spec's field list; the job row moves through pending -> generating -> completed/failed
  updated_at timestamptz not null default now()
);

comment on table public.content_generation_jobs is
  'AI article generation jobs. Admins create and read them; the generation function (service_role) updates status and links the draft post. Visitors have no access.';

create index content_generation_jobs_created_at_idx on public.content_generation_jobs (created_at desc);
create index content_generation_jobs_status_idx on public.content_generation_jobs (status);
create index content_generation_jobs_topic_id_idx on public.content_generation_jobs (topic_id);
create index content_generation_jobs_category_id_idx on public.content_generation_jobs (category_id);
create index content_generation_jobs_blog_post_id_idx on public.content_generation_jobs (blog_post_id);

create trigger content_generation_jobs_set_updated_at
  before update on public.content_generation_jobs
  for each row execute function public.set_updated_at();

alter table public.content_generation_jobs enable row level security;

revoke all on public.content_generation_jobs from anon, authenticated;
grant select, insert, update, delete on public.content_generation_jobs to authenticated;
grant all on public.content_generation_jobs to service_role;

create policy "Admins manage generation jobs" on public.content_generation_jobs
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));


-- ---------------------------------------------------------------------------------------------------------------
-- report_requests: leads from the public site, worked in the CRM
-- ---------------------------------------------------------------------------------------------------------------

create table public.report_requests (
  id uuid primary key default gen_random_uuid(),
  -- the limits below are the validation of an endpoint anyone can write to; the form repeats them with zod
  full_name text not null check (char_length(full_name) between 1 and 200 and btrim(full_name) <> ''),
  -- WHATWG HTML "valid e-mail address" pattern, requiring a dot in the domain; 320 is the RFC 3696 upper bound
  email text not null check (
    char_length(email) <= 320
    and email ~ '^[a-zA-Z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$'
  ),
  phone text check (char_length(phone) <= 40),
  property_address text check (char_length(property_address) <= 300),
  agent_id uuid references public.agents (id) on delete set null,
  -- copied from the agent page at request time so the lead still reads correctly if the agent row goes away
  agent_name text check (char_length(agent_name) <= 200),
  agent_location text check (char_length(agent_location) <= 200),
  status text not null default 'pending' check (status in ('pending', 'contacted', 'qualified', 'closed')),
  notes text check (char_length(notes) <= 10000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  contacted_at timestamptz
);

comment on table public.report_requests is
  'Agent report requests (leads). Anyone inserts a pending row with no CRM fields; only admins read, update and delete.';
comment on column public.report_requests.contacted_at is 'When an admin first moved the lead out of pending; stamped by trigger if the client leaves it null.';

create index report_requests_status_idx on public.report_requests (status);
create index report_requests_created_at_idx on public.report_requests (created_at desc);
-- the CRM finds repeat requests from the same person regardless of how they typed the address
create index report_requests_lower_email_idx on public.report_requests (lower(email));
create index report_requests_agent_id_idx on public.report_requests (agent_id);

-- the CRM's "time to first contact" needs contacted_at even when the client only changes status
create function public.stamp_report_request_contacted_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.status = 'pending' and new.status <> 'pending' and new.contacted_at is null then
    new.contacted_at := now();
  end if;
  return new;
end;
$$;

revoke execute on function public.stamp_report_request_contacted_at() from public, anon, authenticated;

create trigger report_requests_stamp_contacted_at
  before update of status on public.report_requests
  for each row execute function public.stamp_report_request_contacted_at();

create trigger report_requests_set_updated_at
  before update on public.report_requests
  for each row execute function public.set_updated_at();

alter table public.report_requests enable row level security;

revoke all on public.report_requests from anon, authenticated;
-- visitors may name only the form's columns: id, status, notes and the timestamps are not theirs to choose
grant insert (full_name, email, phone, property_address, agent_id, agent_name, agent_location)
  on public.report_requests to anon, authenticated;
grant select, update, delete on public.report_requests to authenticated;
grant all on public.report_requests to service_role;

-- repeats the column grant as a policy so the rule holds even where a platform re-grants table privileges
create policy "Visitors can submit report requests" on public.report_requests
  for insert to anon, authenticated
  with check (status = 'pending' and notes is null and contacted_at is null);
create policy "Admins manage report requests" on public.report_requests
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));


-- ---------------------------------------------------------------------------------------------------------------
-- newsletter_subscriptions
-- ---------------------------------------------------------------------------------------------------------------

create table public.newsletter_subscriptions (
  id uuid primary key default gen_random_uuid(),
  -- stored lower-cased (see trigger) so the unique constraint means one row per mailbox, not per spelling
  email text not null unique check (
    email = lower(email)
    and char_length(email) <= 320
    and email ~ '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$'
  ),
  created_at timestamptz not null default now()
);

comment on table public.newsletter_subscriptions is
  'Newsletter sign-ups. Anyone inserts (without reading back); only admins read and delete.';

-- normalising here, not in each client, means "Ana@X.com" and "ana@x.com" collide on the unique constraint
create function public.normalize_newsletter_email()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.email := lower(btrim(new.email));
  return new;
end;
$$;

revoke execute on function public.normalize_newsletter_email() from public, anon, authenticated;

create trigger newsletter_subscriptions_normalize_email
  before insert or update of email on public.newsletter_subscriptions
  for each row execute function public.normalize_newsletter_email();

alter table public.newsletter_subscriptions enable row level security;

revoke all on public.newsletter_subscriptions from anon, authenticated;
grant insert (email) on public.newsletter_subscriptions to anon, authenticated;
grant select, delete on public.newsletter_subscriptions to authenticated;
grant all on public.newsletter_subscriptions to service_role;

create policy "Anyone can subscribe to the newsletter" on public.newsletter_subscriptions
  for insert to anon, authenticated
  with check (true);
create policy "Admins read subscriptions" on public.newsletter_subscriptions
  for select to authenticated
  using ((select public.is_admin()));
create policy "Admins remove subscriptions" on public.newsletter_subscriptions
  for delete to authenticated
  using ((select public.is_admin()));
