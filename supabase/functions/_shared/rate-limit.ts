/**
 * The rate limits of the public edge functions, counted in the database (public.hit_rate_limits over
 * public.rate_limit_hits, so every isolate of a function shares the counts) under keyed hashes: the table never
 * holds an address. A key is a kind (what is counted, e.g. 'search-ip') and a value (a client IP from
 * ./client-ip.ts, which the client cannot write, or a folded mailbox from ./mailbox-key.ts); each rule has its own
 * fixed window (60 s, an hour, a day). All rules of a request are counted in one call, and the request is refused
 * when any count passes its limit.
 */
import { clientIp } from './client-ip.ts'
import { HttpError } from './http.ts'
import { mailboxKey } from './mailbox-key.ts'
import type { Db } from './supabase.ts'

/** One limit: at most `limit` hits of `kind:value` per window of `windowSeconds`. */
export interface RateLimitRule {
  kind: string
  value: string
  limit: number
  windowSeconds: number
}

/**
 * HMAC-SHA-256 of `kind:value` (value trimmed and lower-cased) under `secret`, hex. Without the secret the stored
 * keys cannot be turned back into addresses (a plain hash of an IPv4 address is brute-forced in minutes).
 */
export async function rateLimitKey(secret: string, kind: string, value: string): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
  const signature = await crypto.subtle.sign('HMAC', key, encoder.encode(`${kind}:${value.trim().toLowerCase()}`))
  return Array.from(new Uint8Array(signature), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * The key of the rate-limit HMACs, shared by every public function: the secret REPORT_REQUEST_HMAC_SECRET (its own,
 * so rotating the API keys does not reset the limits and an API key never doubles as a hashing key;
 * `supabase secrets set`, 32+ characters).
 * @throws Error naming the variable when it is missing or too short (the function then fails at boot).
 */
export function rateLimitSecret(value: string | undefined): string {
  if (!value) throw new Error('REPORT_REQUEST_HMAC_SECRET is not set')
  if (value.length < 32) throw new Error('REPORT_REQUEST_HMAC_SECRET must be at least 32 characters')
  return value
}

/** Counts one hit per key in its window (public.hit_rate_limits) and returns each key's count after it. */
export type HitCounter = (keyHashes: string[], windowSeconds: number[]) => Promise<{ key_hash: string; hits: number }[]>

/** The counter through PostgREST (the service-role client). */
export function rpcHitCounter(db: Db): HitCounter {
  return async (keyHashes, windowSeconds) => {
    const { data, error } = await db.rpc('hit_rate_limits', { key_hashes: keyHashes, window_seconds: windowSeconds })
    if (error) throw error
    return data
  }
}

/** The caller's IP as a rate-limit value (`unknown` when the request did not pass the gateway). */
export function ipValue(request: Request): string {
  return clientIp(request.headers) || 'unknown'
}

/**
 * Counts one hit for every rule (through the service-role client, or `counter`) and refuses the request when one of
 * them is over its limit.
 * @throws HttpError 429 with `message` and Retry-After (the longest window among the rules that refused, in seconds)
 * @throws the database error when counting fails (the function answers 500)
 */
export async function enforceRateLimits(
  counter: Db | HitCounter,
  secret: string,
  rules: RateLimitRule[],
  message: string,
): Promise<void> {
  const keys = await Promise.all(rules.map((rule) => rateLimitKey(secret, rule.kind, rule.value)))
  const count = typeof counter === 'function' ? counter : rpcHitCounter(counter)
  const hits = await count(
    keys,
    rules.map((rule) => rule.windowSeconds),
  )
  const refused = rules.filter(
    (rule, index) => (hits.find((row) => row.key_hash === keys[index])?.hits ?? 0) > rule.limit,
  )
  if (refused.length > 0) {
    const retryAfter = Math.max(...refused.map((rule) => rule.windowSeconds))
    throw new HttpError(429, message, { 'Retry-After': String(retryAfter) })
  }
}

/** Which keys an hourly per-mailbox and per-IP limit counts, and the 429 body's error. */
export interface HourlyLimit {
  emailKind: string
  ipKind: string
  emailPerHour: number
  ipPerHour: number
  message: string
}

/**
 * The hourly per-mailbox (./mailbox-key.ts) and per-IP limit of a form that mails its sender (newsletter sign-up).
 * @throws HttpError 429 with `limit.message` and Retry-After: 3600 when either count passes its limit
 */
export async function enforceHourlyLimit(
  db: Db,
  secret: string,
  request: Request,
  email: string,
  limit: HourlyLimit,
): Promise<void> {
  await enforceRateLimits(
    db,
    secret,
    [
      { kind: limit.emailKind, value: mailboxKey(email), limit: limit.emailPerHour, windowSeconds: 3600 },
      { kind: limit.ipKind, value: ipValue(request), limit: limit.ipPerHour, windowSeconds: 3600 },
    ],
    limit.message,
  )
}
