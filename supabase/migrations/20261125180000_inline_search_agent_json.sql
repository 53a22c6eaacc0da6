-- Search throughput (performance issue, bench:load): public.search_agent_json() without a SET clause, so the planner
-- inlines it into the searches that call it once per result row.
--
-- Why: a function with a SET clause (it had `set search_path = ''`) is never inlined, and every call saves, sets and
-- restores the setting around a separate SQL-function execution. Called for each of a page's 20 rows, that was about
-- a fifth of a ZIP search's time in the database and an eighth of a name search's (paired timings over the
-- bench:load queries, 100,000 agents / 400,000 sales: ZIP 2.5 -> 2.0 ms, name 4.3 -> 3.8 ms, address 4.8 -> 4.4 ms;
-- answers byte-identical). docs/performance.md, "Search throughput", has the figures.
--
-- Safe without the SET clause: the body calls only pg_catalog.jsonb_build_object and pg_catalog.to_jsonb, named with
-- their schema, and reads the fields of its row argument; no table, operator or unqualified name depends on the
-- caller's search_path. (Supabase's advisor lint "function_search_path_mutable" will list it; this is why.)
-- Grants and comment are unchanged (create or replace keeps them).

create or replace function public.search_agent_json(a public.agents, sales_in_area integer, area_rank integer, match_score numeric)
returns jsonb
language sql
stable
as $$
  select pg_catalog.jsonb_build_object(
    'id', a.id, 'name', a.name, 'email', a.email, 'phone', a.phone, 'photo_url', a.photo_url,
    'brokerage', a.brokerage, 'license_number', a.license_number, 'years_experience', a.years_experience,
    'rating', a.rating, 'review_count', a.review_count, 'total_sales', a.total_sales,
    'average_sale_to_list_ratio', a.average_sale_to_list_ratio, 'average_days_on_market', a.average_days_on_market,
    'price_range_min', a.price_range_min, 'price_range_max', a.price_range_max, 'market_share', a.market_share,
    'local_ranking', a.local_ranking, 'total_agents_in_area', a.total_agents_in_area, 'ranking_note', a.ranking_note,
    'service_areas', pg_catalog.to_jsonb(a.service_areas), 'city', a.city, 'state', a.state, 'zip_code', a.zip_code,
    'primary_zip_code', a.primary_zip_code, 'sales_in_area', sales_in_area, 'area_rank', area_rank,
    'match_score', match_score
  );
$$;
