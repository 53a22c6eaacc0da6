/**
 * The PostgREST (/rest/v1) and GoTrue (/auth/v1) APIs of the local stand-in: @supabase/lite 0.10.0 embedded as a
 * library on a real Postgres, wrapped by a compatibility layer that closes the gaps measured between lite and the
 * real services (platform issue, "Our wrapper closes the gaps"):
 *  1. timestamps and numerics are rendered as PostgREST renders them (see `postgresTypes`);
 *  2. access tokens carry GoTrue's full claim set (iss, aal, amr, app_metadata, user_metadata, phone, is_anonymous);
 *  3. `Accept: application/vnd.pgrst.object+json` always yields one object, or 406 PGRST116;
 *  4. a bearer token that is not a valid JWT is refused with 401 PGRST301 (PGRST303 when expired);
 *  5. (in bootstrap-after-auth.sql) the API roles may use schema auth;
 *  6. MFA endpoints answer GoTrue-shaped JSON errors instead of lite's HTML fallback;
 *  7. database errors lite does not classify (check violations and others) keep their SQLSTATE and get
 *     PostgREST's HTTP status instead of 500 "SUP".
 * The API keys are the legacy HS256 JWTs (anon, service_role) that hosted Supabase still issues, so the same
 * SUPABASE_ANON_KEY / SUPABASE_SERVICE_ROLE_KEY configuration works in both places.
 */
import { App, type EmailDriver, type ResolvedKey } from '@supabase/lite';
import { createPostgresConnection } from '@supabase/lite/postgres';
import type pg from 'pg';
import { JwtError, decodeJwtPayload, signJwt, verifyJwt } from './jwt.ts';

export interface ApiOptions {
  /** postgres:// URL of the database the API serves. */
  databaseUrl: string;
  /** HS256 secret shared by API keys, access tokens and edge functions (at least 32 characters). */
  jwtSecret: string;
  /** Public URL of this API, e.g. http://127.0.0.1:54321; becomes the `iss` claim's base. */
  apiUrl: string;
  /** Where auth emails link back to (GoTrue's SITE_URL). */
  siteUrl: string;
  /** Extra allowed redirect targets for auth emails. */
  redirectUrls: string[];
  /** Access token lifetime in seconds (GoTrue's JWT_EXP, default 3600). */
  jwtExpiry: number;
  /** Sends auth emails; locally the mailbox. */
  email: EmailDriver;
  /** Admin pool used to read user metadata when re-issuing tokens. */
  pool: pg.Pool;
}

export interface Api {
  fetch(request: Request, peerAddress: string | null): Promise<Response>;
  close(): Promise<void>;
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
};

/** '2026-01-02 03:04:05.123+00' -> '2026-01-02T03:04:05.123+00:00'; infinity stays as Postgres writes it. */
export function isoTimestamp(value: string): string {
  const match = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(value);
  if (match) {
    const [, date, time, hours, minutes = '00', seconds] = match;
    return `${date}T${time}${hours}:${minutes}${seconds ? ':' + seconds : ''}`;
  }
  const naive = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/.exec(value);
  return naive ? `${naive[1]}T${naive[2]}` : value;
}

/** Numeric text to a JSON number, as PostgREST emits it; NaN/Infinity and out-of-range stay text. */
export function numericValue(value: string): number | string {
  const number = Number(value);
  return Number.isFinite(number) && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value) ? number : value;
}

