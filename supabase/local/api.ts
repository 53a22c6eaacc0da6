/**
 * The PostgREST (/rest/v1) and GoTrue (/auth/v1) APIs of the local stand-in: @supabase/lite 0.10.0 embedded as a
 * library on a real Postgres, wrapped by a compatibility layer that closes the gaps measured between lite and the
 * real services (every write into lite's internals goes through ./lite-adapter.ts):
 *  1. timestamps and numerics are rendered as PostgREST renders them (see `postgresTypes`);
 *  2. access tokens carry GoTrue's full claim set (iss, aal, amr, app_metadata, user_metadata, phone, is_anonymous);
 *  3. `Accept: application/vnd.pgrst.object+json` always yields one object, or 406 PGRST116;
 *  4. a bearer token that is not a valid JWT is refused with 401 PGRST301 (PGRST303 when expired);
 *  5. (in bootstrap-after-auth.sql) the API roles may use schema auth;
 *  6. MFA endpoints answer GoTrue-shaped JSON errors instead of lite's HTML fallback;
 *  7. database errors lite does not classify (check violations and others) keep their SQLSTATE and get
 *     PostgREST's HTTP status instead of 500 "SUP";
 *  8. GoTrue's protections: the [auth.rate_limit] limits and the password policy of
 *     supabase/config.toml (./auth-limits.ts), a per-address lockout after repeated wrong passwords, request bodies
 *     checked before lite sees them (64 KB cap, JSON object, string fields, no control characters: a 4xx instead of
 *     lite's 500), refresh-token reuse after the reuse interval revoking the whole session, the same answers for
 *     known and unknown addresses on sign-in, sign-up and recovery, email confirmation on, the recovery email
 *     linking to the site's /auth/reset-password page, and the admin user API (POST /auth/v1/admin/users) that
 *     scripts and tests use to create confirmed users.
 * The API keys are the legacy HS256 JWTs (anon, service_role) that hosted Supabase still issues, so the same
 * SUPABASE_ANON_KEY / SUPABASE_SERVICE_ROLE_KEY configuration works in both places.
 */
import { App, type EmailDriver, type ResolvedKey } from '@supabase/lite'
import { createPostgresConnection } from '@supabase/lite/postgres'
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type pg from 'pg'
import { findControlCharacters } from '../functions/_shared/text-guard.ts'
import {
  createAuthLimiter,
  limitKind,
  readAuthLimits,
  type AuthLimiter,
  type AuthLimitsConfig,
  type Refusal,
} from './auth-limits.ts'
import { JwtError, decodeJwtPayload, signJwt, verifyJwt } from './jwt.ts'
import { mfaRequest, sessionAal, userFactors } from './mfa.ts'
import { codeChallengeOf, pkceVerifyRedirect, rememberCodeChallenge } from './pkce.ts'
import {
  attachStorage,
  clearSchemaCache,
  closeConnection,
  errorMarker,
  keepGrantsAsMigrated,
  preserveDatabaseErrors,
  quietDatabaseErrorLogs,
} from './lite-adapter.ts'

export interface ApiOptions {
  /** postgres:// URL of the database the API serves. */
  databaseUrl: string
  /** HS256 secret shared by API keys, access tokens and edge functions (at least 32 characters). */
  jwtSecret: string
  /** Public URL of this API, e.g. http://127.0.0.1:54321; becomes the `iss` claim's base. */
  apiUrl: string
  /** Where auth emails link back to (GoTrue's SITE_URL). */
  siteUrl: string
  /** Extra allowed redirect targets for auth emails. */
  redirectUrls: string[]
  /** Access token lifetime in seconds (GoTrue's JWT_EXP, default 3600). */
  jwtExpiry: number
  /** Sends auth emails; locally the mailbox. */
  email: EmailDriver
  /** Admin pool used to read user metadata when re-issuing tokens. */
  pool: pg.Pool
  /**
   * The config.toml whose [auth] settings (rate limits, password policy, refresh-token reuse interval, email
   * frequency) the API enforces; default supabase/config.toml. Test stacks pass one with looser per-IP limits.
   */
  authConfigToml?: string
  /** Folder of the Storage API's objects (<folder>/<bucket>/<name>), e.g. <dataDir>/storage. */
  storageDir: string
}

