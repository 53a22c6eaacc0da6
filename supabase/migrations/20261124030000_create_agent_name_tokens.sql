-- National-scale agent-name search (performance issue): a per-token name dictionary with postings, so a name search
-- at 1,000,000 agents looks up a few dictionary tokens (small trigram and prefix indexes) and reads the agents that
-- carry them, instead of a trigram scan with a recheck over every agent's full name.
--
-- Decisions:
--   * Tokens are the name in lower case, apostrophes dropped, split at every character that is not a letter or
--     digit ("Mary-Kate O'Neil" -> mary, kate, oneil): public.search_name_tokens(). The same function tokenizes
--     the visitor's query, so both sides compare alike.
--   * agent_name_tokens: one row per distinct token (a few hundred thousand at national scale, not millions), with
--     a trigram index (typos) and a C-collation primary key (prefix ranges).
--   * agent_name_postings: (token, agent) pairs with the agent's total_sales and name copied in, so ranking by
--     sales reads one index range per token and never visits the agents table for the candidates.
--   * Kept current by statement-level triggers on public.agents (insert, update, delete) with transition tables:
--     one set-based statement per import batch or metrics refresh, not one per row. A renamed agent is findable
--     under the new name as soon as the update commits; refresh_agent_metrics() changing total_sales updates the
--     copies in the same transaction. Tokens nobody carries any more are removed.
--   * Matching (search_agents_by_name, search_name_token_matches): each query token is matched to dictionary
--     tokens: 1 for the same token, 0.5 + 0.5 * typed/full length for a prefix of 3+ characters (type-ahead), a
--     typo scored 1 - edits/length with at most 1 edit up to 5 characters and 2 from 6 (Lucene's "AUTO" fuzziness;
--     an adjacent swap is one edit), or the trigram similarity when >= 0.5. One query token: every agent carrying
--     a match, scored by its best. Several: agents that match every query token (each dictionary token counts for
--     the query token it fits best), scored by the mean of their token scores weighted by query-token length.
--     Best first: score, then closed sales (desc), name, id. This replaces pg_trgm word_similarity over the whole
--     name: a trigram index over a million full names, rechecked name by name, cost 20-60 ms per query.
--   * Cost: a one-token query reads, per matching dictionary token, limit + offset postings in ranking order
--     (index agent_name_postings_rank_idx) and counts the distinct agents of those tokens from the primary key;
--     several tokens intersect through a GIN index on agents (search_name_tokens(name)) before scoring.
--   * Derived public data (agent names are readable by anyone), but only the search (service_role) reads it and
--     only the triggers (security definer) and service_role (like agent_zip_sales) write it: RLS on, no policy for
--     anon/authenticated.

create extension if not exists fuzzystrmatch with schema extensions;

/**
 * The search tokens of a name or query: lower case, apostrophes removed, split at every run of characters that are
 * neither letters nor digits, empty parts dropped, distinct, in first-seen order. Immutable (index and triggers).
 * 'Mary-Kate O''Neil' -> {mary,kate,oneil}; null -> {}.
 */
create function public.search_name_tokens(name text)
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(t.token order by t.ord), '{}')
  from (
    select s.token, min(s.ord) as ord
    from regexp_split_to_table(regexp_replace(lower(coalesce(name, '')), '[''’`]', '', 'g'), '[^[:alnum:]]+')
      with ordinality as s(token, ord)
    where s.token <> ''
    group by s.token
  ) t;
$$;