/** Creates the API. Provisioning of the auth schema happens in `provisionAuthSchema`. */
export async function createApi(options: ApiOptions): Promise<Api> {
  const connection = createPostgresConnection({
    url: options.databaseUrl,
    postgresOptions: { onnotice: () => {}, types: postgresTypes } as never,
  });
  const app = new App({
    connection,
    auth: {
      enabled: true,
      jwt_secret: options.jwtSecret,
      jwt_expiry: options.jwtExpiry,
      site_url: options.siteUrl,
      additional_redirect_urls: options.redirectUrls,
      enable_signup: true,
      email: { enable_signup: true, enable_confirmations: false },
    },
    options: {
      server: { apiKeys: { resolver: (key: string) => resolveApiKey(options.jwtSecret, key) }, disableStudio: true },
      drivers: { email: options.email },
    },
  } as never) as App;
  await app.init();
  preserveDatabaseErrors(connection);
  quietDatabaseErrorLogs();
  // PostgREST reloads its schema cache on NOTIFY pgrst; so does this API (see bootstrap-after-auth.sql).
  const listener = await options.pool.connect();
  listener.on('error', () => {}); // the database going away first on Ctrl-C is not a crash
  await listener.query('listen pgrst');
  listener.on('notification', () => {
    void (connection as unknown as { clearSchemaCache(): Promise<void> }).clearSchemaCache();
  });
  // Our migrations grant privileges explicitly; keep lite from granting ALL to the API roles on first request.
  (connection as unknown as { rlsState: string }).rlsState = 'active';

  return {
    async fetch(request, peerAddress) {
      const url = new URL(request.url);
      if (request.method === 'OPTIONS') return preflight(request);
      let response: Response;
      if (url.pathname.startsWith('/rest/v1')) response = await restRequest(app, options, request, peerAddress);
      else if (url.pathname.startsWith('/auth/v1')) response = await authRequest(app, options, request, peerAddress);
      else response = Response.json({ message: 'Not found' }, { status: 404 });
      return withCors(response);
    },
    async close() {
      await listener.query('unlisten pgrst').catch(() => {});
      listener.release();
      await connection.close();
    },
  };
}

/** Provisions lite's auth and migration-history schemas on the database (idempotent). */
export async function provisionAuthSchema(databaseUrl: string, jwtSecret: string): Promise<void> {
  const connection = createPostgresConnection({
    url: databaseUrl,
    postgresOptions: { onnotice: () => {} } as never,
  });
  try {
    const app = new App({ connection, auth: { enabled: true, jwt_secret: jwtSecret } } as never) as App;
    await app.ensureSystemSchema();
  } finally {
    await connection.close();
  }
}

const exposedHeaders = 'Content-Range, Content-Location, Preference-Applied, X-Supabase-Api-Version';

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
  });
}

function withCors(response: Response): Response {
  if (response.headers.get('access-control-allow-origin') && response.headers.get('access-control-expose-headers')) return response;
  const headers = new Headers(response.headers);
  headers.set('Access-Control-Allow-Origin', '*');
  headers.set('Access-Control-Expose-Headers', exposedHeaders);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function resolveApiKey(secret: string, key: string): Promise<ResolvedKey | null> {
  try {
    const claims = await verifyJwt(secret, key);
    if (claims.role !== 'anon' && claims.role !== 'service_role') return null;
    return { type: claims.role === 'service_role' ? 'secret' : 'publishable', claims };
  } catch {
    return null;
  }
}

function bearerToken(request: Request): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
}

/** PostgREST's error body for JWT failures, with its WWW-Authenticate header. */
export function jwtErrorResponse(error: JwtError): Response {
  return Response.json(
    { code: error.code, details: null, hint: null, message: error.message },
    {
      status: 401,
      headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${error.message}"` },
    },
  );
}

