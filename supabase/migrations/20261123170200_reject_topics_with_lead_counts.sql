-- Topic discovery used to print report-request (lead) counts and the visitor's typed agent location in topic titles
-- ("22 agent report requests from <text>: how to vet ..."). Lead counts are business data and visitor text must not
-- reach a prompt or a post, so open topics of that shape are set aside; discovery now writes "How to vet an agent's
-- sale-to-list record in <known place>" instead (supabase/functions/_shared/ai/signals.ts).
update public.trending_topics
set status = 'rejected'
where status in ('pending', 'approved')
  and topic ~ '^[0-9][0-9,]* agent report requests? from ';
