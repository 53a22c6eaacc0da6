-- National-scale agent-name search, third step (target: p95 < 25 ms at 1,000,000 agents): a several-word query
-- finds its candidates in agent_name_postings alone, and the GIN index over agents' name tokens goes.
--
-- Where the time went (bench:search -- --agents 1000000 --keep, 145,823 dictionary tokens, warm, one connection):
-- the slowest several-word queries spent 10-15 ms finding candidates. "Bradley Dennis" matches 76 dictionary tokens
-- for its first word (bradley and its typos and near spellings: bailey, brady, beasley, ...) and 91 for its second
-- (dennis, denise, ...), 7,282 and 10,771 postings. 20261125210000 used a GIN bitmap AND over agents'
-- search_name_tokens(name) below 200 matched tokens, whose cost grows with every matched token's posting list:
-- 9.8 ms for those 34 agents. The postings path it used above 200 tokens (an INTERSECT) took 6-9 ms there.
--
-- Changed: one way for every several-word query: the first word's postings, kept where the same agent also has a
-- posting for the second word (EXISTS; PostgreSQL runs it as a hash semi-join, both sides index-only scans of the
-- postings' primary key): 4.5-7 ms for the queries above. The GIN index agents_name_tokens_idx served only the old
-- path and is dropped: every insert or rename of an agent no longer maintains it.
--
-- Same answers: the bench's 300 name queries at 1,000,000 agents, three rounds, old and new definitions alternating
-- per query: all 900 answers byte-identical. Measured there (generic plans, as search_agents() runs it):
-- search_agents_by_name() p50 7.1 -> 5.9 ms, p95 21.1 -> 16.2 ms, mean 8.9 -> 7.2 ms.

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

-- served only the bitmap AND above; the postings answer every several-word query now
drop index public.agents_name_tokens_idx;
-- authenticated could run search_name_tokens() only because that index evaluated it when an admin wrote an agent;
-- the name-token triggers run as their owner, so the grant goes with the index
revoke execute on function public.search_name_tokens(text) from authenticated;