async function restRequest(app: App, options: ApiOptions, request: Request, peerAddress: string | null) {
  const token = bearerToken(request);
  if (token && !token.startsWith('sb_')) {
    try {
      await verifyJwt(options.jwtSecret, token);
    } catch (error) {
      if (error instanceof JwtError) return jwtErrorResponse(error);
      throw error;
    }
  }
  const response = await postgrestErrors(await app.fetch(request, { peerAddress }));
  const wantsObject = (request.headers.get('accept') ?? '').includes('application/vnd.pgrst.object');
  if (!wantsObject || !response.ok || response.status === 204) return response;
  const body = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return new Response(body, response);
  }
  if (!Array.isArray(parsed)) return new Response(body, response);
  if (parsed.length !== 1) {
    return Response.json(
      {
        code: 'PGRST116',
        details: `The result contains ${parsed.length} rows`,
        hint: null,
        message: 'JSON object requested, multiple (or no) rows returned',
      },
      { status: 406, headers: { 'Content-Type': 'application/json; charset=utf-8' } },
    );
  }
  const headers = new Headers(response.headers);
  headers.set('Content-Type', 'application/vnd.pgrst.object+json; charset=utf-8');
  headers.delete('Content-Length');
  return new Response(JSON.stringify(parsed[0]), { status: response.status, headers });
}

const mfaPath = /^\/auth\/v1\/(factors|mfa)(\/|$)/;

async function authRequest(app: App, options: ApiOptions, request: Request, peerAddress: string | null) {
  const url = new URL(request.url);
  if (mfaPath.test(url.pathname)) {
    return Response.json(
      {
        code: 422,
        error_code: 'mfa_totp_enroll_not_enabled',
        msg: 'Multi-factor authentication is not available on the local stack',
      },
      { status: 422 },
    );
  }
  const grantType = url.searchParams.get('grant_type');
  const response = await app.fetch(request, { peerAddress });
  const method = grantType === 'password' ? 'password' : grantType === 'refresh_token' ? null : 'otp';

  // Sessions come back either as JSON (token, signup, verify POST) or in a redirect fragment (verify GET).
  const location = response.headers.get('location');
  if (location && location.includes('access_token=')) {
    const target = new URL(location);
    const fragment = new URLSearchParams(target.hash.slice(1));
    const token = fragment.get('access_token');
    if (token) {
      fragment.set('access_token', await withGoTrueClaims(options, token, 'otp'));
      target.hash = fragment.toString();
      const headers = new Headers(response.headers);
      headers.set('location', target.toString());
      return new Response(null, { status: response.status, headers });
    }
  }
  if (!(response.headers.get('content-type') ?? '').includes('json')) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  if (body && typeof body === 'object' && 'access_token' in body && typeof body.access_token === 'string') {
    const session = body as { access_token: string };
    session.access_token = await withGoTrueClaims(options, session.access_token, url.pathname.endsWith('/signup') ? 'password' : method);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(session), { status: response.status, headers });
  }
  return new Response(text, response);
}

/**
 * Re-issues a lite access token with the claim set GoTrue puts in every access token
 * (https://supabase.com/docs/guides/auth/jwt-fields): iss, aud, exp, iat, sub, email, phone, role, aal,
 * amr, session_id, is_anonymous, app_metadata, user_metadata. `method` is the amr method; null keeps the
 * previous token's amr (refresh).
 */
async function withGoTrueClaims(options: ApiOptions, token: string, method: string | null): Promise<string> {
  const claims = decodeJwtPayload(token);
  const { rows } = await options.pool.query<{
    email: string | null;
    phone: string | null;
    raw_app_meta_data: Record<string, unknown> | string | null;
    raw_user_meta_data: Record<string, unknown> | string | null;
    is_anonymous: boolean | null;
  }>(
    'select email, phone, raw_app_meta_data, raw_user_meta_data, is_anonymous from auth.users where id = $1',
    [claims.sub],
  );
  const user = rows[0];
  const now = Math.floor(Date.now() / 1000);
  const iat = typeof claims.iat === 'number' ? claims.iat : now;
  const previousAmr = Array.isArray(claims.amr) ? claims.amr : undefined;
  const full = {
    ...claims,
    iss: `${options.apiUrl}/auth/v1`,
    aud: claims.aud ?? 'authenticated',
    role: typeof claims.role === 'string' ? claims.role : 'authenticated',
    email: user?.email ?? claims.email ?? '',
    phone: user?.phone ?? '',
    app_metadata: jsonObject(user?.raw_app_meta_data) ?? { provider: 'email', providers: ['email'] },
    user_metadata: jsonObject(user?.raw_user_meta_data) ?? {},
    aal: 'aal1',
    amr: method === null && previousAmr ? previousAmr : [{ method: method ?? 'password', timestamp: iat }],
    is_anonymous: user?.is_anonymous ?? false,
    iat,
  };
  const exp = typeof claims.exp === 'number' ? claims.exp : now + options.jwtExpiry;
  return signJwt(options.jwtSecret, { ...full, exp });
}

