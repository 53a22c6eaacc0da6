/**
 * The per-mailbox and per-client-IP hourly limit shared by the public forms (request-report, newsletter-subscribe):
 * both keys are HMACs (./report-request.ts rateLimitKey, never raw emails or addresses), counted in one call of
 * public.hit_report_request_rate_limit, which adds one hit to each key for the current clock hour.
 */
import { clientIp, mailboxKey } from './client-ip.ts';
import { HttpError } from './http.ts';
import { rateLimitKey } from './report-request.ts';
import type { Db } from './supabase.ts';

/** The limits of one form: the HMAC key kinds, the allowed hits per hour, and the 429 message shown as is. */
export interface HourlyLimits {
  emailKind: 'email' | 'newsletter-email';
  ipKind: 'ip' | 'newsletter-ip';
  emailPerHour: number;
  ipPerHour: number;
  message: string;
}

/**
 * Counts this request against the email (case and +tag folded) and the client IP of `request`.
 * @throws HttpError 429 with `limits.message` and Retry-After: 3600 when either count passes its limit.
 * @throws the database error when the count cannot be stored (a 500 through serveFunction).
 */
export async function enforceHourlyLimits(db: Db, secret: string, request: Request, email: string, limits: HourlyLimits): Promise<void> {
  const emailKey = await rateLimitKey(secret, limits.emailKind, mailboxKey(email));
  const ipKey = await rateLimitKey(secret, limits.ipKind, clientIp(request.headers) || 'unknown');
  const { data: hits, error } = await db.rpc('hit_report_request_rate_limit', { key_hashes: [emailKey, ipKey] });
  if (error) throw error;
  const count = (key: string) => hits.find((row) => row.key_hash === key)?.hits ?? 0;
  if (count(emailKey) > limits.emailPerHour || count(ipKey) > limits.ipPerHour) {
    throw new HttpError(429, limits.message, { 'Retry-After': '3600' });
  }
}