/** Largest upload the Storage API takes before bucket limits (hosted's global default is 50 MB). */
const STORAGE_FILE_SIZE_LIMIT = '50MB'

const defaultConfigToml = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../config.toml')

/** Largest /auth/v1 request body accepted, in bytes (GoTrue's bodies are a few hundred bytes). */
export const AUTH_MAX_BODY_BYTES = 64 * 1024

/** Subject of the password recovery email (supabase/templates/recovery.html is its body). */
export const RECOVERY_SUBJECT = 'Reset your Agent Insight password'

export interface Api {
  fetch(request: Request, peerAddress: string | null): Promise<Response>
  close(): Promise<void>
}

/**
 * postgres.js parsers so that values leave the database the way PostgREST's JSON does: `timestamptz` as
 * 2026-01-02T03:04:05.123+00:00, `timestamp` as 2026-01-02T03:04:05.123, numerics as JSON numbers.
 * (PostgREST serializes through Postgres' own json output, which uses ISO 8601 with a T and a full offset.)
 */
export const postgresTypes = {
  timestamptz: {
    to: 1184,
    from: [1184],
    serialize: (value: unknown) => (value instanceof Date ? value.toISOString() : String(value)),
    parse: (value: string) => isoTimestamp(value),
  },
  timestamp: {
    to: 1114,
    from: [1114],
    serialize: (value: unknown) => (value instanceof Date ? value.toISOString().replace('Z', '') : String(value)),
    parse: (value: string) => isoTimestamp(value),
  },
  numeric: {
    to: 1700,
    from: [1700],
    serialize: (value: unknown) => String(value),
    parse: (value: string) => numericValue(value),
  },
}

/** '2026-01-02 03:04:05.123+00' -> '2026-01-02T03:04:05.123+00:00'; infinity stays as Postgres writes it. */
export function isoTimestamp(value: string): string {
  const match = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(
    value,
  )
  if (match) {
    const [, date, time, hours, minutes = '00', seconds] = match
    return `${date}T${time}${hours}:${minutes}${seconds ? ':' + seconds : ''}`
  }
  const naive = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/.exec(value)
  return naive ? `${naive[1]}T${naive[2]}` : value
}

/** Numeric text to a JSON number, as PostgREST emits it; NaN/Infinity and out-of-range stay text. */
export function numericValue(value: string): number | string {
  const number = Number(value)
  return Number.isFinite(number) && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value) ? number : value
}

/** Creates the API. Provisioning of the auth schema happens in `provisionAuthSchema`. */
export async function createApi(options: ApiOptions): Promise<Api> {
  const connection = createPostgresConnection({
    url: options.databaseUrl,
    postgresOptions: { onnotice: () => {}, types: postgresTypes } as never,
  })
  const limits = readAuthLimits(options.authConfigToml ?? defaultConfigToml)
  const suppressedMail = new Set<string>()
  const app = new App({
    connection,
    storage: { enabled: true, file_size_limit: STORAGE_FILE_SIZE_LIMIT, image_transformation: { enabled: false } },
    auth: {
      enabled: true,
      jwt_secret: options.jwtSecret,
      jwt_expiry: options.jwtExpiry,
      site_url: options.siteUrl,
      additional_redirect_urls: options.redirectUrls,
      enable_signup: true,
      enable_refresh_token_rotation: true,
      refresh_token_reuse_interval: limits.refreshTokenReuseInterval,
      minimum_password_length: limits.minimumPasswordLength,
      password_requirements: limits.passwordRequirements,
      email: {
        enable_signup: true,
        enable_confirmations: true,
        template: {
          recovery: {
            subject: RECOVERY_SUBJECT,
            content_path: path.resolve(path.dirname(defaultConfigToml), 'templates/recovery.html'),
          },
        },
      },
    },
    options: {
      server: { apiKeys: { resolver: (key: string) => resolveApiKey(options.jwtSecret, key) }, disableStudio: true },
      drivers: { email: correctedMail(options.email, options.siteUrl, options.apiUrl, suppressedMail) },
    },
  } as never) as App
  const guard: AuthGuard = { limits, limiter: createAuthLimiter(limits), suppressedMail }
  attachStorage(app, options.storageDir)
  await app.init()
  preserveDatabaseErrors(connection, (code) => postgrestStatus(code) !== null)
  quietDatabaseErrorLogs()
  // PostgREST reloads its schema cache on NOTIFY pgrst; so does this API (see bootstrap-after-auth.sql).
  const listener = await options.pool.connect()
  listener.on('error', () => {}) // the database going away first on Ctrl-C is not a crash
  await listener.query('listen pgrst')
  listener.on('notification', () => void clearSchemaCache(connection))
  keepGrantsAsMigrated(connection)

  return {
    async fetch(request, peerAddress) {
      const url = new URL(request.url)
      if (request.method === 'OPTIONS') return preflight(request)
      let response: Response
      if (url.pathname.startsWith('/rest/v1')) response = await restRequest(app, options, request, peerAddress)
      else if (url.pathname.startsWith('/auth/v1'))
        response = await guardedAuthRequest(app, options, guard, request, peerAddress)
      else if (url.pathname.startsWith('/storage/v1')) response = await app.fetch(request)
      else response = Response.json({ message: 'Not found' }, { status: 404 })
      return withCors(response)
    },
    async close() {
      await listener.query('unlisten pgrst').catch(() => {})
      listener.release()
      await closeConnection(connection)
    },
  }
}

