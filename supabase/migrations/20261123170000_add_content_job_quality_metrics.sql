-- Quality of a generated article, measured by generate-blog-content when the job ends (issue: "quality measured,
-- not claimed"). Written by the function (service_role); admins read them in the job list. Null until measured:
-- a job that fails before a draft exists has no text to measure.

alter table public.content_generation_jobs
  add column content_mode text check (content_mode in ('local', 'evergreen')),
  add column word_count integer check (word_count >= 0),
  add column reading_time_minutes integer check (reading_time_minutes >= 0),
  add column heading_count integer check (heading_count >= 0),
  add column figures_checked integer check (figures_checked >= 0),
  add column unsupported_figures text[] not null default '{}'
    check (cardinality(unsupported_figures) <= 50),
  add column density_score numeric(3, 1) check (density_score between 0 and 10),
  add column target_min_words integer check (target_min_words >= 0),
  add column target_max_words integer check (target_max_words >= target_min_words);

comment on column public.content_generation_jobs.content_mode is
  'local: written from the fact sheet of the ZIPs/city the topic names; evergreen: a guide without a place, figures only from site-wide aggregates.';
comment on column public.content_generation_jobs.word_count is 'Words of the article body (tags stripped).';
comment on column public.content_generation_jobs.reading_time_minutes is 'Reading time in whole minutes (words / 200, rounded up).';
comment on column public.content_generation_jobs.heading_count is 'h2 and h3 headings in the article body.';
comment on column public.content_generation_jobs.figures_checked is
  'Number tokens in title, excerpt, meta, insights and body that the figure check matched against the facts or allowed (years, small counts, period dates).';
comment on column public.content_generation_jobs.unsupported_figures is
  'Printed figures that match no fact; a non-empty list fails the job and nothing is saved.';
comment on column public.content_generation_jobs.density_score is 'Hack density 0-10 of the article (README "Hack density").';
comment on column public.content_generation_jobs.target_min_words is
  'Word target the writer was given (AI_TARGET_WORDS for a model; null for the built-in writer, which writes what the data supports).';
comment on column public.content_generation_jobs.target_max_words is 'Upper end of the word target (see target_min_words).';
