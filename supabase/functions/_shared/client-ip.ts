/**
 * The caller's IP address for rate limits and hashing only (never stored): the **last** `x-forwarded-for` entry,
 * i.e. the hop the platform's gateway appends with the address it accepted the connection from. Everything left
 * of it was sent by the client and can be forged, so it is ignored (a new fake first
 * entry used to reset a spent rate-limit bucket).
 *  - Hosted Supabase: the API gateway in front of Edge Functions appends the connecting address to
 *    X-Forwarded-For, so the last entry is the one the client did not write.
 *  - Local stand-in (supabase/local/stack.ts `withForwardedFor`): appends the socket's peer address the same way.
 * Client-settable headers (x-real-ip, cf-connecting-ip) are not consulted. '' when there is no x-forwarded-for
 * (a request that did not pass the gateway); callers then use one shared "unknown" bucket.
 */
export function clientIp(headers: Headers): string {
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  return entries.at(-1) ?? ''
}