/**
 * Provisions lite's auth, storage (buckets, objects, the storage.foldername()... helpers hosted projects have) and
 * migration-history schemas on the database (idempotent).
 */
export async function provisionAuthSchema(databaseUrl: string, jwtSecret: string): Promise<void> {
  const connection = createPostgresConnection({
    url: databaseUrl,
    postgresOptions: { onnotice: () => {} } as never,
  })
  try {
    const app = new App({
      connection,
      auth: { enabled: true, jwt_secret: jwtSecret },
      storage: { enabled: true },
    } as never) as App
    // the schema is provisioned when a backend is attached; this one never stores a file
    attachStorage(app, '/nonexistent')
    await app.ensureSystemSchema()
  } finally {
    await connection.close()
  }
}

const exposedHeaders = 'Content-Range, Content-Location, Preference-Applied, X-Supabase-Api-Version'

/**
 * CORS preflight as the hosted API gateway answers it: any origin, the requested headers echoed (supabase-js sends
 * authorization, apikey, x-client-info, content-type, prefer, range...). lite's auth routes refused `authorization`.
 */
function preflight(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers':
        request.headers.get('access-control-request-headers') ??
        'authorization, apikey, x-client-info, content-type, prefer, range, accept-profile, content-profile, x-supabase-api-version',
      'Access-Control-Max-Age': '86400',
    },
  })
}

function withCors(response: Response): Response {
  if (response.headers.get('access-control-allow-origin') && response.headers.get('access-control-expose-headers'))
    return response
  const headers = new Headers(response.headers)
  headers.set('Access-Control-Allow-Origin', '*')
  headers.set('Access-Control-Expose-Headers', exposedHeaders)
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

async function resolveApiKey(secret: string, key: string): Promise<ResolvedKey | null> {
  try {
    const claims = await verifyJwt(secret, key)
    if (claims.role !== 'anon' && claims.role !== 'service_role') return null
    return { type: claims.role === 'service_role' ? 'secret' : 'publishable', claims }
  } catch {
    return null
  }
}

function bearerToken(request: Request): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
}

/** PostgREST's error body for JWT failures, with its WWW-Authenticate header. */
export function jwtErrorResponse(error: JwtError): Response {
  return Response.json(
    { code: error.code, details: null, hint: null, message: error.message },
    {
      status: 401,
      headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${error.message}"` },
    },
  )
}

