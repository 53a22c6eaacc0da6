-- A report is mailed only to an address its owner confirmed. request-report stores the lead at once (it is a lead
-- before confirmation) and mails a confirmation link, or marks the address confirmed when the visitor is signed in
-- with that confirmed account email; confirm-report marks it when the link is used and then sends the PDF.

alter table public.report_requests
  add column email_confirmed_at timestamptz,
  add column email_confirmed_via text,
  add column confirmation_token_hash text,
  add column confirmation_sent_at timestamptz,
  add constraint report_requests_email_confirmed_via_check
    check (email_confirmed_via in ('link', 'account')),
  add constraint report_requests_email_confirmation_check
    check ((email_confirmed_at is null) = (email_confirmed_via is null)),
  add constraint report_requests_confirmation_token_hash_check
    check (confirmation_token_hash ~ '^[0-9a-f]{64}$');

comment on column public.report_requests.email_confirmed_at is
  'When the owner of the email address confirmed this request (null: not confirmed). The agent report is mailed only to a confirmed address.';
comment on column public.report_requests.email_confirmed_via is
  'How the address was confirmed: link (the confirmation email''s link was used) or account (the visitor was signed in with this address, confirmed by Auth). Null while unconfirmed.';
comment on column public.report_requests.confirmation_token_hash is
  'SHA-256 hex of the token in the confirmation link (the token itself is only in the email); cleared once used.';
comment on column public.report_requests.confirmation_sent_at is
  'When the confirmation email was sent; its link works for 48 hours from then.';

-- confirm-report looks the request up by the hash of the link's token
create unique index report_requests_confirmation_token_hash_key
  on public.report_requests (confirmation_token_hash) where confirmation_token_hash is not null;
