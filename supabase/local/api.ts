/**
 * The local stand-in's API gateway: PostgREST (/rest/v1), GoTrue (/auth/v1) and Storage (/storage/v1) served by
 * @supabase/lite 0.10.0 embedded as a library on a real Postgres, wrapped by layers that close the gaps measured
 * between lite and the real services. Each concern lives in its own module:
 *  - ./rest.ts: PostgREST's rendering of timestamps and numerics, its JWT errors (401 PGRST301/PGRST303), single
 *    objects (406 PGRST116), and the HTTP status of every database error class;
 *  - ./auth.ts: GoTrue's protections (rate limits and password policy of supabase/config.toml, lockout, body checks
 *    in ./auth-body.ts, refresh-token reuse, the same answers for known and unknown addresses), with MFA (./mfa.ts),
 *    PKCE (./pkce.ts), GoTrue's claim set in every access token (./auth-session.ts) and the admin user API
 *    (./auth-admin.ts) that scripts and tests use to create confirmed users;
 *  - ./auth-mail.ts: auth emails linking where GoTrue's do (the recovery email to the site's /auth/reset-password);
 *  - ./cors.ts: the hosted gateway's CORS answers;
 *  - ./lite-adapter.ts: every write into lite's internals;
 *  - (in bootstrap-after-auth.sql) the API roles may use schema auth.
 * The API keys are the legacy HS256 JWTs (anon, service_role) that hosted Supabase still issues, so the same
 * SUPABASE_ANON_KEY / SUPABASE_SERVICE_ROLE_KEY configuration works in both places.
 */
import { App, type EmailDriver, type ResolvedKey } from '@supabase/lite'
import { createPostgresConnection } from '@supabase/lite/postgres'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type pg from 'pg'
import { guardedAuthRequest, type AuthGuard } from './auth.ts'
import { createAuthLimiter, readAuthLimits } from './auth-limits.ts'
import { RECOVERY_SUBJECT, correctedMail } from './auth-mail.ts'
import { preflight, withCors } from './cors.ts'
import { verifyJwt } from './jwt.ts'
import {
  attachStorage,
  closeConnection,
  keepGrantsAsMigrated,
  preserveDatabaseErrors,
  quietDatabaseErrorLogs,
  schemaCacheReloader,
} from './lite-adapter.ts'
import { postgresTypes, postgrestStatus, restRequest } from './rest.ts'

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
  /** The stack's log (a schema cache that could not be reloaded is reported there). */
  log?: (line: string) => void
}

/** Largest upload the Storage API takes before bucket limits (hosted's global default is 50 MB). */
const STORAGE_FILE_SIZE_LIMIT = '50MB'

const defaultConfigToml = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../config.toml')

/** The running API: one entry for every request, and a close that ends its database connections. */
export interface Api {
  fetch(request: Request, peerAddress: string | null): Promise<Response>
  close(): Promise<void>
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
  listener.on('notification', schemaCacheReloader(connection, options.log ?? (() => {})))
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

/** An API key is the anon or service_role JWT signed with the project's secret; anything else is no key. */
async function resolveApiKey(secret: string, key: string): Promise<ResolvedKey | null> {
  try {
    const claims = await verifyJwt(secret, key)
    if (claims.role !== 'anon' && claims.role !== 'service_role') return null
    return { type: claims.role === 'service_role' ? 'secret' : 'publishable', claims }
  } catch {
    return null
  }
}
