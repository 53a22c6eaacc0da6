-- Lead source, complete: report requests already keep source_page, utm_source, utm_medium and utm_campaign; add the
-- two remaining UTM parameters (utm_term, utm_content) with the same 100-character limit. The request-report function
-- (service role) writes them; its zod schema repeats the limits so an over-long value is a 400, never a 500.

alter table public.report_requests
  add column utm_term text check (char_length(utm_term) <= 100),
  add column utm_content text check (char_length(utm_content) <= 100);

comment on column public.report_requests.utm_term is 'utm_term of the landing URL of the visit the request was sent from.';
comment on column public.report_requests.utm_content is 'utm_content of the landing URL of the visit the request was sent from.';
