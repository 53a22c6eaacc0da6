-- National-scale agent-name search, second step (performance issue; the first is 20261125200000): less work per
-- several-word query.
--
-- search_agents_by_name(): a several-word query took its candidates from the GIN index on agents'
-- search_name_tokens(name), one `&&` per query word against every dictionary token the word matched. A three-letter
-- last-name prefix matches hundreds of tokens in a national dictionary ("Steven Har": 774), and that bitmap AND took
-- 68 ms at 1,000,000 agents. When the first two words match more than 200 tokens, the candidates now come from
-- agent_name_postings (token, agent), the two words' postings intersected (12 ms for the same query); below that the
-- bitmap AND stays, being faster there (1-4 ms for a full name against 1.4-5.8 by postings, 30 names measured). Each
-- candidate's tokens are now read from its postings instead of recomputing search_name_tokens() from its name; the
-- postings hold exactly those tokens (triggers on agents). Same answers: compared over the bench's queries
-- (docs/performance.md).

create or replace function public.search_agents_by_name(search_query text, result_limit integer, result_offset integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $$
declare
  v_limit integer := least(greatest(coalesce(result_limit, 20), 1), 50);
  v_offset integer := least(greatest(coalesce(result_offset, 0), 0), 10000);
  v_tokens text[];
  v_count integer;
  v_ords integer[];
  v_matched text[];
  v_scores double precision[];
  v_total bigint;
  v_agents jsonb;
  v_by_postings boolean;
begin
  v_tokens := public.search_name_tokens(search_query);
  if exists (select 1 from unnest(v_tokens) t where char_length(t) > 1) then
    v_tokens := array(select t from unnest(v_tokens) with ordinality as u(t, n) where char_length(t) > 1 order by n);
  end if;
  v_tokens := v_tokens[1:8];
  v_count := cardinality(v_tokens);
  if v_count = 0 then
    return jsonb_build_object('agents', '[]'::jsonb, 'totalResults', 0);
  end if;

  -- each dictionary token counts for the query token it matches best (ties: the earlier one), so 'Mark Mar' does
  -- not find every Mark through one token matching both
  select array_agg(m.ord), array_agg(m.token), array_agg(m.score)
  into v_ords, v_matched, v_scores
  from (
    select x.ord, x.token, x.score, row_number() over (partition by x.token order by x.score desc, x.ord) as rn
    from public.search_name_token_matches(v_tokens) x
  ) m
  where m.rn = 1;
  if v_ords is null or (select count(distinct o) from unnest(v_ords) o) < v_count then
    return jsonb_build_object('agents', '[]'::jsonb, 'totalResults', 0);
  end if;

  -- more than 200 dictionary tokens for the first two words: intersect postings rather than AND two GIN bitmaps
  v_by_postings := (select count(*) from unnest(v_ords) o where o <= 2) > 200;

  if v_count = 1 then
    select count(distinct p.agent_id) into v_total
    from unnest(v_matched) as m(token)
    join public.agent_name_postings p on p.token = m.token;

    -- the agent at rank r overall is within the first r of its best token's list: limit + offset per token suffice
    select jsonb_agg(public.search_agent_json(a, null, null, round(pg.score::numeric, 3)) order by pg.rn)
    into v_agents
    from (
      select c.agent_id, c.score, row_number() over (order by c.score desc, c.total_sales desc, c.name, c.agent_id) as rn
      from (
        select t.agent_id, max(t.score) as score, t.total_sales, t.name
        from unnest(v_matched, v_scores) as m(token, score)
        cross join lateral (
          select p.agent_id, p.total_sales, p.name, m.score
          from public.agent_name_postings p
          where p.token = m.token
          order by p.total_sales desc, p.name, p.agent_id
          limit v_limit + v_offset
        ) t
        group by t.agent_id, t.total_sales, t.name
      ) c
      order by c.score desc, c.total_sales desc, c.name, c.agent_id
      limit v_limit offset v_offset
    ) pg
    join public.agents a on a.id = pg.agent_id;
  else
    -- candidates: agents carrying a match of the first and of the second query token; every query token is then
    -- checked and scored on the candidates' own postings (one per token of their name, kept by the triggers on
    -- agents). Two ways to find them, the same agents: a GIN bitmap AND over the name-token index on agents, fast
    -- while the two words match few dictionary tokens (a full name: 1-4 ms at 1,000,000 agents), or the two words'
    -- postings intersected, which stays near 12 ms where a short prefix matches hundreds of tokens and the bitmap
    -- AND takes 68 ms ("Steven Har": 835 tokens)
    with matched as (
      select u.ord, u.token, u.score from unnest(v_ords, v_matched, v_scores) as u(ord, token, score)
    ),
    weights as (
      select u.ord::integer as ord, (char_length(u.token) + 1)::double precision as weight
      from unnest(v_tokens) with ordinality as u(token, ord)
    ),
    candidates as (
      select a.id
      from public.agents a
      where not v_by_postings
        and public.search_name_tokens(a.name) operator(pg_catalog.&&) array(select m.token from matched m where m.ord = 1)
        and public.search_name_tokens(a.name) operator(pg_catalog.&&) array(select m.token from matched m where m.ord = 2)
      union all
      select x.id
      from (
        select p.agent_id as id from public.agent_name_postings p where p.token = any(array(select m.token from matched m where m.ord = 1))
        intersect
        select p.agent_id from public.agent_name_postings p where p.token = any(array(select m.token from matched m where m.ord = 2))
      ) x
      where v_by_postings
    ),
    hits as (
      select c.id, m.ord, max(m.score) as score
      from candidates c
      join public.agent_name_postings p on p.agent_id = c.id
      join matched m on m.token = p.token
      group by c.id, m.ord
    ),
    matches as (
      select h.id, sum(h.score * w.weight) / (select sum(x.weight) from weights x) as score
      from hits h
      join weights w on w.ord = h.ord
      group by h.id
      having count(*) = v_count
    ),
    page as (
      select m.id, m.score, row_number() over (order by m.score desc, a.total_sales desc, a.name, a.id) as rn
      from matches m
      join public.agents a on a.id = m.id
      order by m.score desc, a.total_sales desc, a.name, a.id
      limit v_limit offset v_offset
    )
    select (select count(*) from matches),
           (select jsonb_agg(public.search_agent_json(a, null, null, round(pg.score::numeric, 3)) order by pg.rn)
            from page pg join public.agents a on a.id = pg.id)
    into v_total, v_agents;
  end if;

  return jsonb_build_object('agents', coalesce(v_agents, '[]'::jsonb), 'totalResults', v_total);
end;
$$;
