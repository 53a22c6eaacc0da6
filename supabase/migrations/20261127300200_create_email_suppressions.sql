-- The suppression list: addresses that unsubscribed (the link or the one-click List-Unsubscribe POST of any email we
-- send). Every send checks it first (supabase/functions/_shared/mail.ts), so an unsubscribed address gets nothing
-- more. Only a one-way hash of the address is kept, so the list can be honoured without holding the address itself
-- (and survives the deletion of an account without keeping its email).

create table public.email_suppressions (
  email_hash text primary key check (email_hash ~ '^[0-9a-f]{64}$'),
  source text not null check (source in ('link', 'one_click')),
  created_at timestamptz not null default now()
);

comment on table public.email_suppressions is
  'Addresses that unsubscribed from every email we send, as SHA-256 of the trimmed, lower-cased address (public.email_hash). service_role only: the mail sender reads it, the unsubscribe and account functions write it.';
comment on column public.email_suppressions.email_hash is 'public.email_hash(address): SHA-256 hex of lower(btrim(address)); never the address.';
comment on column public.email_suppressions.source is
  'How the address unsubscribed: link (the unsubscribe page of a mail''s footer link) or one_click (a mail client''s RFC 8058 List-Unsubscribe POST).';

alter table public.email_suppressions enable row level security;
revoke all on public.email_suppressions from public, anon, authenticated;
grant select, insert, update, delete on public.email_suppressions to service_role;
-- no policies: anon and authenticated have neither privileges nor rows; service_role bypasses RLS

/** The key of an address in the suppression list; the mail sender computes the same in Web Crypto. */
create function public.email_hash(address text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select encode(sha256(convert_to(lower(btrim(address)), 'UTF8')), 'hex');
$$;

comment on function public.email_hash(text) is
  'SHA-256 hex of the trimmed, lower-cased address: the key of email_suppressions (same rule as emailHash in supabase/functions/_shared/unsubscribe.ts).';
revoke execute on function public.email_hash(text) from public, anon, authenticated;
grant execute on function public.email_hash(text) to service_role;

/*
 * Unsubscribes the address with hash `address_hash` from everything: it goes on the suppression list (kept from the
 * first time) and its newsletter subscription is deleted. Returns true when it was not on the list before.
 */
create function public.suppress_email(address_hash text, suppression_source text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_new boolean;
begin
  insert into public.email_suppressions (email_hash, source) values (address_hash, suppression_source)
  on conflict (email_hash) do nothing;
  v_new := found;
  delete from public.newsletter_subscriptions n where public.email_hash(n.email) = address_hash;
  return v_new;
end;
$$;

comment on function public.suppress_email(text, text) is
  'Puts an address hash on the suppression list and deletes its newsletter subscription. service_role only (the unsubscribe function).';
revoke execute on function public.suppress_email(text, text) from public, anon, authenticated;
grant execute on function public.suppress_email(text, text) to service_role;
