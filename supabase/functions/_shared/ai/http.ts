/**
 * HTTP plumbing of the admin-only content functions: JSON answers, the service-role client, and the admin check:
 * the functions run with verify_jwt = false (the gateway's check breaks with the new asymmetric JWT signing keys),
 * so Auth's getUser() proves the token is valid and is_admin() decides whether its user may run the pipeline. CORS
 * and the rest of the request handling live in the one request shell (../http.ts).
 */
import { callerClient, type Db, platformEnv, serviceClient } from '../supabase.ts'

export { type Db, serviceClient }

/** A JSON answer; the request shell adds the CORS headers. */
export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status })
}

// Validated at start-up so a missing platform variable fails the boot, not a request.
platformEnv()

export type AdminCheck = { ok: true; userId: string } | { ok: false; status: 401 | 403; error: string }

/**
 * 401 without a user token (the anon key is not a user), 403 when the user is not listed as admin; otherwise the
 * caller's user id.
 */
export async function requireAdmin(request: Request): Promise<AdminCheck> {
  const authorization = request.headers.get('authorization') ?? ''
  if (!/^Bearer\s+\S+/i.test(authorization)) return { ok: false, status: 401, error: 'Sign in as an administrator' }
  const caller = callerClient(authorization)
  const token = authorization.replace(/^Bearer\s+/i, '')
  const { data: userData, error: userError } = await caller.auth.getUser(token)
  if (userError || !userData.user) return { ok: false, status: 401, error: 'Sign in as an administrator' }
  const { data: isAdmin, error } = await caller.rpc('is_admin')
  if (error) throw new Error(`is_admin() failed: ${error.message}`)
  if (isAdmin !== true) return { ok: false, status: 403, error: 'Administrator access required' }
  return { ok: true, userId: userData.user.id }
}

/** Runs work after the response: EdgeRuntime.waitUntil on hosted Supabase, a detached promise under plain Deno. */
export function runInBackground(work: Promise<unknown>): void {
  const guarded = work.catch((error) => console.error('background work failed', error))
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil(promise: Promise<unknown>): void } }).EdgeRuntime
  if (runtime?.waitUntil) runtime.waitUntil(guarded)
}
