-- Leads of two kinds share the CRM: report requests (Get Report on an agent page) and contact-form messages
-- (/contact). A contact lead carries the visitor's message and no agent; nothing is mailed to the visitor for it.
-- A lead whose visitor deleted their account is kept for the operators' counts with every personal field removed
-- (anonymized_at says when).

alter table public.report_requests
  add column lead_type text not null default 'report',
  add column message text,
  add column anonymized_at timestamptz,
  add constraint report_requests_lead_type_check check (lead_type in ('report', 'contact')),
  add constraint report_requests_message_check check (char_length(message) <= 5000);

comment on column public.report_requests.lead_type is
  'report: a Get Report request for an agent (the PDF is mailed); contact: a message from the contact form (no PDF).';
comment on column public.report_requests.message is 'The visitor''s message of a contact lead (at most 5,000 characters); null for report requests.';
comment on column public.report_requests.anonymized_at is
  'When the visitor deleted their account: name, email, phone, address, message and notes were removed then; the row stays for the counts.';

create index report_requests_lead_type_idx on public.report_requests (lead_type);
