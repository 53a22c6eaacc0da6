/**
 * Per-IP limits of the public read and beacon endpoints (search-agents, track-pageview), with their environment
 * overrides and 429 messages. The client IP is the gateway's hop (./client-ip.ts), which the client cannot write;
 * counts live in public.rate_limit_hits (./rate-limit.ts). The form endpoints' limits live beside their contracts
 * (./report-request-contract.ts, ./newsletter.ts). No imports, so every runtime can load it.
 */

/** Searches per client IP per minute (a person pages through results far slower; a scraper is cut off). */
export const SEARCH_IP_LIMIT_PER_MINUTE = 60
/** Environment variable that overrides it (1-100000), e.g. for a load test against a throwaway stack. */
export const SEARCH_IP_LIMIT_VARIABLE = 'SEARCH_RATE_LIMIT_PER_MINUTE'
export const SEARCH_RATE_LIMIT_MESSAGE = 'Too many searches from your network. Please wait a minute and try again.'

/** Page views per visitor hash per minute (the hash mixes IP and User-Agent: one browser). */
export const PAGE_VIEW_VISITOR_LIMIT_PER_MINUTE = 30
export const PAGE_VIEW_VISITOR_LIMIT_VARIABLE = 'ANALYTICS_RATE_LIMIT_PER_MINUTE'
/** Page views per client IP per minute, whatever User-Agents it sends (offices and mobile carriers share IPs). */
export const PAGE_VIEW_IP_LIMIT_PER_MINUTE = 120
export const PAGE_VIEW_IP_LIMIT_VARIABLE = 'ANALYTICS_IP_RATE_LIMIT_PER_MINUTE'

/**
 * A limit from the environment: `fallback` when the variable is unset or empty.
 * @throws Error naming the variable when it is not a whole number from 1 to 100000 (the function fails at boot).
 */
export function limitFromEnv(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback
  const limit = Number(value)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100_000)
    throw new Error(`${name} must be a whole number from 1 to 100000, got ${value}`)
  return limit
}
