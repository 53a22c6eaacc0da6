-- Security issue (findings 1, 4 and 8): every write path enforces its own controls.
--  * Leads and newsletter sign-ups are written only by their edge functions (request-report, newsletter-subscribe)
--    with the service role, after validation, honeypot and rate limits. Visitors lose INSERT on both tables.
--  * Newsletter sign-ups are double opt-in: a row is unconfirmed until the link in the confirmation email is
--    opened; unconfirmed rows never receive mail and expire after 48 hours.
--  * Internal SQL functions that only an edge function or the service role calls lose EXECUTE for anon and
--    authenticated. What stays callable by the API roles, and why (the one list; README "Security" repeats it):
--      is_admin()                       anon, authenticated: RLS policies and the admin app's screen gate
--      analytics_summary/top_pages/sources/daily/check_period  authenticated: admin charts (each checks is_admin)
--      search_normalize_address(text)   authenticated: the expression index properties_normalized_address_idx
--                                       calls it, and Postgres checks EXECUTE for whoever writes a property (admins)
--    Everything else in public is service_role only.
--  * result_limit/result_offset are capped inside the search SQL too, so a direct call cannot ask for a million rows.


-- ---------------------------------------------------------------------------------------------------------------
-- report_requests: only the request-report function (service role) inserts
-- ---------------------------------------------------------------------------------------------------------------

drop policy "Visitors can submit report requests" on public.report_requests;
revoke insert on public.report_requests from anon, authenticated;
comment on table public.report_requests is
  'Leads from the Get Report form, written only by the request-report edge function (service role); admins work them.';


-- ---------------------------------------------------------------------------------------------------------------
-- newsletter_subscriptions: double opt-in through the newsletter-subscribe function
-- ---------------------------------------------------------------------------------------------------------------

drop policy "Anyone can subscribe to the newsletter" on public.newsletter_subscriptions;
revoke insert on public.newsletter_subscriptions from anon, authenticated;

alter table public.newsletter_subscriptions
  add column confirmed_at timestamptz,
  add column confirmation_token_hash text check (confirmation_token_hash ~ '^[0-9a-f]{64}$'),
  add column confirmation_sent_at timestamptz;

-- rows that existed before double opt-in were entered by their owners on the site: keep them as confirmed
update public.newsletter_subscriptions set confirmed_at = created_at where confirmed_at is null;

create unique index newsletter_subscriptions_token_idx on public.newsletter_subscriptions (confirmation_token_hash);

comment on table public.newsletter_subscriptions is
  'Newsletter sign-ups, written only by the newsletter-subscribe function (double opt-in). Mail goes only to rows with confirmed_at; unconfirmed rows expire after 48 hours. Only admins read and delete.';
comment on column public.newsletter_subscriptions.confirmed_at is 'When the address owner opened the confirmation link; null = unconfirmed, never mailed.';
comment on column public.newsletter_subscriptions.confirmation_token_hash is 'SHA-256 hex of the confirmation link''s token (the token itself is only in the email); null once confirmed.';
comment on column public.newsletter_subscriptions.confirmation_sent_at is 'When the last confirmation email was sent.';

/**
 * Deletes unconfirmed sign-ups older than 48 hours; returns how many. Called by newsletter-subscribe on every
 * request (so the table cleans itself without a scheduler) and available to the service role.
 */
create function public.expire_newsletter_subscriptions()
returns integer
language sql
volatile
set search_path = ''
as $$
  with gone as (
    delete from public.newsletter_subscriptions
    where confirmed_at is null and created_at < now() - interval '48 hours'
    returning 1
  )
  select count(*)::integer from gone;
$$;

revoke execute on function public.expire_newsletter_subscriptions() from public, anon, authenticated;
grant execute on function public.expire_newsletter_subscriptions() to service_role;

/** Addresses that may receive the newsletter: confirmed ones only. */
create view public.newsletter_recipients
with (security_invoker = true)
as select id, email, confirmed_at from public.newsletter_subscriptions where confirmed_at is not null;

comment on view public.newsletter_recipients is 'Confirmed newsletter subscribers: the only list a mailing may use.';
revoke all on public.newsletter_recipients from anon, authenticated;
grant select on public.newsletter_recipients to authenticated;
grant all on public.newsletter_recipients to service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- Search: service role only (the search-agents function), limits capped in SQL
-- ---------------------------------------------------------------------------------------------------------------

