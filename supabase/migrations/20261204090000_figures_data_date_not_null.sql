-- Every stored figures row and ZIP coverage row has a data date.
--
-- The data date ("Data as of") was added beside the metrics window and filled from the window's end for the rows
-- written before; the refresh writes it with every row since. A row has figures only when the data has a close date,
-- so the column is never empty, and the pages that print it need no fallback to the window's end (which, with the
-- window in whole calendar months, would claim data up to the month's last day). public.figures_refreshes keeps a
-- nullable data date: a refresh over data without closed sales records no date.

update public.agent_figures set data_date = window_end where data_date is null;
update public.zip_sales_coverage set data_date = window_end where data_date is null;
alter table public.agent_figures alter column data_date set not null;
alter table public.zip_sales_coverage alter column data_date set not null;