/** lite keeps auth.users metadata as JSON text; GoTrue claims carry objects. */
function jsonObject(value: Record<string, unknown> | string | null | undefined): Record<string, unknown> | null {
  if (value == null) return null;
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const errorMarker = '__postgres_error__';

/**
 * lite answers 500 "SUP" for database errors outside the few classes it maps, losing the SQLSTATE. We tag such
 * errors with their fields as JSON in the message; `postgrestErrors` turns them back into PostgREST's answer.
 */
function preserveDatabaseErrors(connection: unknown) {
  const target = connection as { normalizeDbError(error: unknown): unknown };
  const original = target.normalizeDbError.bind(target);
  target.normalizeDbError = (error: unknown) => {
    const normalized = original(error);
    if (!(normalized instanceof Error)) return normalized;
    const fields = normalized as Error & { code?: unknown; detail?: string; hint?: string };
    const code = typeof fields.code === 'string' ? fields.code : undefined;
    if (code && /^[0-9A-Z]{5}$/.test(code) && postgrestStatus(code) !== null) {
      const tagged = new Error(errorMarker + JSON.stringify({ code, message: fields.message, details: fields.detail ?? null, hint: fields.hint ?? null }));
      return Object.assign(tagged, { code: 'LITE_UNMAPPED' });
    }
    return normalized;
  };
}

/**
 * PostgREST's HTTP status for SQLSTATEs that lite leaves unmapped
 * (https://docs.postgrest.org/en/stable/references/errors.html); null where lite already answers correctly.
 */
export function postgrestStatus(code: string): number | null {
  if (['23505', '23503', '42501', '42P01', '25006', '42883', '42P17', '23502'].includes(code)) return null;
  if (/^(42|22|21)/.test(code) || code.startsWith('PT') || code === 'PGRST') return null;
  if (/^(08|53)/.test(code)) return 503;
  if (/^(0L|0P|28)/.test(code)) return 403;
  if (code === 'P0001') return 400;
  if (/^(09|25|2D|38|39|3B|40|54|55|57|58|F0|HV|P0|XX)/.test(code)) return 500;
  return 400;
}

async function postgrestErrors(response: Response): Promise<Response> {
  if (response.status !== 500) return response;
  const text = await response.text();
  const index = text.indexOf(errorMarker);
  if (index === -1) return new Response(text, response);
  try {
    const body = JSON.parse(text) as { message: string };
    const inner = body.message.slice(body.message.indexOf(errorMarker) + errorMarker.length);
    const error = JSON.parse(inner) as { code: string; message: string; details: string | null; hint: string | null };
    return Response.json(error, { status: postgrestStatus(error.code) ?? 500 });
  } catch {
    return new Response(text, response);
  }
}

let quieted = false;

/**
 * lite prints every database error a request causes (an RLS refusal, a unique violation) with console.error. Those
 * are answers to the client, not faults of the stack, and PostgREST does not log them either; drop exactly those.
 */
function quietDatabaseErrorLogs() {
  if (quieted) return;
  quieted = true;
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const first = args[0] as { name?: string; constructor?: { name?: string }; message?: unknown } | undefined;
    const isDatabaseAnswer =
      args.length === 1 &&
      first instanceof Error &&
      (first.constructor?.name === 'PostgresError' || String(first.message).startsWith(errorMarker));
    if (!isDatabaseAnswer) original(...args);
  };
}
