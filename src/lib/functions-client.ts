/**
 * Calls the project's edge functions from the browser with the anon key, without loading supabase-js or zod (the
 * search-results island ships only React and this). Shared by the search-results island, the report-request dialog
 * and the newsletter form. The PUBLIC_ values are validated at build time (./browser-config.ts).
 */
import { anonHeaders, browserConfig } from './browser-config'

/** A function's answer: its HTTP status and parsed JSON body (null when the body was not JSON). */
export interface FunctionResponse<T> {
  status: number
  ok: boolean
  body: T | null
}

/**
 * POSTs `body` as JSON to /functions/v1/<slug> with the anon key, and as the signed-in visitor when `accessToken`
 * (their session's access token) is given.
 * @throws TypeError when the network request itself fails (offline, CORS, server down); HTTP errors are returned.
 */
export async function callFunction<T>(
  slug: string,
  body: unknown,
  signal?: AbortSignal,
  accessToken?: string,
): Promise<FunctionResponse<T>> {
  const response = await fetch(`${browserConfig().apiUrl}/functions/v1/${slug}`, {
    method: 'POST',
    headers: {
      ...anonHeaders(),
      ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
    signal,
  })
  const parsed = (await response.json().catch(() => null)) as T | null
  return { status: response.status, ok: response.ok, body: parsed }
}