create or replace function public.search_agents_by_name(search_query text, result_limit integer, result_offset integer)
returns jsonb
language sql
stable
set search_path = ''
set pg_trgm.word_similarity_threshold = 0.5
as $$
  with matches as (
    select a.id, extensions.word_similarity(search_query, a.name) as score,
           extensions.similarity(search_query, a.name) as full_score, a.total_sales, a.name
    from public.agents a
    where search_query operator(extensions.<%) a.name
  ),
  page as (
    select m.*, row_number() over (order by m.score desc, m.full_score desc, m.total_sales desc, m.name, m.id) as ord
    from matches m
    order by m.score desc, m.full_score desc, m.total_sales desc, m.name, m.id
    -- the same caps as search_agents(): 1-50 rows, offset 0-10000, whatever the caller asks
    limit least(greatest(coalesce(result_limit, 20), 1), 50) offset least(greatest(coalesce(result_offset, 0), 0), 10000)
  )
  select jsonb_build_object(
    'agents', coalesce((
      select jsonb_agg(public.search_agent_json(a, null, null, round(p.score::numeric, 3)) order by p.ord)
      from page p join public.agents a on a.id = p.id
    ), '[]'::jsonb),
    'totalResults', (select count(*) from matches)
  );
$$;

create or replace function public.search_agents_in_area(zip_codes text[], result_limit integer, result_offset integer)
returns jsonb
language sql
stable
set search_path = ''
as $$
  with refreshed as (
    select exists (
      select 1 from public.agents a where a.metrics_refreshed_at is not null and a.metrics_window_end is not null
    ) as done
  ),
  sales as (
    select s.agent_id, sum(s.closed_sales)::integer as sales, sum(s.sales_volume) as volume
    from public.agent_zip_sales s
    where (select r.done from refreshed r)
      and s.zip_code = any(zip_codes)
    group by s.agent_id
    union all
    select p.agent_id, count(*)::integer as sales, sum(p.sale_price) as volume
    from public.properties p
    cross join public.search_metrics_window() w
    where not (select r.done from refreshed r)
      and p.zip_code = any(zip_codes)
      and p.standard_status = 'Closed'
      and p.sale_price > 0
      and p.sale_date between w.window_start and w.window_end
      and p.agent_id is not null
    group by p.agent_id
  ),
  ranked as (
    select s.*, rank() over (order by s.sales desc, s.volume desc)::integer as area_rank,
           row_number() over (order by s.sales desc, s.volume desc, s.agent_id) as ord
    from sales s
  ),
  page as (
    select * from ranked r order by r.ord
    -- the same caps as search_agents(): 1-50 rows, offset 0-10000, whatever the caller asks
    limit least(greatest(coalesce(result_limit, 20), 1), 50) offset least(greatest(coalesce(result_offset, 0), 0), 10000)
  )
  select jsonb_build_object(
    'agents', coalesce((
      select jsonb_agg(public.search_agent_json(a, p.sales, p.area_rank, null) order by p.ord)
      from page p join public.agents a on a.id = p.agent_id
    ), '[]'::jsonb),
    'totalResults', (select count(*) from sales)
  );
$$;

revoke execute on function public.search_normalize_address(text) from public, anon, authenticated;
revoke execute on function public.search_metrics_window() from public, anon, authenticated;
revoke execute on function public.search_agent_json(public.agents, integer, integer, numeric) from public, anon, authenticated;
revoke execute on function public.search_agents_by_name(text, integer, integer) from public, anon, authenticated;
revoke execute on function public.search_agents_in_area(text[], integer, integer) from public, anon, authenticated;
revoke execute on function public.search_zip_location(text) from public, anon, authenticated;
revoke execute on function public.search_nearby_zip_codes(text, double precision, double precision, integer, double precision) from public, anon, authenticated;
revoke execute on function public.search_resolve_address(text) from public, anon, authenticated;
revoke execute on function public.search_agents(text, text, integer, integer) from public, anon, authenticated;
grant execute on function public.search_normalize_address(text) to authenticated, service_role;
grant execute on function public.search_metrics_window() to service_role;
grant execute on function public.search_agent_json(public.agents, integer, integer, numeric) to service_role;
grant execute on function public.search_agents_by_name(text, integer, integer) to service_role;
grant execute on function public.search_agents_in_area(text[], integer, integer) to service_role;
grant execute on function public.search_zip_location(text) to service_role;
grant execute on function public.search_nearby_zip_codes(text, double precision, double precision, integer, double precision) to service_role;
grant execute on function public.search_resolve_address(text) to service_role;
grant execute on function public.search_agents(text, text, integer, integer) to service_role;

comment on function public.search_agents(text, text, integer, integer) is
  'Agent search (name, ZIP, address) for the search-agents edge function, which calls it with the service role; returns {agents, totalResults, location, message?}. Not callable by anon/authenticated.';
