-- National-scale agent-name search (performance issue): typo candidates from a deletion index instead of pg_trgm's
-- `%` at a similarity of 0.15.
--
-- Why: search_name_token_matches() found a typo's candidates with `d.token % q.token` at a 0.15 threshold, the only
-- trigram threshold low enough to reach every token within the typo rule's edit distance. At that threshold nearly
-- every dictionary token that shares two trigrams with the query is a candidate and is rechecked. With the bench's
-- old names (1,159 distinct tokens) that cost about 3 ms; with a national-size dictionary (146,000 tokens:
-- `npm run bench:search -- --agents 1000000`, whose names now have a long tail of surnames) a name search took
-- 354 ms at the median and 526 ms at p95 in SQL, slower than a full scan of the agents.
--
-- What: agent_name_token_deletions holds, for every dictionary token, every string made by deleting at most two of
-- its characters (a symmetric-deletion index, as in SymSpell). Two tokens within k edits (insertions, deletions,
-- substitutions, an adjacent swap) always share such a string made with at most k deletions from each, so a query
-- token's own deletion strings (up to 1 + n + n(n-1)/2 of them) find every token within the rule's edit distance by
-- primary-key lookups; the existing edit count then keeps only the real ones. Tokens that are similar without being
-- within that distance (trigram similarity >= 0.5) still come from the trigram index, now at 0.5, where it is
-- selective.
--
-- The adjacent-swap check (a subquery over the token's positions) runs only for a candidate at Levenshtein distance
-- 2 of the same length, the only case where a swap can lower the count: about a quarter of the matcher's time.
--
-- Behaviour: the same matches with the same scores. A typo candidate still has to share 15 % of its trigrams with the
-- query token, as the old trigram threshold required: without that, two changed letters in a six-letter token matched
-- far more loosely ("fiener" -> "jieber", "lieder", "mieler": 484 more matches over 400 test queries).
--
-- Cost: about 30 rows per dictionary token (bench:search prints the table's size), written by a statement trigger on
-- agent_name_tokens in the same transaction as the agents' own triggers.

create table public.agent_name_token_deletions (
  variant text collate "C" not null,
  token text collate "C" not null,
  constraint agent_name_token_deletions_pkey primary key (variant, token)
);

comment on table public.agent_name_token_deletions is 'Every string made by deleting at most two characters of each agent_name_tokens token (and the token itself): the symmetric-deletion index the name search finds typo candidates in. Maintained by triggers on agent_name_tokens (insert, update, delete); service_role reads.';

alter table public.agent_name_token_deletions enable row level security;
revoke all on table public.agent_name_token_deletions from anon, authenticated, public;
grant select on table public.agent_name_token_deletions to service_role;

/**
 * The strings made by deleting at most `max_deletions` (0-2) characters of `token`, the token itself included,
 * distinct, sorted, never empty. 'anna', 1 -> {ana, ann, anna, nna}. A plpgsql loop, not a SQL query: a LANGUAGE sql
 * function with a SET clause is planned on every call, and this runs once per query token and per indexed token.
 */
create function public.search_name_token_deletions(token text, max_deletions integer)
returns text[]
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  n integer := pg_catalog.char_length(token);
  variants text[] := array[token];
begin
  if token is null then
    return '{}';
  end if;
  if max_deletions >= 1 then
    for i in 1..n loop
      variants := variants || overlay(token placing '' from i for 1);
      if max_deletions >= 2 then
        -- delete the later position first, so the earlier one has not moved
        for j in i + 1..n loop
          variants := variants || overlay(overlay(token placing '' from j for 1) placing '' from i for 1);
        end loop;
      end if;
    end loop;
  end if;
  return coalesce((select pg_catalog.array_agg(distinct v.variant) from unnest(variants) as v(variant) where v.variant <> ''), '{}');
end;
$$;

comment on function public.search_name_token_deletions(text, integer) is 'Strings made by deleting at most max_deletions (0-2) characters of token, itself included, distinct, never empty: the keys of agent_name_token_deletions.';

revoke all on function public.search_name_token_deletions(text, integer) from anon, authenticated, public;
grant execute on function public.search_name_token_deletions(text, integer) to service_role;

-- One function for the three statement triggers: a deleted or renamed token's strings go, an inserted or renamed
-- token's strings come (nothing renames a token today, but a rename must not leave the old strings behind). Each
-- branch reads only the transition table its trigger has.
create function private.agent_name_token_deletions_sync()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from public.agent_name_token_deletions x
    using old_tokens o
    cross join lateral unnest(public.search_name_token_deletions(o.token, 2)) as v(variant)
    where x.variant = v.variant and x.token = o.token;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into public.agent_name_token_deletions (variant, token)
    select v.variant, n.token
    from new_tokens n
    cross join lateral unnest(public.search_name_token_deletions(n.token, 2)) as v(variant)
    on conflict do nothing;
  end if;
  return null;
end;
$$;

revoke all on function private.agent_name_token_deletions_sync() from anon, authenticated, public, service_role;

create trigger agent_name_tokens_deletions_insert
after insert on public.agent_name_tokens
referencing new table as new_tokens
for each statement execute function private.agent_name_token_deletions_sync();

create trigger agent_name_tokens_deletions_update
after update on public.agent_name_tokens
referencing old table as old_tokens new table as new_tokens
for each statement execute function private.agent_name_token_deletions_sync();

create trigger agent_name_tokens_deletions_delete
after delete on public.agent_name_tokens
referencing old table as old_tokens
for each statement execute function private.agent_name_token_deletions_sync();

-- the tokens already in the dictionary
insert into public.agent_name_token_deletions (variant, token)
select v.variant, t.token
from public.agent_name_tokens t
cross join lateral unnest(public.search_name_token_deletions(t.token, 2)) as v(variant)
on conflict do nothing;

-- The matcher: the same scores as before; typo candidates from the deletion index, similar tokens from the trigram
-- index at 0.5 (a match needs a score >= 0.5, and the trigram score is the similarity itself). plpgsql (RETURN
-- QUERY) so the connection caches the plan of this UNION of three index lookups; as LANGUAGE sql with SET clauses it
-- was planned on every call (2.2 -> 1.4 ms per call, migration 20261126000000 has the measurements).
create or replace function public.search_name_token_matches(query_tokens text[])
returns table(ord integer, token text, score double precision)
language plpgsql
stable
set search_path = ''
set "pg_trgm.similarity_threshold" = '0.5'
as $$
#variable_conflict use_column
begin
  return query
  select m.ord::integer, m.token, max(m.score)
    from (
      select c.ord, c.token,
             case
               when c.token = c.query then 1.0
               -- a typo: at most 1 edit for 3-5 characters, 2 from 6 (an adjacent swap counts as one edit)
               when char_length(c.query) >= 3 then greatest(
                 extensions.similarity(c.query, c.token),
                 case when e.edits <= case when char_length(c.query) >= 6 then 2 else 1 end
                      then 1.0 - e.edits::double precision / greatest(char_length(c.query), char_length(c.token)) else 0 end)
               else extensions.similarity(c.query, c.token)
             end as score
      from (
        -- similar spelling: trigram similarity >= 0.5 (the function's threshold)
        select q.ord, q.token as query, d.token::text as token
        from unnest(query_tokens) with ordinality as q(token, ord)
        join public.agent_name_tokens d on d.token operator(extensions.%) q.token
        union
        -- within the typo rule's edit distance: a deletion string shared with the query token
        select q.ord, q.token, x.token::text
        from unnest(query_tokens) with ordinality as q(token, ord)
        join public.agent_name_token_deletions x
          on x.variant = any(public.search_name_token_deletions(q.token, case when char_length(q.token) >= 6 then 2 else 1 end))
        -- as before: a typo shares at least 15 % of its trigrams with the query token
        where char_length(q.token) >= 3 and extensions.similarity(q.token, x.token) >= 0.15
      ) c
      cross join lateral (select extensions.levenshtein(c.query, c.token) as distance) l
      cross join lateral (
        -- an adjacent swap is one edit (Levenshtein counts it as two): looked for only where it can change the count
        select case
          when l.distance = 2 and char_length(c.query) = char_length(c.token) and exists (
            select 1 from generate_series(1, char_length(c.query) - 1) i
            where overlay(c.query placing substr(c.query, i + 1, 1) || substr(c.query, i, 1) from i for 2) = c.token
          ) then 1
          else l.distance
        end as edits
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
end;
$$;

comment on function public.search_name_token_matches(query_tokens text[]) is 'Dictionary tokens (agent_name_tokens) matching each query token: same 1, prefix 0.5 + 0.5 * length ratio, typo max(trigram similarity, 1 - edits / length) with at most 1 edit for 3-5 characters and 2 from 6 (candidates from agent_name_token_deletions and the trigram index at 0.5); scores >= 0.5 only.';
