/** GoTrue's admin user API on the local stand-in, which scripts and tests use to create confirmed users. */
import type { App } from '@supabase/lite'
import { goTrueError } from './auth-errors.ts'
import { jsonObject, type AuthOptions } from './auth-session.ts'
import { bearerToken, verifyJwt } from './jwt.ts'

/**
 * POST /auth/v1/admin/users with the service-role key: creates a user, confirmed when `email_confirm` is true (its
 * address goes into `suppressedMail` for the sign-up, so no confirmation email is sent, as with GoTrue's admin API).
 * Answers GoTrue's user JSON, 403 not_admin without the service-role key, 400 validation_failed without an email or
 * a password, 422 email_exists for a taken address and lite's 422 weak_password under the password policy.
 */
export async function createUserAsAdmin(
  app: App,
  options: AuthOptions,
  suppressedMail: Set<string>,
  request: Request,
  body: Record<string, unknown>,
): Promise<Response> {
  const token = bearerToken(request) ?? request.headers.get('apikey') ?? ''
  const claims = await verifyJwt(options.jwtSecret, token).catch(() => null)
  if (claims?.role !== 'service_role') return goTrueError(403, 'not_admin', 'User not allowed')
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : ''
  const password = typeof body.password === 'string' ? body.password : ''
  if (!email || !password) return goTrueError(400, 'validation_failed', 'email and password are required')
  const existing = await options.pool.query('select 1 from auth.users where email = $1', [email])
  if (existing.rowCount)
    return goTrueError(422, 'email_exists', 'A user with this email address has already been registered')
  const url = new URL(request.url)
  const signup = new Request(`${url.origin}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: token, Authorization: `Bearer ${token}` },
    body: JSON.stringify({ email, password, data: body.user_metadata ?? {} }),
  })
  // the same password policy as sign-up applies (lite answers 422 weak_password)
  if (body.email_confirm === true) suppressedMail.add(email)
  let response = await app.fetch(signup, { peerAddress: null })
  suppressedMail.delete(email)
  if (!response.ok) return response
  if (body.email_confirm === true) {
    await options.pool.query(
      `update auth.users set email_confirmed_at = now(), confirmation_token = null, confirmation_sent_at = null where email = $1`,
      [email],
    )
  }
  const { rows } = await options.pool.query<{
    id: string
    email: string
    email_confirmed_at: string | null
    created_at: string
    raw_user_meta_data: unknown
  }>(
    'select id::text as id, email, email_confirmed_at, created_at, raw_user_meta_data from auth.users where email = $1',
    [email],
  )
  const user = rows[0]!
  response = Response.json({
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    email_confirmed_at: user.email_confirmed_at,
    phone: '',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: jsonObject(user.raw_user_meta_data as string | null) ?? {},
    identities: [],
    created_at: user.created_at,
    updated_at: user.created_at,
    is_anonymous: false,
  })
  return response
}