async function restRequest(app: App, options: ApiOptions, request: Request, peerAddress: string | null) {
  const token = bearerToken(request)
  if (token && !token.startsWith('sb_')) {
    try {
      await verifyJwt(options.jwtSecret, token)
    } catch (error) {
      if (error instanceof JwtError) return jwtErrorResponse(error)
      throw error
    }
  }
  const response = await postgrestErrors(await app.fetch(request, { peerAddress }))
  const wantsObject = (request.headers.get('accept') ?? '').includes('application/vnd.pgrst.object')
  if (!wantsObject || !response.ok || response.status === 204) return response
  const body = await response.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return new Response(body, response)
  }
  if (!Array.isArray(parsed)) return new Response(body, response)
  if (parsed.length !== 1) {
    return Response.json(
      {
        code: 'PGRST116',
        details: `The result contains ${parsed.length} rows`,
        hint: null,
        message: 'JSON object requested, multiple (or no) rows returned',
      },
      { status: 406, headers: { 'Content-Type': 'application/json; charset=utf-8' } },
    )
  }
  const headers = new Headers(response.headers)
  headers.set('Content-Type', 'application/vnd.pgrst.object+json; charset=utf-8')
  headers.delete('Content-Length')
  return new Response(JSON.stringify(parsed[0]), { status: response.status, headers })
}

interface AuthGuard {
  limits: AuthLimitsConfig
  limiter: AuthLimiter
  /** Addresses whose next email is dropped (admin-created users need no confirmation email). */
  suppressedMail: Set<string>
}

/** GoTrue's error body (`{code, error_code, msg}`) with its status and extra headers. */
function goTrueError(status: number, errorCode: string, msg: string, headers: Record<string, string> = {}): Response {
  return Response.json(
    { code: status, error_code: errorCode, msg },
    { status, headers: { 'X-Sb-Error-Code': errorCode, ...headers } },
  )
}

function refused(refusal: Refusal): Response {
  return goTrueError(429, refusal.errorCode, refusal.message, { 'Retry-After': String(refusal.retryAfter) })
}

/** Fields GoTrue reads as strings; anything else there is a 400, never a crash in lite. */
const STRING_FIELDS = [
  'email',
  'password',
  'phone',
  'token',
  'token_hash',
  'refresh_token',
  'type',
  'code',
  'factor_id',
  'challenge_id',
  'friendly_name',
  'factor_type',
  'issuer',
  'nonce',
]

/**
 * Reads and checks an /auth/v1 body before lite sees it: at most AUTH_MAX_BODY_BYTES (413), a JSON object (400),
 * string fields that are strings of sane length (400), no control characters (400 naming the field).
 * Returns the parsed body and its text, or the error answer.
 */
async function readAuthBody(request: Request): Promise<{ body: Record<string, unknown>; text: string } | Response> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > AUTH_MAX_BODY_BYTES) {
    return goTrueError(413, 'request_too_large', `Request body must be at most ${AUTH_MAX_BODY_BYTES} bytes`)
  }
  const bytes = new Uint8Array(await request.arrayBuffer())
  if (bytes.byteLength > AUTH_MAX_BODY_BYTES)
    return goTrueError(413, 'request_too_large', `Request body must be at most ${AUTH_MAX_BODY_BYTES} bytes`)
  const text = new TextDecoder().decode(bytes)
  if (text.trim() === '') return { body: {}, text: '{}' }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return goTrueError(400, 'bad_json', 'Could not parse request body as JSON')
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return goTrueError(400, 'bad_json', 'Request body must be a JSON object')
  const record = body as Record<string, unknown>
  for (const field of STRING_FIELDS) {
    const value = record[field]
    if (value === undefined || value === null) continue
    if (typeof value !== 'string') return goTrueError(400, 'validation_failed', `${field} must be a string`)
    const max = field === 'email' ? 320 : field === 'password' ? 1024 : 4096
    if (value.length > max) return goTrueError(400, 'validation_failed', `${field} must be at most ${max} characters`)
  }
  const field = findControlCharacters(record)
  if (field) return goTrueError(400, 'validation_failed', `${field} must not contain control characters`)
  return { body: record, text }
}

