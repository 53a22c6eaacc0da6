/**
 * request-report: the public site's "Get Report" form. Validates the body (zod, field-level 400s), drops honeypot
 * submissions silently (a bot sees the same success as a person), rate-limits per email and per client IP (hashed),
 * then stores a pending report_requests row with the service role. Contract: ../_shared/report-request.ts.
 * verify_jwt = false (supabase/config.toml): visitors call it with the anon key only.
 */
import { clientIp } from '@shared/client-ip.ts';
import { platformEnv, serviceClient } from '@shared/supabase.ts';
import { z } from 'zod';

import {
  EMAIL_LIMIT_PER_HOUR,
  IP_LIMIT_PER_HOUR,
  RATE_LIMIT_MESSAGE,
  ReportRequestSchema,
  corsHeaders,
  fieldErrors,
  isBot,
  rateLimitKey,
} from '@shared/report-request.ts';

// REPORT_REQUEST_HMAC_SECRET keys the rate-limit HMACs: its own secret, so rotating the API keys does not reset
// the limits and the API key never doubles as a hashing key (`supabase secrets set`, 32+ characters).
const EnvSchema = z.object({
  REPORT_REQUEST_HMAC_SECRET: z
    .string({ error: 'REPORT_REQUEST_HMAC_SECRET is not set' })
    .min(32, { error: 'REPORT_REQUEST_HMAC_SECRET must be at least 32 characters' }),
});
const parsedEnv = EnvSchema.safeParse({ REPORT_REQUEST_HMAC_SECRET: Deno.env.get('REPORT_REQUEST_HMAC_SECRET') });
if (!parsedEnv.success) {
  throw new Error(`request-report: invalid environment: ${parsedEnv.error.issues.map((issue) => issue.message).join('; ')}`);
}
const env = parsedEnv.data;
platformEnv();

const admin = serviceClient();

const json = (body: unknown, status: number) => Response.json(body, { status, headers: corsHeaders });

Deno.serve(async (request) => {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (request.method !== 'POST') return json({ error: 'Use POST' }, 405);

  const body: unknown = await request.json().catch(() => undefined);
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    return json({ error: 'The request body must be a JSON object' }, 400);
  }
  // a bot gets the same answer as a person, so it has nothing to learn from; nothing is stored or counted
  if (isBot(body)) return json({ ok: true }, 201);

  const parsed = ReportRequestSchema.safeParse(body);
  if (!parsed.success) return json({ errors: fieldErrors(parsed.error) }, 400);
  const form = parsed.data;

  try {
    const emailKey = await rateLimitKey(env.REPORT_REQUEST_HMAC_SECRET, 'email', form.email);
    const ipKey = await rateLimitKey(env.REPORT_REQUEST_HMAC_SECRET, 'ip', clientIp(request.headers) || 'unknown');
    const { data: hits, error: limitError } = await admin.rpc('hit_report_request_rate_limit', { key_hashes: [emailKey, ipKey] });
    if (limitError) throw limitError;
    const count = (key: string) => (hits as { key_hash: string; hits: number }[]).find((row) => row.key_hash === key)?.hits ?? 0;
    if (count(emailKey) > EMAIL_LIMIT_PER_HOUR || count(ipKey) > IP_LIMIT_PER_HOUR) {
      return Response.json({ error: RATE_LIMIT_MESSAGE }, { status: 429, headers: { ...corsHeaders, 'Retry-After': '3600' } });
    }

    const { error } = await admin.from('report_requests').insert({ ...form, status: 'pending' });
    if (error) {
      // the agent was deleted between page load and submit: keep the lead, without the dangling reference
      if (error.code === '23503' && form.agent_id) {
        const retry = await admin.from('report_requests').insert({ ...form, agent_id: null, status: 'pending' });
        if (retry.error) throw retry.error;
      } else {
        throw error;
      }
    }
    return json({ ok: true }, 201);
  } catch (error) {
    console.error('request-report failed', error);
    return json({ error: 'Could not save your request. Please try again later.' }, 500);
  }
});
