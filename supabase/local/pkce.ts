/**
 * GoTrue's PKCE flow for email links (https://supabase.com/docs/guides/auth/sessions/pkce-flow) in the local
 * stand-in, which @supabase/lite implements for OAuth only. With supabase-js's `flowType: 'pkce'` (the site and the
 * admin use it) no session ever travels in a URL:
 *   POST /signup, /recover, /otp, /magiclink, /resend with {code_challenge, code_challenge_method} (what supabase-js
 *        sends) -> the challenge is kept in auth.flow_state for the user, as GoTrue keeps it;
 *   GET  /verify?token=…&type=…&redirect_to=… that confirms such a user -> 303 to `redirect_to?code=<auth code>`
 *        instead of the session in the fragment;
 *   POST /token?grant_type=pkce {auth_code, code_verifier} -> lite's own exchange (the verifier must hash to the
 *        challenge; a code works once, within five minutes).
 * A malformed challenge is refused with GoTrue's 400 validation_failed before anything is sent.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'

/** The routes that mail a link, and the authentication method GoTrue records for each. */
const EMAIL_LINK_METHODS: Record<string, string> = {
  '/signup': 'email/signup',
  '/resend': 'email/signup',
  '/recover': 'recovery',
  '/otp': 'magiclink',
  '/magiclink': 'magiclink',
}

/** The challenge of a request body, or null without one; a Response (400) when it is malformed. */
export function codeChallengeOf(
  route: string,
  body: Record<string, unknown>,
): { challenge: string; method: 's256' | 'plain' } | Response | null {
  if (!(route in EMAIL_LINK_METHODS)) return null
  const challenge = body.code_challenge
  const method = body.code_challenge_method
  if ((challenge === undefined || challenge === null || challenge === '') && !method) return null
  const refuse = (msg: string) =>
    Response.json(
      { code: 400, error_code: 'validation_failed', msg },
      { status: 400, headers: { 'X-Sb-Error-Code': 'validation_failed' } },
    )
  if (typeof challenge !== 'string' || typeof method !== 'string' || !challenge || !method)
    return refuse('PKCE flow requires code_challenge_method and code_challenge')
  if (challenge.length < 43 || challenge.length > 128)
    return refuse('code challenge has to be between 43 and 128 characters')
  if (!/^[a-zA-Z._~0-9-]+$/.test(challenge))
    return refuse('code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes')
  const normalized = method.toLowerCase()
  if (normalized !== 's256' && normalized !== 'plain') return refuse('Invalid code_challenge_method')
  return { challenge, method: normalized }
}

/** Keeps the challenge of an email-link request for the user `email` names (after the request succeeded). */
export async function rememberCodeChallenge(
  pool: pg.Pool,
  route: string,
  email: string,
  pkce: { challenge: string; method: 's256' | 'plain' },
): Promise<void> {
  const { rows } = await pool.query<{ id: string }>('select id::text as id from auth.users where lower(email) = $1', [
    email.toLowerCase(),
  ])
  const userId = rows[0]?.id
  if (!userId) return
  await pool.query(
    `insert into auth.flow_state (id, user_id, code_challenge, code_challenge_method, provider_type,
                                  provider_access_token, provider_refresh_token, authentication_method, created_at, updated_at)
     values ($1, $2, $3, $4, 'email', '', '', $5, now(), now())`,
    [randomUUID(), userId, pkce.challenge, pkce.method, EMAIL_LINK_METHODS[route]],
  )
}

function subjectOf(accessToken: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      sub?: unknown
    }
    return typeof payload.sub === 'string' ? payload.sub : null
  } catch {
    return null
  }
}

/**
 * A GET /verify answer for a user with an open PKCE flow: the redirect carries `?code=` (a one-time auth code bound to
 * their challenge) instead of the session; any other answer is returned as it is.
 */
export async function pkceVerifyRedirect(pool: pg.Pool, response: Response): Promise<Response> {
  const location = response.headers.get('location')
  if (!location) return response
  const target = new URL(location)
  const fragment = new URLSearchParams(target.hash.slice(1))
  const accessToken = fragment.get('access_token')
  const userId = accessToken ? subjectOf(accessToken) : null
  if (!userId) return response
  const code = randomUUID()
  // the exchange allows five minutes from created_at: count them from the click, not from the sign-up
  const { rowCount } = await pool.query(
    `update auth.flow_state set auth_code = $2, auth_code_issued_at = now(), created_at = now(), updated_at = now()
      where id = (select id from auth.flow_state
                   where user_id::text = $1 and auth_code is null and provider_type = 'email'
                   order by created_at desc limit 1)`,
    [userId, code],
  )
  if (!rowCount) return response
  target.hash = ''
  target.searchParams.set('code', code)
  const headers = new Headers(response.headers)
  headers.set('location', target.toString())
  return new Response(null, { status: response.status, headers })
}
