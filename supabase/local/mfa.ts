/**
 * GoTrue's TOTP multi-factor endpoints for the local stand-in (https://supabase.com/docs/guides/auth/auth-mfa/totp),
 * which @supabase/lite does not have. TOTP codes are RFC 6238 (SHA-1, 6 digits, 30 s) through the `otpauth`
 * library; the QR code is an SVG from `qrcode`, raw as GoTrue returns it (supabase-js makes it a data URL).
 *   POST   /auth/v1/factors                {factor_type: 'totp', friendly_name?, issuer?}
 *          -> 200 {id, type: 'totp', friendly_name, totp: {qr_code (an SVG), secret, uri}}   (status unverified)
 *   POST   /auth/v1/factors/:id/challenge  -> 200 {id, type: 'totp', expires_at}    (challenge valid 5 minutes)
 *   POST   /auth/v1/factors/:id/verify     {challenge_id, code}
 *          -> 200 a session whose access token has aal 'aal2' and amr [{method: 'totp'}, ...]; the factor becomes verified
 *   DELETE /auth/v1/factors/:id            -> 200 {id}  (an aal2 session is needed to remove a verified factor)
 * As hosted GoTrue (internal/api/mfa.go), once a user has a verified factor every further enrollment needs an aal2
 * session (403 insufficient_aal "AAL2 required to enroll a new factor"), so a stolen password cannot add the thief's
 * authenticator; the stand-in also refuses to verify another unverified factor from an aal1 session then. Challenge
 * and verify are rate-limited per client IP by ./auth.ts through ./auth-limits.ts, as GoTrue limits them.
 * Errors use GoTrue's body {code, error_code, msg}: 401 without a user token, 404 mfa_factor_not_found,
 * 422 mfa_verification_failed (wrong code), mfa_challenge_expired, 403 insufficient_aal.
 * State lives where GoTrue keeps it: auth.mfa_factors, auth.mfa_challenges and auth.mfa_amr_claims (created for the
 * stand-in by bootstrap-after-auth.sql; hosted Supabase has them). A session's aal is aal2 once a totp claim exists
 * for it (`sessionAal`), and ./auth-session.ts signs that into every access token of the session, refreshes included.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import * as OTPAuth from 'otpauth'
import type pg from 'pg'
import QRCode from 'qrcode'
import { signJwt, verifyJwt, type SupabaseClaims } from './jwt.ts'

interface MfaOptions {
  jwtSecret: string
  apiUrl: string
  jwtExpiry: number
  pool: pg.Pool
}

/** A factor as GoTrue lists it in `user.factors`. */
export interface FactorJson {
  id: string
  friendly_name: string | null
  factor_type: 'totp'
  status: 'verified' | 'unverified'
  created_at: string
  updated_at: string
}

const CHALLENGE_SECONDS = 300

function error(status: number, errorCode: string, msg: string): Response {
  return Response.json(
    { code: status, error_code: errorCode, msg },
    { status, headers: { 'X-Sb-Error-Code': errorCode } },
  )
}

/** The TOTP generator of a factor's base32 secret (RFC 6238 defaults: SHA-1, 6 digits, 30 s). */
export function totpFor(secret: string, label = 'user', issuer = 'Agent Insight'): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secret),
  })
}

/** The user's factors, oldest first, as `user.factors`. */
export async function userFactors(pool: pg.Pool, userId: string): Promise<FactorJson[]> {
  const { rows } = await pool.query<FactorJson>(
    `select id::text as id, friendly_name, factor_type, status, created_at, updated_at
       from auth.mfa_factors where user_id::text = $1 order by created_at`,
    [userId],
  )
  return rows.map((row) => ({
    ...row,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  }))
}

/** 'aal2' when the session was stepped up with a TOTP code, else 'aal1'; and the amr entries to add. */
export async function sessionAal(
  pool: pg.Pool,
  sessionId: unknown,
): Promise<{ aal: 'aal1' | 'aal2'; amr: { method: string; timestamp: number }[] }> {
  if (typeof sessionId !== 'string') return { aal: 'aal1', amr: [] }
  const { rows } = await pool.query<{ created_at: Date }>(
    `select created_at from auth.mfa_amr_claims where session_id::text = $1 and authentication_method = 'totp' order by created_at desc limit 1`,
    [sessionId],
  )
  const claim = rows[0]
  return claim
    ? { aal: 'aal2', amr: [{ method: 'totp', timestamp: Math.floor(claim.created_at.getTime() / 1000) }] }
    : { aal: 'aal1', amr: [] }
}

