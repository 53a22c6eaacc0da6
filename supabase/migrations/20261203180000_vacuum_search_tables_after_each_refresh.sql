-- The tables the searches read are vacuumed after each data refresh, not after a fifth of them has changed.
--
-- Why: a daily metrics refresh at national size (1,000,000 agents, a new sale for 1 % of them) updates about 20,000
-- rows of public.agent_name_postings (the sales figure each name token carries), 64,000 agents rows, 73,000
-- agent_figures rows and 10,000 agent_zip_sales rows. Postgres's default autovacuum waits until 20 % of a table is
-- dead, which at that rate is ten to twenty days; meanwhile the name search's index scans visit the dead row versions
-- and the pages that are no longer all-visible. Measured on the benchmark's national database (`npm run bench:search
-- -- --db <url>`, 300 name queries): SQL p95 13.3 ms vacuumed, 31.6 ms after one day's refresh, 20.7 ms once the
-- postings alone were vacuumed again, 17.5 ms with agents and figures too.
--
-- What: autovacuum (which checks every minute) now vacuums each of these tables once 10,000 of its rows are dead,
-- whatever its size: about one day's changes, so the day's dead rows go within minutes of the refresh that made
-- them. A test database never reaches that many.

alter table public.agent_name_postings set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
alter table public.agents set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
alter table public.agent_figures set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
alter table public.agent_zip_sales set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
