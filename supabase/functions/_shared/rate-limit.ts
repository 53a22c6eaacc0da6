/**
 * The hourly per-mailbox and per-IP limit that request-report and newsletter-subscribe share: both keys (HMACs from
 * rateLimitKey in @shared/report-request.ts, so the table never holds an address) are counted in one call of
 * public.hit_report_request_rate_limit, and the request is refused when either count passes its limit.
 */
import { clientIp, mailboxKey } from './client-ip.ts'
import { HttpError } from './http.ts'
import { rateLimitKey } from './report-request.ts'
import type { Db } from './supabase.ts'

/** Which keys to count and the limits per hour; `message` is the 429 body's error. */
export interface HourlyLimit {
  emailKind: 'email' | 'newsletter-email'
  ipKind: 'ip' | 'newsletter-ip'
  emailPerHour: number
  ipPerHour: number
  message: string
}

/**
 * Counts one hit for `email` (case and +tag folded) and for the caller's IP, hashed under `secret`.
 * @throws HttpError 429 with `limit.message` and Retry-After: 3600 when either count passes its limit
 * @throws the database error when counting fails (the function answers 500)
 */
export async function enforceHourlyLimit(
  db: Db,
  secret: string,
  request: Request,
  email: string,
  limit: HourlyLimit,
): Promise<void> {
  const emailKey = await rateLimitKey(secret, limit.emailKind, mailboxKey(email))
  const ipKey = await rateLimitKey(secret, limit.ipKind, clientIp(request.headers) || 'unknown')
  const { data: hits, error } = await db.rpc('hit_report_request_rate_limit', { key_hashes: [emailKey, ipKey] })
  if (error) throw error
  const count = (key: string) => hits.find((row) => row.key_hash === key)?.hits ?? 0
  if (count(emailKey) > limit.emailPerHour || count(ipKey) > limit.ipPerHour) {
    throw new HttpError(429, limit.message, { 'Retry-After': '3600' })
  }
}
