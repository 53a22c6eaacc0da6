-- private.sorted_median and private.t_quantile_975 are one-expression SQL functions that refresh_agent_metrics calls
-- four times per agent and side (20,000 agents: about 80,000 calls). Written to be inlined by the planner, they never
-- were: PostgreSQL does not inline a SQL function that has a SET clause, and both had `set search_path = ''`, so each
-- call ran through the SQL-function executor and set and restored the setting. Measured with auto_explain on the
-- 20,000-agent bench data: the per-agent statistics step took about 340 ms, about 190 ms inlined; the whole refresh
-- about 150 ms less.
--
-- Without the clause they are inlined into the caller, whose own `search_path = ''` then resolves their names, and
-- they name only pg_catalog's functions and operators. Only the owner (postgres) may execute them (90_grants), so a
-- caller with another search path cannot reach them.

alter function private.sorted_median(numeric[]) reset search_path;
alter function private.t_quantile_975(integer) reset search_path;

comment on function private.sorted_median(numeric[]) is 'Median of an already sorted numeric array (NULL when empty). No SET clause, so the planner inlines it (refresh_agent_metrics calls it per agent and side); executable by the owner only.';
comment on function private.t_quantile_975(integer) is '97.5 % quantile of Student''s t with df degrees of freedom, three decimals (table to 30, Cornish-Fisher beyond). No SET clause, so the planner inlines it (refresh_agent_metrics calls it per agent and side); executable by the owner only.';
