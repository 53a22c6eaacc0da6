-- The agent report, delivered: the new-lead webhook's function (notify-new-lead) also renders the agent's PDF report
-- and mails it to the visitor (supabase/functions/_shared/agent-report-delivery.ts); the CRM shows whether it went out.
--
-- Decisions:
--   * No second webhook: the new-lead webhook already fires once per stored request, after commit, so request-report
--     stays untouched and answers as fast as before; the mail follows within seconds.
--   * report_sent_at / report_error are written by the function with the service role; admins read them in the CRM
--     through the existing "Admins ..." policies of report_requests. No new table, so no new policy. A retried
--     webhook does not mail the report twice (report_sent_at is checked first).

alter table public.report_requests
  add column report_sent_at timestamptz,
  add column report_error text check (report_error is null or char_length(report_error) <= 2000);

comment on column public.report_requests.report_sent_at is
  'When the PDF report was accepted by the mail API (notify-new-lead, _shared/agent-report-delivery.ts); null while not sent.';
comment on column public.report_requests.report_error is
  'Why the last attempt to send the PDF report failed (shown in the CRM); null after success.';