/** A copy of `request` carrying `text` as its body. */
function withBody(request: Request, text: string): Request {
  const headers = new Headers(request.headers)
  headers.delete('content-length')
  return new Request(request.url, { method: request.method, headers, body: text })
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

/** POST /auth/v1/admin/users with the service-role key: creates a user, confirmed when `email_confirm` is true. */
async function createUserAsAdmin(
  app: App,
  options: ApiOptions,
  guard: AuthGuard,
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
  if (body.email_confirm === true) guard.suppressedMail.add(email)
  let response = await app.fetch(signup, { peerAddress: null })
  guard.suppressedMail.delete(email)
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

/** The limits, body checks and GoTrue behaviours of point 8 around lite's auth routes. */
async function guardedAuthRequest(
  app: App,
  options: ApiOptions,
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
    return createUserAsAdmin(app, options, guard, request, body)

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

/**
 * The stand-in's mail corrections around lite's email driver:
 *  - lite builds {{ .ConfirmationURL }} on SITE_URL (`<site>/auth/v1/verify?...`), where GoTrue uses the API's own
 *    URL; links are pointed at this API so confirmation and magic links work locally as they do hosted;
 *  - the recovery email's HTML comes from supabase/templates/recovery.html (linking to the site's
 *    /auth/reset-password page, as hosted), but lite renders its text part from a built-in template; the text part
 *    gets the HTML's link so both lead to the same page;
 *  - users created through the admin API get no confirmation email (`suppress`), as with GoTrue's admin API.
 */
function correctedMail(driver: EmailDriver, siteUrl: string, apiUrl: string, suppress: Set<string>): EmailDriver {
  const siteVerify = `${siteUrl.replace(/\/+$/, '')}/auth/v1/verify`
  const apiVerify = `${apiUrl.replace(/\/+$/, '')}/auth/v1/verify`
  return {
    async send(message) {
      if (suppress.delete(message.to.toLowerCase())) return
      let text = message.text?.replaceAll(siteVerify, apiVerify)
      const html = message.html?.replaceAll(siteVerify, apiVerify)
      if (message.subject === RECOVERY_SUBJECT && html) {
        const link = /href="([^"]*\/auth\/reset-password[^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&')
        if (link) {
          text = `Someone asked to reset the password of your Agent Insight account. To choose a new password, open:\n\n${link}\n\nIf it was not you, ignore this email; your password stays as it is.`
        }
      }
      return driver.send({ ...message, text, html })
    },
  }
}

const mfaPath = /^\/auth\/v1\/(factors|mfa)(\/|$)/

async function authRequest(app: App, options: ApiOptions, request: Request, peerAddress: string | null) {
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
async function withGoTrueClaims(options: ApiOptions, token: string, method: string | null): Promise<string> {
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
function jsonObject(value: Record<string, unknown> | string | null | undefined): Record<string, unknown> | null {
  if (value == null) return null
  if (typeof value !== 'string') return value
  try {
    const parsed: unknown = JSON.parse(value)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/**
 * PostgREST's HTTP status for SQLSTATEs that lite leaves unmapped
 * (https://docs.postgrest.org/en/stable/references/errors.html); null where lite already answers correctly.
 */
export function postgrestStatus(code: string): number | null {
  if (['23505', '23503', '42501', '42P01', '25006', '42883', '42P17', '23502'].includes(code)) return null
  if (/^(42|22|21)/.test(code) || code.startsWith('PT') || code === 'PGRST') return null
  if (/^(08|53)/.test(code)) return 503
  if (/^(0L|0P|28)/.test(code)) return 403
  if (code === 'P0001') return 400
  if (/^(09|25|2D|38|39|3B|40|54|55|57|58|F0|HV|P0|XX)/.test(code)) return 500
  return 400
}

async function postgrestErrors(response: Response): Promise<Response> {
  if (response.status !== 500) return response
  const text = await response.text()
  const index = text.indexOf(errorMarker)
  if (index === -1) return new Response(text, response)
  try {
    const body = JSON.parse(text) as { message: string }
    const inner = body.message.slice(body.message.indexOf(errorMarker) + errorMarker.length)
    const error = JSON.parse(inner) as { code: string; message: string; details: string | null; hint: string | null }
    return Response.json(error, { status: postgrestStatus(error.code) ?? 500 })
  } catch {
    return new Response(text, response)
  }
}