comment on function public.search_name_tokens(text) is
  'Search tokens of a name: lower case, apostrophes dropped, split at non-alphanumerics, distinct, in order (''Mary-Kate O''''Neil'' -> {mary,kate,oneil}).';

create table public.agent_name_tokens (
  token text collate "C" primary key
);

comment on table public.agent_name_tokens is
  'Distinct name tokens of all agents (search_name_tokens), the dictionary the name search matches typos and prefixes in. Maintained by triggers on agents; service_role reads.';

-- typo-tolerant token match (`token % query_token`)
create index agent_name_tokens_token_trgm_idx on public.agent_name_tokens using gin (token extensions.gin_trgm_ops);

create table public.agent_name_postings (
  token text collate "C" not null,
  agent_id uuid not null references public.agents (id) on delete cascade,
  total_sales integer not null,
  name text not null,
  primary key (token, agent_id)
);

comment on table public.agent_name_postings is
  'Which agents carry which name token, with copies of agents.total_sales and agents.name for ranking. Maintained by triggers on agents; service_role reads.';
comment on column public.agent_name_postings.total_sales is 'Copy of agents.total_sales (closed sales in the metrics window).';
comment on column public.agent_name_postings.name is 'Copy of agents.name.';

-- the agent_id foreign key (cascade on delete) and the per-agent rewrite on rename
create index agent_name_postings_agent_id_idx on public.agent_name_postings (agent_id);
-- one token's agents in ranking order (sales desc, name, id), answered from the index alone
create index agent_name_postings_rank_idx on public.agent_name_postings (token, total_sales desc, name, agent_id);

alter table public.agent_name_tokens enable row level security;
alter table public.agent_name_postings enable row level security;

revoke all on public.agent_name_tokens from public, anon, authenticated;
revoke all on public.agent_name_postings from public, anon, authenticated;
grant all on public.agent_name_tokens to service_role;
grant all on public.agent_name_postings to service_role;


-- ---------------------------------------------------------------------------------------------------------------
-- Maintenance: statement-level triggers on public.agents
-- ---------------------------------------------------------------------------------------------------------------

/**
 * AFTER INSERT (statement) on agents: adds the postings of the new agents and any new tokens to the dictionary.
 * Security definer: the tables are written by no API role; an admin or import inserting agents needs no grant.
 */
create function private.agent_name_tokens_after_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.agent_name_postings (token, agent_id, total_sales, name)
  select t.token, n.id, n.total_sales, n.name
  from new_agents n
  cross join lateral unnest(public.search_name_tokens(n.name)) as t(token);

  insert into public.agent_name_tokens (token)
  select distinct t.token
  from new_agents n
  cross join lateral unnest(public.search_name_tokens(n.name)) as t(token)
  on conflict (token) do nothing;
  return null;
end;
$$;

/**
 * AFTER UPDATE (statement) on agents: a renamed agent's postings are rewritten (new tokens added to the dictionary,
 * tokens nobody carries any more removed); a changed total_sales is copied into the agent's postings.
 */
create function private.agent_name_tokens_after_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- renamed agents: postings rewritten from the new name, new tokens added, orphaned old tokens removed
  delete from public.agent_name_postings p
  using new_agents n join old_agents o on o.id = n.id
  where p.agent_id = n.id and o.name is distinct from n.name;

  insert into public.agent_name_postings (token, agent_id, total_sales, name)
  select t.token, n.id, n.total_sales, n.name
  from new_agents n
  join old_agents o on o.id = n.id
  cross join lateral unnest(public.search_name_tokens(n.name)) as t(token)
  where o.name is distinct from n.name;

  insert into public.agent_name_tokens (token)
  select distinct t.token
  from new_agents n
  join old_agents o on o.id = n.id
  cross join lateral unnest(public.search_name_tokens(n.name)) as t(token)
  where o.name is distinct from n.name
  on conflict (token) do nothing;

  delete from public.agent_name_tokens d
  where d.token in (
    select t.token
    from new_agents n
    join old_agents o on o.id = n.id
    cross join lateral unnest(public.search_name_tokens(o.name)) as t(token)
    where o.name is distinct from n.name
  )
    and not exists (select 1 from public.agent_name_postings p where p.token = d.token);

  -- sales changed, name kept: copy the figure (the refresh updates many agents in one statement)
  update public.agent_name_postings p
  set total_sales = n.total_sales
  from new_agents n
  join old_agents o on o.id = n.id
  where p.agent_id = n.id
    and o.name is not distinct from n.name
    and o.total_sales is distinct from n.total_sales;
  return null;
end;
$$;

/**
 * AFTER DELETE (statement) on agents: the postings went with the agents (foreign key, on delete cascade); tokens
 * nobody carries any more leave the dictionary.
 */
create function private.agent_name_tokens_after_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.agent_name_tokens d
  where d.token in (select t.token from old_agents o cross join lateral unnest(public.search_name_tokens(o.name)) as t(token))
    and not exists (select 1 from public.agent_name_postings p where p.token = d.token);
  return null;
end;
$$;

revoke execute on function private.agent_name_tokens_after_insert() from public, anon, authenticated;
revoke execute on function private.agent_name_tokens_after_update() from public, anon, authenticated;
revoke execute on function private.agent_name_tokens_after_delete() from public, anon, authenticated;

create trigger agents_name_tokens_insert after insert on public.agents
  referencing new table as new_agents
  for each statement execute function private.agent_name_tokens_after_insert();
create trigger agents_name_tokens_update after update on public.agents
  referencing old table as old_agents new table as new_agents
  for each statement execute function private.agent_name_tokens_after_update();
create trigger agents_name_tokens_delete after delete on public.agents
  referencing old table as old_agents
  for each statement execute function private.agent_name_tokens_after_delete();

-- the agents there already
insert into public.agent_name_postings (token, agent_id, total_sales, name)
select t.token, a.id, a.total_sales, a.name
from public.agents a
cross join lateral unnest(public.search_name_tokens(a.name)) as t(token);
insert into public.agent_name_tokens (token)
select distinct p.token from public.agent_name_postings p;


-- ---------------------------------------------------------------------------------------------------------------
-- The name search, now over the dictionary
-- ---------------------------------------------------------------------------------------------------------------

/**
 * The dictionary tokens each query token matches, with a score 0.5-1 (rows scoring below 0.5 are left out):
 *   1                                  the same token;
 *   0.5 + 0.5 * query/token length     a prefix, for query tokens of 3+ characters (type-ahead: 'jam' -> james 0.8);
 *   max(trigram similarity, 1 - edits / longer length)   a typo: candidates from the trigram index (similarity
 *                                      > 0.15); edits = Levenshtein distance, or 1 for one swap of adjacent letters,
 *                                      allowed up to 1 for query tokens of 3-5 characters and 2 from 6 (the
 *                                      "AUTO" fuzziness of Lucene/Elasticsearch): 'smtih' -> smith 0.8,
 *                                      'quakenbush' -> quackenbush 0.909, but 'smith' -/-> keith.
 * ord is the 1-based position of the query token in `query_tokens`.
 */
create function public.search_name_token_matches(query_tokens text[])
returns table (ord integer, token text, score double precision)
language sql
stable
set search_path = ''
set pg_trgm.similarity_threshold = 0.15
as $$
  select m.ord::integer, m.token, max(m.score)
  from (
    select q.ord, d.token::text as token,
           case
             when d.token = q.token then 1.0
             -- a typo: at most 1 edit for 3-5 characters, 2 from 6 (an adjacent swap counts as one edit)
             when char_length(q.token) >= 3 then greatest(
               extensions.similarity(q.token, d.token),
               case when e.edits <= case when char_length(q.token) >= 6 then 2 else 1 end
                    then 1.0 - e.edits::double precision / greatest(char_length(q.token), char_length(d.token)) else 0 end)
             else extensions.similarity(q.token, d.token)
           end as score
    from unnest(query_tokens) with ordinality as q(token, ord)
    join public.agent_name_tokens d on d.token operator(extensions.%) q.token
    cross join lateral (
      select least(
        extensions.levenshtein(q.token, d.token),
        case when char_length(q.token) = char_length(d.token) and exists (
          select 1 from generate_series(1, char_length(q.token) - 1) i
          where overlay(q.token placing substr(q.token, i + 1, 1) || substr(q.token, i, 1) from i for 2) = d.token
        ) then 1 end
      ) as edits
    ) e
    union all
    select q.ord, d.token::text, 0.5 + 0.5 * char_length(q.token)::double precision / char_length(d.token)
    from unnest(query_tokens) with ordinality as q(token, ord)
    join public.agent_name_tokens d
      on d.token >= (q.token collate "C") and d.token < ((q.token || chr(1114111)) collate "C") and starts_with(d.token, q.token)
    where char_length(q.token) >= 3
  ) m
  where m.score >= 0.5
  group by m.ord, m.token;
$$;

comment on function public.search_name_token_matches(text[]) is
  'Dictionary tokens (agent_name_tokens) matching each query token: same 1, prefix 0.5 + 0.5 * length ratio, typo max(trigram similarity, 1 - Levenshtein / length); scores >= 0.5 only.';

/**
 * Agents whose name matches `search_query` despite typos or partial names. The query's tokens (search_name_tokens;
 * one-letter initials dropped when a longer token is present; at most 8) are matched to dictionary tokens
 * (search_name_token_matches). One token: every agent carrying a matching token, scored by its best one.
 * Several tokens: the agents that match every one of them, scored by the mean of their best token scores weighted
 * by query-token length + 1. Best first: score, closed sales (desc), name, id. Returns {agents, totalResults};
 * match_score is the score 0-1 (3 decimals). Limits capped: 1-50 rows, offset 0-10000. Service role only.
 * Cost: one token reads at most limit + offset postings per matching dictionary token in ranking order plus a
 * count over their agent ids; several tokens aggregate the postings of their matches.
 */
create or replace function public.search_agents_by_name(search_query text, result_limit integer, result_offset integer)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
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
    -- candidates: agents carrying a match of the first and of the second query token (GIN bitmap AND over the
    -- name-token index on agents); every query token is then checked and scored on the candidates' own tokens
    with matched as (
      select u.ord, u.token, u.score from unnest(v_ords, v_matched, v_scores) as u(ord, token, score)
    ),
    weights as (
      select u.ord::integer as ord, (char_length(u.token) + 1)::double precision as weight
      from unnest(v_tokens) with ordinality as u(token, ord)
    ),
    candidates as (
      select a.id, public.search_name_tokens(a.name) as tokens
      from public.agents a
      where public.search_name_tokens(a.name) operator(pg_catalog.&&) array(select m.token from matched m where m.ord = 1)
        and public.search_name_tokens(a.name) operator(pg_catalog.&&) array(select m.token from matched m where m.ord = 2)
    ),
    hits as (
      select c.id, m.ord, max(m.score) as score
      from candidates c
      cross join lateral unnest(c.tokens) as t(token)
      join matched m on m.token = t.token
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

comment on function public.search_agents_by_name(text, integer, integer) is
  'Agent-name search over the token dictionary (agent_name_tokens/agent_name_postings): exact, prefix (3+ characters) and typo token matches; several tokens must all match; best score first, then closed sales. Returns {agents, totalResults}.';

revoke execute on function public.search_name_tokens(text) from public, anon, authenticated;
revoke execute on function public.search_name_token_matches(text[]) from public, anon, authenticated;
-- authenticated: admins write agents, and the GIN expression index agents_name_tokens_idx evaluates it
grant execute on function public.search_name_tokens(text) to authenticated, service_role;
grant execute on function public.search_name_token_matches(text[]) to service_role;

-- multi-token name searches: agents carrying given tokens (bitmap AND of the query tokens' matches)
create index agents_name_tokens_idx on public.agents using gin (public.search_name_tokens(name));

-- the trigram index on whole names served the previous search only
drop index public.agents_name_trgm_idx;
