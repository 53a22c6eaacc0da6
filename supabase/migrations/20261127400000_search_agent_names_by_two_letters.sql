-- Agent-name search answers queries of one or two letters. Before, 'Ja' and 'a' found nobody ('0 agents found')
-- while 'Jan Hammes' and 'J Hammes' worked: a word of under three letters matched only by trigram similarity, which
-- two letters cannot reach against a longer name word, and a prefix counted only from three letters.
--
-- Changed, in search_agents_by_name() only (every other query takes the path it took before):
-- * longest word of two letters ('Ja', 'Ja Ha'): agents with a name word starting with each two-letter word
--   (a range scan of agent_name_postings' primary key per word: tokens are collate "C"), those whose words match
--   exactly first, then by total sales, name and id, as every name search orders equal matches; one-letter words
--   beside them are ignored, as they are beside longer words ('J Hammes');
-- * only one-letter words ('a', 'J H'): no agents and the message 'Enter at least 2 letters of the agent's name.',
--   which the results page shows instead of a bare '0 agents found'.
-- The score reported for a prefix match is 0.5 + 1 / length of the name word (an exact word scores 1), as the
-- three-letter prefix rule scores 0.5 + 0.5 * query length / word length.

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
  v_longest integer;
  v_count integer;
  v_ords integer[];
  v_matched text[];
  v_scores double precision[];
  v_total bigint;
  v_agents jsonb;
begin
  v_tokens := public.search_name_tokens(search_query);
  v_longest := (select max(char_length(t)) from unnest(v_tokens) t);
  -- one letter says too little to rank anyone: ask for another
  if v_longest = 1 then
    return jsonb_build_object('agents', '[]'::jsonb, 'totalResults', 0, 'message', 'Enter at least 2 letters of the agent''s name.');
  end if;
  -- two letters at most ('Ja', 'Ja Ha'): agents with a name word starting with each two-letter word, an exact word
  -- first, then by sales as every name search ranks its equal matches
  if v_longest = 2 then
    v_tokens := array(select t from unnest(v_tokens) with ordinality as u(t, n) where char_length(t) = 2 order by n);
    v_tokens := v_tokens[1:8];
    v_count := cardinality(v_tokens);
    with hits as (
      select p.agent_id, q.ord, max(case when p.token = q.token then 1.0 else 0.5 + 1.0 / char_length(p.token) end) as score
      from unnest(v_tokens) with ordinality as q(token, ord)
      join public.agent_name_postings p
        on p.token >= (q.token collate "C") and p.token < ((q.token || chr(1114111)) collate "C")
      group by p.agent_id, q.ord
    ),
    matches as (
      select h.agent_id, avg(h.score) as score, bool_and(h.score = 1.0) as exact
      from hits h
      group by h.agent_id
      having count(*) = v_count
    ),
    page as (
      select m.agent_id, m.score,
             row_number() over (order by m.exact desc, a.total_sales desc, a.name, a.id) as rn
      from matches m
      join public.agents a on a.id = m.agent_id
      order by m.exact desc, a.total_sales desc, a.name, a.id
      limit v_limit offset v_offset
    )
    select (select count(*) from matches),
           (select jsonb_agg(public.search_agent_json(a, null, null, round(pg.score::numeric, 3)) order by pg.rn)
            from page pg join public.agents a on a.id = pg.agent_id)
    into v_total, v_agents;
    return jsonb_build_object('agents', coalesce(v_agents, '[]'::jsonb), 'totalResults', v_total);
  end if;

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
    -- candidates: agents carrying a match of the first and of the second query token, found in agent_name_postings
    -- (one row per token of each agent's name, kept by the triggers on agents): the first word's postings, kept where
    -- the same agent has a posting for the second word (a hash semi-join; both sides read from the primary key
    -- alone). Every query token is then checked and scored on the candidates' own postings.
    with matched as (
      select u.ord, u.token, u.score from unnest(v_ords, v_matched, v_scores) as u(ord, token, score)
    ),
    weights as (
      select u.ord::integer as ord, (char_length(u.token) + 1)::double precision as weight
      from unnest(v_tokens) with ordinality as u(token, ord)
    ),
    candidates as (
      select distinct p.agent_id as id
      from public.agent_name_postings p
      where p.token = any(array(select m.token from matched m where m.ord = 1))
        and exists (
          select 1 from public.agent_name_postings q
          where q.agent_id = p.agent_id and q.token = any(array(select m.token from matched m where m.ord = 2))
        )
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
