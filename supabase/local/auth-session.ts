/**
 * Sessions as GoTrue issues them: lite's access tokens are re-signed with GoTrue's full claim set (iss, aal, amr,
 * app_metadata, user_metadata, phone, is_anonymous), in JSON answers and in redirect fragments alike, and users carry
 * their MFA factors (./mfa.ts).
 */
import type { App } from '@supabase/lite'
import type pg from 'pg'
import { decodeJwtPayload, signJwt } from './jwt.ts'
import { sessionAal, userFactors } from './mfa.ts'

/** What the auth layers need of the API's options. */
export interface AuthOptions {
  /** HS256 secret shared by API keys, access tokens and edge functions. */
  jwtSecret: string
  /** Public URL of the API; the `iss` claim's base. */
  apiUrl: string
  /** Access token lifetime in seconds (GoTrue's JWT_EXP). */
  jwtExpiry: number
  /** Admin pool that reads and writes the auth schema. */
  pool: pg.Pool
}

/** An /auth/v1 request through lite, with every session and user in the answer made GoTrue-shaped. */
export async function authRequest(app: App, options: AuthOptions, request: Request, peerAddress: string | null) {
  const url = new URL(request.url)
  const grantType = url.searchParams.get('grant_type')
  const response = await app.fetch(request, { peerAddress })
  const method = grantType === 'password' ? 'password' : grantType === 'refresh_token' ? null : 'otp'

  // Sessions come back either as JSON (token, signup, verify POST) or in a redirect fragment (verify GET).
  const location = response.headers.get('location')
  if (location && location.includes('access_token=')) {
    const target = new URL(location)
    const fragment = new URLSearchParams(target.hash.slice(1))
    const token = fragment.get('access_token')
    if (token) {
      fragment.set('access_token', await withGoTrueClaims(options, token, 'otp'))
      target.hash = fragment.toString()
      const headers = new Headers(response.headers)
      headers.set('location', target.toString())
      return new Response(null, { status: response.status, headers })
    }
  }
  if (!(response.headers.get('content-type') ?? '').includes('json')) return response
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return new Response(text, response)
  }
  if (body && typeof body === 'object' && 'access_token' in body && typeof body.access_token === 'string') {
    const session = body as { access_token: string; user?: { id?: string; factors?: unknown } }
    session.access_token = await withGoTrueClaims(
      options,
      session.access_token,
      url.pathname.endsWith('/signup') ? 'password' : method,
    )
    if (session.user?.id) session.user.factors = await userFactors(options.pool, session.user.id)
    const headers = new Headers(response.headers)
    headers.delete('content-length')
    return new Response(JSON.stringify(session), { status: response.status, headers })
  }
  // GET/PUT /user: GoTrue lists the user's MFA factors (supabase-js reads them for listFactors and the aal check)
  if (
    response.ok &&
    url.pathname === '/auth/v1/user' &&
    body &&
    typeof body === 'object' &&
    'id' in body &&
    typeof body.id === 'string'
  ) {
    const user = body as { id: string; factors?: unknown }
    user.factors = await userFactors(options.pool, user.id)
    const headers = new Headers(response.headers)
    headers.delete('content-length')
    return new Response(JSON.stringify(user), { status: response.status, headers })
  }
  return new Response(text, response)
}

/**
 * Re-issues a lite access token with the claim set GoTrue puts in every access token
 * (https://supabase.com/docs/guides/auth/jwt-fields): iss, aud, exp, iat, sub, email, phone, role, aal,
 * amr, session_id, is_anonymous, app_metadata, user_metadata. `method` is the amr method; null keeps the
 * previous token's amr (refresh).
 */
async function withGoTrueClaims(options: AuthOptions, token: string, method: string | null): Promise<string> {
  const claims = decodeJwtPayload(token)
  const { rows } = await options.pool.query<{
    email: string | null
    phone: string | null
    raw_app_meta_data: Record<string, unknown> | string | null
    raw_user_meta_data: Record<string, unknown> | string | null
    is_anonymous: boolean | null
  }>('select email, phone, raw_app_meta_data, raw_user_meta_data, is_anonymous from auth.users where id = $1', [
    claims.sub,
  ])
  const user = rows[0]
  const now = Math.floor(Date.now() / 1000)
  const iat = typeof claims.iat === 'number' ? claims.iat : now
  const previousAmr = Array.isArray(claims.amr) ? claims.amr : undefined
  const stepUp = await sessionAal(options.pool, claims.session_id)
  const full = {
    ...claims,
    iss: `${options.apiUrl}/auth/v1`,
    aud: claims.aud ?? 'authenticated',
    role: typeof claims.role === 'string' ? claims.role : 'authenticated',
    email: user?.email ?? claims.email ?? '',
    phone: user?.phone ?? '',
    app_metadata: jsonObject(user?.raw_app_meta_data) ?? { provider: 'email', providers: ['email'] },
    user_metadata: jsonObject(user?.raw_user_meta_data) ?? {},
    // aal2 once the session was stepped up with a TOTP code (./mfa.ts), refreshed tokens included
    aal: stepUp.aal,
    amr: [
      ...stepUp.amr,
      ...(method === null && previousAmr
        ? previousAmr.filter((entry) => (entry as { method?: string }).method !== 'totp')
        : [{ method: method ?? 'password', timestamp: iat }]),
    ],
    is_anonymous: user?.is_anonymous ?? false,
    iat,
  }
  const exp = typeof claims.exp === 'number' ? claims.exp : now + options.jwtExpiry
  return signJwt(options.jwtSecret, { ...full, exp })
}

/** lite keeps auth.users metadata as JSON text; GoTrue claims carry objects. */
export function jsonObject(value: Record<string, unknown> | string | null | undefined): Record<string, unknown> | null {
  if (value == null) return null
  if (typeof value !== 'string') return value
  try {
    const parsed: unknown = JSON.parse(value)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}