/** True when the user has a verified factor. */
async function hasVerifiedFactor(pool: pg.Pool, userId: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    `select 1 from auth.mfa_factors where user_id::text = $1 and status = 'verified' limit 1`,
    [userId],
  )
  return (rowCount ?? 0) > 0
}

async function caller(options: MfaOptions, request: Request): Promise<SupabaseClaims | null> {
  const token = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
  if (!token) return null
  const claims = await verifyJwt(options.jwtSecret, token).catch(() => null)
  return claims && claims.role === 'authenticated' && typeof claims.sub === 'string' ? claims : null
}

/** Answers an /auth/v1/factors request (see the top of this file); `body` is the checked JSON body. */
export async function mfaRequest(
  options: MfaOptions,
  request: Request,
  body: Record<string, unknown>,
): Promise<Response> {
  const claims = await caller(options, request)
  if (!claims) return error(401, 'no_authorization', 'This endpoint requires a valid Bearer token')
  const userId = claims.sub as string
  const { pathname } = new URL(request.url)
  const match = /^\/auth\/v1\/factors(?:\/([^/]+))?(?:\/(challenge|verify))?\/?$/.exec(pathname)
  if (!match) return error(404, 'not_found', 'Not found')
  const [, factorId, action] = match

  if (!factorId) {
    if (request.method !== 'POST') return error(405, 'method_not_allowed', 'Use POST')
    if ((body.factor_type ?? 'totp') !== 'totp')
      return error(422, 'mfa_factor_type_not_supported', 'Only totp factors are supported')
    if (claims.aal !== 'aal2' && (await hasVerifiedFactor(options.pool, userId)))
      return error(403, 'insufficient_aal', 'AAL2 required to enroll a new factor')
    const friendlyName =
      typeof body.friendly_name === 'string' && body.friendly_name.trim()
        ? body.friendly_name.trim().slice(0, 100)
        : null
    if (friendlyName) {
      const taken = await options.pool.query(
        'select 1 from auth.mfa_factors where user_id::text = $1 and friendly_name = $2',
        [userId, friendlyName],
      )
      if (taken.rowCount)
        return error(
          422,
          'mfa_factor_name_conflict',
          `A factor with the friendly name "${friendlyName}" for this user already exists`,
        )
    }
    // unverified factors left from abandoned enrollments are replaced, as GoTrue does
    await options.pool.query(`delete from auth.mfa_factors where user_id::text = $1 and status = 'unverified'`, [
      userId,
    ])
    const secret = new OTPAuth.Secret({ buffer: randomBytes(20).buffer }).base32
    const issuer =
      typeof body.issuer === 'string' && body.issuer.trim() ? body.issuer.trim().slice(0, 100) : 'Agent Insight'
    const uri = totpFor(secret, String(claims.email ?? userId), issuer).toString()
    const id = randomUUID()
    await options.pool.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret, created_at, updated_at)
       values ($1, $2, $3, 'totp', 'unverified', $4, now(), now())`,
      [id, userId, friendlyName, secret],
    )
    // GoTrue answers the raw SVG and supabase-js prefixes `data:image/svg+xml;utf-8,` itself, so the SVG must read
    // as a data URL as it is: named colours instead of `#rrggbb` (a `#` would end the URL)
    const svg = (await QRCode.toString(uri, { type: 'svg', margin: 1 }))
      .replaceAll('#ffffff', 'white')
      .replaceAll('#000000', 'black')
    return Response.json({
      id,
      type: 'totp',
      friendly_name: friendlyName,
      totp: { qr_code: svg, secret, uri },
    })
  }

  const { rows } = await options.pool.query<{ id: string; secret: string; status: string }>(
    'select id::text as id, secret, status from auth.mfa_factors where id::text = $1 and user_id::text = $2',
    [factorId, userId],
  )
  const factor = rows[0]
  if (!factor) return error(404, 'mfa_factor_not_found', 'Factor not found')

  if (!action) {
    if (request.method !== 'DELETE') return error(405, 'method_not_allowed', 'Use DELETE')
    if (factor.status === 'verified' && claims.aal !== 'aal2') {
      return error(403, 'insufficient_aal', 'AAL2 required to unenroll a verified factor')
    }
    await options.pool.query('delete from auth.mfa_factors where id::text = $1', [factor.id])
    return Response.json({ id: factor.id })
  }
  if (request.method !== 'POST') return error(405, 'method_not_allowed', 'Use POST')

  if (action === 'challenge') {
    const id = randomUUID()
    const { rows: created } = await options.pool.query<{ created_at: Date }>(
      'insert into auth.mfa_challenges (id, factor_id, created_at) values ($1, $2, now()) returning created_at',
      [id, factor.id],
    )
    return Response.json({
      id,
      type: 'totp',
      expires_at: Math.floor(created[0]!.created_at.getTime() / 1000) + CHALLENGE_SECONDS,
    })
  }

  // verify
  const challengeId = typeof body.challenge_id === 'string' ? body.challenge_id : ''
  const code = typeof body.code === 'string' ? body.code.trim() : ''
  const { rows: challenges } = await options.pool.query<{ expired: boolean; verified: boolean }>(
    `select created_at < now() - make_interval(secs => $3) as expired, verified_at is not null as verified
       from auth.mfa_challenges where id::text = $1 and factor_id::text = $2`,
    [challengeId, factor.id, CHALLENGE_SECONDS],
  )
  const challenge = challenges[0]
  if (!challenge || challenge.verified) return error(404, 'mfa_challenge_not_found', 'Challenge not found')
  if (challenge.expired)
    return error(
      422,
      'mfa_challenge_expired',
      'MFA challenge has expired, verify against another challenge or create a new factor.',
    )
  // a second factor joins an account that has one only from an aal2 session (the enrollment rule above, for a
  // factor left unverified from before the first one was verified)
  if (factor.status !== 'verified' && claims.aal !== 'aal2' && (await hasVerifiedFactor(options.pool, userId)))
    return error(403, 'insufficient_aal', 'AAL2 required to verify a new factor')
  if (!/^\d{6}$/.test(code) || totpFor(factor.secret).validate({ token: code, window: 1 }) === null) {
    return error(422, 'mfa_verification_failed', 'Invalid TOTP code entered')
  }
  await options.pool.query('update auth.mfa_challenges set verified_at = now() where id::text = $1', [challengeId])
  await options.pool.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id::text = $1`, [
    factor.id,
  ])
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : null
  if (sessionId) {
    await options.pool.query(
      `insert into auth.mfa_amr_claims (id, session_id, authentication_method, created_at, updated_at) values ($1, $2, 'totp', now(), now())`,
      [randomUUID(), sessionId],
    )
  }
  return Response.json(await steppedUpSession(options, claims, userId))
}

/** The session GoTrue returns after a verified code: a new access token at aal2 and the session's refresh token. */
async function steppedUpSession(options: MfaOptions, claims: SupabaseClaims, userId: string) {
  const now = Math.floor(Date.now() / 1000)
  const previousAmr = Array.isArray(claims.amr) ? (claims.amr as { method: string; timestamp: number }[]) : []
  const accessToken = await signJwt(options.jwtSecret, {
    ...claims,
    aal: 'aal2',
    amr: [{ method: 'totp', timestamp: now }, ...previousAmr.filter((entry) => entry.method !== 'totp')],
    iat: now,
    exp: now + options.jwtExpiry,
  })
  const { rows } = await options.pool.query<{ token: string }>(
    `select token from auth.refresh_tokens where session_id::text = $1 and not revoked order by id desc limit 1`,
    [claims.session_id ?? ''],
  )
  const { rows: users } = await options.pool.query<Record<string, unknown>>(
    `select id::text as id, email, email_confirmed_at, created_at, updated_at, raw_app_meta_data, raw_user_meta_data from auth.users where id::text = $1`,
    [userId],
  )
  const user = users[0] ?? {}
  const parse = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : (value ?? {}))
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: options.jwtExpiry,
    expires_at: now + options.jwtExpiry,
    refresh_token: rows[0]?.token ?? '',
    user: {
      id: userId,
      aud: 'authenticated',
      role: 'authenticated',
      email: user.email ?? '',
      email_confirmed_at: user.email_confirmed_at ?? null,
      phone: '',
      app_metadata: parse(user.raw_app_meta_data),
      user_metadata: parse(user.raw_user_meta_data),
      identities: [],
      factors: await userFactors(options.pool, userId),
      created_at: user.created_at,
      updated_at: user.updated_at,
      is_anonymous: false,
    },
  }
}
