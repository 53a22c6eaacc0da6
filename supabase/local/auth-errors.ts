/** GoTrue's error answers, shared by the local API's auth layers. */
import type { Refusal } from './auth-limits.ts'

/** GoTrue's error body (`{code, error_code, msg}`) with its status and extra headers. */
export function goTrueError(
  status: number,
  errorCode: string,
  msg: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json(
    { code: status, error_code: errorCode, msg },
    { status, headers: { 'X-Sb-Error-Code': errorCode, ...headers } },
  )
}

/** A rate-limit refusal as GoTrue answers it: 429 with Retry-After in seconds. */
export function refused(refusal: Refusal): Response {
  return goTrueError(429, refusal.errorCode, refusal.message, { 'Retry-After': String(refusal.retryAfter) })
}
