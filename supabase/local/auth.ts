/**
 * The GoTrue side (/auth/v1) of the local API: GoTrue's protections and behaviours around lite's auth routes.
 *  - the [auth.rate_limit] limits and the password policy of supabase/config.toml (./auth-limits.ts), and a
 *    per-address lockout after repeated wrong passwords;
 *  - request bodies checked before lite sees them (./auth-body.ts: 64 KB cap, JSON object, string fields, no control
 *    characters: a 4xx instead of lite's 500);
 *  - refresh-token reuse after the reuse interval revoking the whole session;
 *  - the same answers for known and unknown addresses on sign-in, sign-up and recovery;
 *  - MFA endpoints answering GoTrue-shaped JSON (./mfa.ts) instead of lite's HTML fallback;
 *  - PKCE email links (./pkce.ts), GoTrue's claims in every session (./auth-session.ts), and the admin user API
 *    (./auth-admin.ts).
 */
import type { App } from '@supabase/lite'
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { createUserAsAdmin } from './auth-admin.ts'
import { readAuthBody, withBody } from './auth-body.ts'
import { goTrueError, refused } from './auth-errors.ts'
import { limitKind, type AuthLimiter, type AuthLimitsConfig } from './auth-limits.ts'
import { authRequest, type AuthOptions } from './auth-session.ts'
import { mfaRequest } from './mfa.ts'
import { codeChallengeOf, pkceVerifyRedirect, rememberCodeChallenge } from './pkce.ts'

/** The auth layer's state for the life of the API: limits from config.toml, their counters, suppressed mail. */
export interface AuthGuard {
  limits: AuthLimitsConfig
  limiter: AuthLimiter
  /** Addresses whose next email is dropped (admin-created users need no confirmation email). */
  suppressedMail: Set<string>
}

async function errorCodeOf(response: Response): Promise<string | null> {
  if (response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return null
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error_code?: unknown } | null
  return typeof body?.error_code === 'string' ? body.error_code : null
}

/** True when `password` is the user's password (pgcrypto's crypt reads lite's bcrypt hashes). */
async function passwordMatches(pool: pg.Pool, email: string, password: string): Promise<boolean> {
  const { rows } = await pool.query<{ ok: boolean }>(
    `select encrypted_password is not null
        and extensions.crypt($2, regexp_replace(encrypted_password, '^\\$2b\\$', '$2a$')) = regexp_replace(encrypted_password, '^\\$2b\\$', '$2a$') as ok
     from auth.users where email = $1`,
    [email, password],
  )
  return rows[0]?.ok === true
}

/**
 * GoTrue's answer to a sign-up for an address that already exists while confirmations are on: 200 with an
 * obfuscated user that has no identities and a fresh id, exactly like a new sign-up, so the answer does not tell
 * whether the address has an account.
 */
function obfuscatedUser(email: string): Response {
  const now = new Date().toISOString()
  return Response.json({
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  })
}

/**
 * Refresh-token reuse detection (GoTrue's `refresh_token_reuse_interval`): a token that was rotated more than the
 * interval ago and is presented again means it leaked, so every refresh token of its session is revoked and the
 * session deleted; the caller gets 400 refresh_token_already_used. Returns null when the token may proceed.
 */
async function detectRefreshReuse(pool: pg.Pool, token: string, intervalSeconds: number): Promise<Response | null> {
  const { rows } = await pool.query<{ session_id: string | null; reused: boolean }>(
    `select session_id::text as session_id,
            (revoked and updated_at < now() - make_interval(secs => $2)) as reused
       from auth.refresh_tokens where token = $1`,
    [token, intervalSeconds],
  )
  const row = rows[0]
  if (!row?.reused) return null
  if (row.session_id) {
    await pool.query('update auth.refresh_tokens set revoked = true, updated_at = now() where session_id::text = $1', [
      row.session_id,
    ])
    await pool.query('delete from auth.sessions where id::text = $1', [row.session_id])
  }
  return goTrueError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used')
}

const mfaPath = /^\/auth\/v1\/(factors|mfa)(\/|$)/

/** The limits, body checks and GoTrue behaviours around lite's auth routes. */
export async function guardedAuthRequest(
  app: App,
  options: AuthOptions,
  guard: AuthGuard,
  request: Request,
  peerAddress: string | null,
): Promise<Response> {
  const url = new URL(request.url)
  const route = url.pathname.slice('/auth/v1'.length) || '/'
  const grantType = url.searchParams.get('grant_type')
  let body: Record<string, unknown> = {}
  if (request.method === 'POST' || request.method === 'PUT') {
    const read = await readAuthBody(request)
    if (read instanceof Response) return read
    body = read.body
    request = withBody(request, read.text)
  }
  if (route === '/admin/users' && request.method === 'POST')
    return createUserAsAdmin(app, options, guard.suppressedMail, request, body)

  const kind = limitKind(request.method, route, grantType)
  if (kind) {
    const refusal = guard.limiter.checkIp(kind, peerAddress ?? 'unknown')
    if (refusal) return refused(refusal)
  }
  // MFA challenge and verify are counted above (./auth-limits.ts), as GoTrue limits them
  if (mfaPath.test(url.pathname)) return mfaRequest(options, request, body)
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : ''
  // PKCE email links (./pkce.ts): a malformed challenge is refused before anything is sent
  const pkce = codeChallengeOf(route, body)
  if (pkce instanceof Response) return pkce
  if (email && kind === 'email_sent') {
    const refusal = guard.limiter.checkEmailFrequency(email)
    if (refusal) return refused(refusal)
  }

  if (route === '/token' && grantType === 'password') {
    if (email) {
      const refusal = guard.limiter.checkPasswordAttempt(email)
      if (refusal) return refused(refusal)
    }
    const response = await authRequest(app, options, request, peerAddress)
    const code = await errorCodeOf(response)
    if (code === 'invalid_credentials' && email) guard.limiter.recordPasswordFailure(email)
    // lite reports "not confirmed" before checking the password; GoTrue checks the password first, so a wrong
    // password on an unconfirmed account is the same "Invalid login credentials" as on an unknown address
    if (code === 'email_not_confirmed' && !(await passwordMatches(options.pool, email, String(body.password ?? '')))) {
      guard.limiter.recordPasswordFailure(email)
      return goTrueError(400, 'invalid_credentials', 'Invalid login credentials')
    }
    return response
  }
  if (route === '/token' && grantType === 'refresh_token' && typeof body.refresh_token === 'string') {
    const reuse = await detectRefreshReuse(options.pool, body.refresh_token, guard.limits.refreshTokenReuseInterval)
    if (reuse) return reuse
  }
  const response = await authRequest(app, options, request, peerAddress)
  if (pkce && email && response.ok) await rememberCodeChallenge(options.pool, route, email, pkce)
  if (route === '/verify' && request.method === 'GET') return pkceVerifyRedirect(options.pool, response)
  if (route === '/signup' && email) {
    const code = await errorCodeOf(response)
    if (code === 'over_email_send_rate_limit' || code === 'user_already_exists' || code === 'email_exists')
      return obfuscatedUser(email)
  }
  return response
}
