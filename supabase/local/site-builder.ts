/**
 * The local stand-in for a static host's build hook. `npm start` (and the browser-test site) run it in-process:
 *
 *   POST http://127.0.0.1:<port>/site-build   x-webhook-secret: <secret>   {"reason": "post published: my-slug"}
 *   -> 202 {"queued": true}
 *
 * The database webhook (supabase/migrations/20261121007000_create_site_builds.sql) calls it after a change to the
 * public site. Each build goes into a NEW directory; only a build that succeeded is swapped in (the static server
 * asks `currentDir()` on every request), and the directory it replaced is removed a minute later so requests in
 * flight can finish. Requests coalesce: while a build runs, any number of requests make exactly one more build
 * after it. A failed build leaves the last good site live and keeps its log tail. Every build is recorded in
 * public.site_builds (queued -> building -> succeeded | failed) with the service role, where the admin reads it.
 *
 * It also rebuilds on its own when a scheduled post's published_at arrives, and once at start-up when the
 * published content differs from what the served directory was built from (`.content-hash` in the build).
 *
 * Builds scale with data: the served directory records a content hash per agent, ZIP, city and article
 * page (`.build-state.json`, src/lib/build-scope.ts). A blog publish builds the 'site' scope (home, blog lists,
 * feeds, static pages, sitemaps, and only the articles whose content changed) and never reads agent data; a data
 * change (reason 'agent data changed: …') builds the 'data' scope (only the agent, ZIP and city pages whose hash
 * changed, plus the sitemaps). The partial build goes to a staging directory and is merged into the new directory
 * with everything else hard-linked from the served one (supabase/local/site-merge.ts); a page whose agent no longer
 * has figures is left out, so its URL answers 404. Without a state (first build) every page is built. The build's
 * kind and pages are the 'Kind: …' line of site_builds.log_tail.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { spawn } from 'node:child_process'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import pg from 'pg'
import { z } from 'zod'
import type { Database } from '@shared/database.types.ts'
import { readBuildState, type BuildScope } from '../../src/lib/build-scope.ts'
import { mergeBuild, prepareMerge, STATE_FILE, type MergeSummary, type PreparedMerge } from './site-merge.ts'
import { siteTarget, sourceHash } from '../../scripts/lib/build.ts'

/** Repository root (the site builds from here). */
const rootDir = path.resolve(import.meta.dirname, '../..')

/** Header every database webhook sends its shared secret in (private.send_webhook). */
export const SECRET_HEADER = 'x-webhook-secret'
/** Path of the hook on the builder's port. */
export const HOOK_PATH = '/site-build'

/** Reason prefix of the data-change webhook (agents, ZIP benchmarks; migration 20261123130000). */
const DATA_CHANGE_PREFIX = 'agent data changed'

/** Lines and characters of build output kept in site_builds.log_tail. */
const LOG_TAIL_LINES = 60
const LOG_TAIL_CHARS = 8000
/** A scheduled post further away than this is checked again later (setTimeout's limit is ~24.8 days). */
const MAX_TIMER_MS = 6 * 60 * 60 * 1000

/**
 * Builds the site into `outDir`; `output` receives its stdout/stderr chunks (for the log tail).
 * Rejects when the build fails.
 */
export type BuildSite = (
  outDir: string,
  output: (chunk: string) => void,
  signal: AbortSignal,
  env?: Record<string, string>,
) => Promise<void>

export interface SiteBuilderOptions {
  /** The directory served at start (dist/site, built by buildIfChanged). Never deleted by the builder. */
  initialDir: string
  /** Where new builds go, one sub-directory each; emptied at start. */
  buildsDir: string
  /** Variables of the Astro build (PUBLIC_SUPABASE_URL, PUBLIC_SUPABASE_ANON_KEY, SITE_URL). */
  buildEnv: Record<string, string>
  supabaseUrl: string
  serviceRoleKey: string
  /**
   * True when `initialDir` was just built from the current database content (its fingerprint is recorded);
   * false to compare the recorded fingerprint and rebuild at start when the content changed meanwhile.
   */
  initialDirFresh: boolean
  /** Shared secret of the hook (default: 32 random bytes). */
  secret?: string
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number
  /** How long a replaced build directory is kept before removal, in ms (default 60,000). */
  retireAfterMs?: number
  /** The build itself (default: `astro build` with ASTRO_OUT_DIR); tests pass a fake. */
  build?: BuildSite
  log?: (line: string) => void
}

export interface SiteBuilder {
  /** URL the database webhook posts to. */
  hookUrl: string
  secret: string
  /** The directory the static server should serve now. */
  currentDir(): string
  /** Asks for a build from inside the process (same coalescing as the hook). */
  request(reason: string): void
  /** Resolves when no build is running or waiting. */
  idle(): Promise<void>
  stop(): Promise<void>
}

const HookBodySchema = z.object({ reason: z.string().trim().min(1).max(2000).optional() }).loose()

/**
 * The default build: `astro build` into `outDir` with the public build variables, output captured.
 *
 * Astro bundles its prerender step inside the output directory, except when that lies outside the project, where
 * it falls back to the shared <root>/.astro/.prerender: two such builds at once (browser tests, the benchmark)
 * then delete each other's bundle ("Cannot find module .../prerender-entry...mjs"). So an outside `outDir` is
 * built in a private staging directory under dist/ and moved into place afterwards.
 */
export function astroBuild(buildEnv: Record<string, string>): BuildSite {
  return async (outDir, output, signal, extraEnv = {}) => {
    const inside = !path.relative(rootDir, outDir).startsWith('..')
    const target = inside
      ? outDir
      : path.join(rootDir, 'dist/.site-build-staging', `${path.basename(outDir)}-${randomBytes(4).toString('hex')}`)
    try {
      await new Promise<void>((resolve, reject) => {
        const child = spawn(path.join(rootDir, 'node_modules/.bin/astro'), ['build'], {
          cwd: rootDir,
          signal,
          env: { ...process.env, ...buildEnv, ...extraEnv, ASTRO_OUT_DIR: target, FORCE_COLOR: '0' },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        child.stdout.setEncoding('utf8').on('data', output)
        child.stderr.setEncoding('utf8').on('data', output)
        child.once('error', reject)
        child.once('exit', (code, killedBy) =>
          code === 0
            ? resolve()
            : reject(new Error(`astro build exited with ${killedBy ? `signal ${killedBy}` : `code ${code}`}`)),
        )
      })
      if (!inside) {
        fs.mkdirSync(path.dirname(outDir), { recursive: true })
        try {
          fs.renameSync(target, outDir)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
          fs.cpSync(target, outDir, { recursive: true })
        }
      }
    } finally {
      if (!inside) fs.rmSync(target, { recursive: true, force: true })
    }
  }
}

/** Keeps the last LOG_TAIL_LINES lines (at most LOG_TAIL_CHARS characters) of a stream of output chunks. */
export function logTail() {
  let lines: string[] = []
  let partial = ''
  return {
    push(chunk: string) {
      // the build's colour codes are noise in the admin's log view
      const text = partial + stripVTControlCharacters(chunk)
      const parts = text.split(/\r?\n/)
      partial = parts.pop() ?? ''
      lines.push(...parts)
      if (lines.length > LOG_TAIL_LINES * 2) lines = lines.slice(-LOG_TAIL_LINES)
    },
    text(): string {
      const all = [...lines, ...(partial ? [partial] : [])].slice(-LOG_TAIL_LINES).join('\n')
      return all.length > LOG_TAIL_CHARS ? all.slice(-LOG_TAIL_CHARS) : all
    },
  }
}

/**
 * sha256 over what the site shows from the database: the live posts (id, slug, updated_at, published_at), every
 * category (id, updated_at) and public.agent_pages_fingerprint() (agents with figures, ZIP benchmarks). Two equal fingerprints mean a rebuild would produce the same pages.
 * @throws when a read fails.
 */
export async function contentFingerprint(client: SupabaseClient<Database>): Promise<string> {
  const now = new Date().toISOString()
  const posts = await client
    .from('blog_posts')
    .select('id, slug, updated_at, published_at')
    .eq('status', 'published')
    .lte('published_at', now)
    .order('id')
  if (posts.error) throw new Error(`Could not read published posts: ${posts.error.message}`)
  const categories = await client.from('blog_categories').select('id, updated_at').order('id')
  if (categories.error) throw new Error(`Could not read blog categories: ${categories.error.message}`)
  const agentPages = await client.rpc('agent_pages_fingerprint')
  if (agentPages.error) throw new Error(`Could not fingerprint the agent pages: ${agentPages.error.message}`)
  return createHash('sha256')
    .update(JSON.stringify([posts.data, categories.data, agentPages.data]))
    .digest('hex')
}

const FINGERPRINT_FILE = '.content-hash'
/** The sources' hash of a build (the file buildIfChanged writes, scripts/lib/build.ts). */
const SOURCE_HASH_FILE = '.source-hash'

/** Reason prefix of the admin's Rebuild now (public.request_site_rebuild()). */
export const MANUAL_REBUILD_PREFIX = 'rebuild requested by'

/** Reason of the start-up check: anything may have changed, so every group is compared. */
const STARTUP_REASON = 'published content changed since the last build'

/**
 * Which pages a build renders (src/lib/build-scope.ts): 'data' (agent, ZIP and city pages + sitemaps) when every
 * reason is a data change, 'site' (blog, home, feeds, static pages + sitemaps) when none is, else 'all'. Within the
 * scope only the pages whose content hash changed are rendered.
 */
export function buildScopeFor(reasons: readonly string[]): BuildScope {
  const data = reasons.filter((reason) => reason.startsWith(DATA_CHANGE_PREFIX)).length
  if (data === reasons.length) return 'data'
  if (data === 0 && !reasons.includes(STARTUP_REASON)) return 'site'
  return 'all'
}

/** "Pages built: 3 agent, 1 city, 1 zip; removed: 1 agent; files kept: 20412." (groups in alphabetical order) */
export function describeMerge(summary: MergeSummary): string {
  const list = (record: Record<string, number>) =>
    Object.entries(record)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([group, n]) => `${n} ${group}`)
      .join(', ') || 'none'
  const removed = summary.removedPaths.length
    ? ` (${summary.removedPaths.join(', ')}${Object.values(summary.removed).reduce((a, b) => a + b, 0) > summary.removedPaths.length ? ', …' : ''})`
    : ''
  return `Pages built: ${list(summary.built)}; removed: ${list(summary.removed)}${removed}; files kept: ${summary.kept}.`
}

/**
 * Starts the builder's HTTP endpoint and returns its handle. Build failures never throw from here: they are
 * recorded in site_builds and logged.
 * @throws when the port cannot be bound.
 */
export async function startSiteBuilder(options: SiteBuilderOptions): Promise<SiteBuilder> {
  const log = options.log ?? (() => {})
  const secret = options.secret ?? randomBytes(32).toString('base64url')
  const build = options.build ?? astroBuild(options.buildEnv)
  const retireAfterMs = options.retireAfterMs ?? 60_000
  const client = createClient<Database>(options.supabaseUrl, options.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  })

  fs.rmSync(options.buildsDir, { recursive: true, force: true })
  fs.mkdirSync(options.buildsDir, { recursive: true })
  let current = options.initialDir
  /** The next build, not started yet: the site_builds row it reports to and why it was asked for. */
  let pending: { row: Promise<number | null>; reasons: string[] } | null = null
  let running: Promise<void> | null = null
  let stopped = false
  const stopping = new AbortController()
  const timers = new Set<NodeJS.Timeout>()
  let scheduledTimer: NodeJS.Timeout | null = null

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      fn()
    }, ms)
    timer.unref()
    timers.add(timer)
    return timer
  }

  /** Writes to site_builds; a failed write is logged, never fatal (the site matters more than its status). */
  const record = async (what: string, write: () => PromiseLike<{ error: { message: string } | null }>) => {
    const { error } = await write()
    if (error) log(`Could not record the site build (${what}): ${error.message}`)
  }

  // a previous builder that was killed left its rows open; the admin would show 'Rebuilding…' for ever
  const stoppedAt = new Date().toISOString()
  const interrupted = 'The builder stopped before this build finished.'
  await record('interrupted', () =>
    client
      .from('site_builds')
      .update({ status: 'failed', finished_at: stoppedAt, log_tail: interrupted })
      .eq('status', 'building'),
  )
  await record('interrupted', () =>
    client
      .from('site_builds')
      .update({
        status: 'failed',
        started_at: stoppedAt,
        finished_at: stoppedAt,
        log_tail: `${interrupted} It never started.`,
      })
      .eq('status', 'queued'),
  )

  const insertQueuedRow = async (reason: string): Promise<number | null> => {
    const { data, error } = await client
      .from('site_builds')
      .insert({ status: 'queued', trigger_reason: reason })
      .select('id')
      .single()
    if (error) {
      log(`Could not record the site build (queued): ${error.message}`)
      return null
    }
    return data.id
  }

  const joinReasons = (reasons: string[]) => {
    const joined = reasons.join('; ')
    return joined.length > 2000 ? `${joined.slice(0, 1990)}…` : joined
  }

  const runOne = async (job: { row: Promise<number | null>; reasons: string[] }) => {
    const id = await job.row
    const reason = joinReasons(job.reasons)
    const outDir = path.join(options.buildsDir, `site-${id ?? 'x'}-${Date.now().toString(36)}`)
    const tail = logTail()
    const started = Date.now()
    if (id !== null) {
      await record('building', () =>
        client
          .from('site_builds')
          .update({ status: 'building', started_at: new Date().toISOString(), trigger_reason: reason })
          .eq('id', id),
      )
    }
    try {
      // taken before the build: if content changes during it, the next start-up check errs towards rebuilding
      const fingerprint = await contentFingerprint(client).catch(() => null)
      // a data-change webhook fires for every statement on agents/benchmarks; skip when no page would change
      const servedFingerprint = path.join(current, FINGERPRINT_FILE)
      if (
        fingerprint &&
        job.reasons.every((item) => item.startsWith(DATA_CHANGE_PREFIX)) &&
        fs.existsSync(servedFingerprint) &&
        fs.readFileSync(servedFingerprint, 'utf8') === fingerprint
      ) {
        log(`No page changed (${reason}); the site stays as it is.`)
        if (id !== null) {
          await record('succeeded', () =>
            client
              .from('site_builds')
              .update({
                status: 'succeeded',
                finished_at: new Date().toISOString(),
                log_tail: 'No page changed; nothing was built.',
              })
              .eq('id', id),
          )
        }
        return
      }
      const scope = buildScopeFor(job.reasons)
      // page hashes cover data, not templates: after a change to the site's sources (same hash as buildIfChanged's
      // .source-hash), and on the admin's "Rebuild now", every page is rendered from scratch
      const codeHash = sourceHash(siteTarget, options.buildEnv)
      const servedCode = path.join(current, SOURCE_HASH_FILE)
      const sameCode = fs.existsSync(servedCode) && fs.readFileSync(servedCode, 'utf8') === codeHash
      const manual = job.reasons.some((item) => item.startsWith(MANUAL_REBUILD_PREFIX))
      const servedState = manual || !sameCode ? null : readBuildState(path.join(current, STATE_FILE))
      log(`Rebuilding the site (${reason}; ${servedState ? `${scope} pages whose content changed` : 'every page'})...`)
      const stagingDir = `${outDir}.staging`
      const stateOut = `${outDir}.state.json`
      try {
        const env: Record<string, string> = servedState
          ? {
              SITE_BUILD_SCOPE: scope,
              SITE_BUILD_STATE_IN: path.join(current, STATE_FILE),
              SITE_BUILD_STATE_OUT: stateOut,
            }
          : { SITE_BUILD_SCOPE: 'all', SITE_BUILD_STATE_OUT: stateOut }
        // without a served state there is nothing to merge with: the build is the whole new site
        const astroStarted = Date.now()
        const building = build(servedState ? stagingDir : outDir, tail.push, stopping.signal, env)
        // while Astro (a child process) builds: list the served site and link the pages this scope keeps anyway
        let prepareMs = 0
        const preparing: Promise<PreparedMerge | undefined> = servedState
          ? prepareMerge({ servedDir: current, servedState, scope, outDir }).then((done) => {
              prepareMs = Date.now() - astroStarted
              return done
            })
          : Promise.resolve(undefined)
        // both settle before anything is cleaned up (a failed build's catch removes outDir, which preparing writes)
        const [built, prep] = await Promise.allSettled([building, preparing])
        if (built.status === 'rejected') throw built.reason
        if (prep.status === 'rejected') throw prep.reason
        const prepared = prep.value
        const stagedState = readBuildState(stateOut)
        if (servedState && stagedState) {
          const mergeStarted = Date.now()
          const summary = mergeBuild({
            servedDir: current,
            servedState,
            stagingDir,
            stagedState,
            scope,
            outDir,
            publicHeaders: path.join(rootDir, 'public/_headers'),
            prepared,
          })
          const merged = `${describeMerge(summary)} Astro ${((mergeStarted - astroStarted) / 1000).toFixed(1)} s (${prepared?.linked.size ?? 0} kept pages linked meanwhile, ${(prepareMs / 1000).toFixed(1)} s), merge ${((Date.now() - mergeStarted) / 1000).toFixed(1)} s.`
          tail.push(`\nKind: ${scope}. ${merged}\n`)
          log(`Merged a ${scope} build: ${merged}`)
        } else {
          // the first build of this builder (or a build that records no page state): the whole site
          if (servedState) {
            fs.rmSync(outDir, { recursive: true, force: true }) // prepareMerge's links: not needed without a merge
            fs.renameSync(stagingDir, outDir)
          }
          if (stagedState) fs.writeFileSync(path.join(outDir, STATE_FILE), JSON.stringify(stagedState))
          tail.push(
            `\nKind: full (every page built${manual ? ': Rebuild now' : sameCode ? '' : ': the site sources changed or no page state yet'}).\n`,
          )
        }
      } finally {
        fs.rmSync(stagingDir, { recursive: true, force: true })
        fs.rmSync(stateOut, { force: true })
      }
      if (!fs.existsSync(path.join(outDir, 'index.html')))
        throw new Error(`the build wrote no index.html into ${outDir}`)
      if (fingerprint) fs.writeFileSync(path.join(outDir, FINGERPRINT_FILE), fingerprint)
      fs.writeFileSync(path.join(outDir, SOURCE_HASH_FILE), codeHash)
      const previous = current
      current = outDir // the swap: the static server serves the new directory from its next request on
      if (previous !== options.initialDir)
        later(retireAfterMs, () => fs.rmSync(previous, { recursive: true, force: true }))
      log(
        `Rebuilt the site in ${((Date.now() - started) / 1000).toFixed(1)} s; now serving ${outDir.startsWith(rootDir + path.sep) ? path.relative(rootDir, outDir) : outDir}.`,
      )
      if (id !== null) {
        await record('succeeded', () =>
          client
            .from('site_builds')
            .update({ status: 'succeeded', finished_at: new Date().toISOString(), log_tail: tail.text() })
            .eq('id', id),
        )
      }
    } catch (error) {
      const cancelled = stopping.signal.aborted
      tail.push(cancelled ? '\nThe builder stopped before this build finished.\n' : `\n${(error as Error).message}\n`)
      fs.rmSync(outDir, { recursive: true, force: true })
      if (cancelled) log(`Site rebuild cancelled (${reason}): the builder is stopping.`)
      else log(`Site rebuild failed (${reason}); the last good site stays live. Log tail:\n${tail.text()}`)
      if (id !== null) {
        await record('failed', () =>
          client
            .from('site_builds')
            .update({ status: 'failed', finished_at: new Date().toISOString(), log_tail: tail.text() })
            .eq('id', id),
        )
      }
    }
  }

  const drain = async () => {
    while (pending && !stopped) {
      const job = pending
      pending = null
      await runOne(job)
    }
    running = null
    void scheduleNextPublication()
  }

  const request = (reason: string) => {
    if (stopped) return
    if (pending) {
      // coalesced into the build that has not started yet
      pending.reasons.push(reason)
      const job = pending
      void job.row.then((id) => {
        if (id !== null && pending === job) {
          void record('queued', () =>
            client
              .from('site_builds')
              .update({ trigger_reason: joinReasons(job.reasons) })
              .eq('id', id)
              .eq('status', 'queued'),
          )
        }
      })
      return
    }
    pending = { row: insertQueuedRow(reason), reasons: [reason] }
    running ??= drain()
  }

  /** Scheduled-post lookups in flight: stop() waits for them, so none is cut off by the API closing after it. */
  const lookups = new Set<Promise<void>>()
  /** Rebuilds when the next scheduled post goes live (the webhook cannot: nothing changes in the database then). */
  const scheduleNextPublication = (): Promise<void> => {
    const lookup = lookUpNextPublication().finally(() => lookups.delete(lookup))
    lookups.add(lookup)
    return lookup
  }
  const lookUpNextPublication = async () => {
    if (stopped) return
    const { data, error } = await client
      .from('blog_posts')
      .select('published_at')
      .eq('status', 'published')
      .gt('published_at', new Date().toISOString())
      .order('published_at')
      .limit(1)
    if (error) {
      log(`Could not look up scheduled posts: ${error.message}`)
      return
    }
    if (scheduledTimer) {
      clearTimeout(scheduledTimer)
      timers.delete(scheduledTimer)
      scheduledTimer = null
    }
    const next = data[0]?.published_at
    if (!next) return
    const wait = Math.max(0, new Date(next).getTime() - Date.now()) + 1000
    scheduledTimer = later(Math.min(wait, MAX_TIMER_MS), () => {
      scheduledTimer = null
      if (wait <= MAX_TIMER_MS) request('scheduled post went live')
      else void scheduleNextPublication()
    })
  }

  const server = http.createServer((incoming, response) => {
    const answer = (status: number, body: unknown) =>
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
    const url = new URL(incoming.url ?? '/', 'http://localhost')
    if (url.pathname !== HOOK_PATH) return answer(404, { error: `Not found: ${url.pathname}` })
    if (incoming.method !== 'POST') return answer(405, { error: 'Use POST' })
    const given = Buffer.from(String(incoming.headers[SECRET_HEADER] ?? ''))
    const expected = Buffer.from(secret)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return answer(401, { error: `Missing or wrong ${SECRET_HEADER} header` })
    }
    let body = ''
    incoming.setEncoding('utf8')
    incoming.on('data', (chunk: string) => {
      if (body.length < 100_000) body += chunk
    })
    incoming.on('end', () => {
      let json: unknown
      try {
        json = body.trim() ? JSON.parse(body) : {}
      } catch {
        return answer(400, { error: 'The body must be JSON' })
      }
      const parsed = HookBodySchema.safeParse(json)
      if (!parsed.success)
        return answer(400, {
          error: `Invalid body: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`,
        })
      request(parsed.data.reason ?? 'build hook called')
      answer(202, { queued: true })
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as { port: number }).port

  // Start-up: record or compare the content the served directory was built from.
  try {
    const fingerprint = await contentFingerprint(client)
    const stampFile = path.join(options.initialDir, FINGERPRINT_FILE)
    if (options.initialDirFresh) fs.writeFileSync(stampFile, fingerprint)
    else if (!fs.existsSync(stampFile) || fs.readFileSync(stampFile, 'utf8') !== fingerprint) request(STARTUP_REASON)
  } catch (error) {
    log(`Could not compare the site with the database: ${(error as Error).message}`)
  }
  if (!pending) void scheduleNextPublication()

  return {
    hookUrl: `http://127.0.0.1:${port}${HOOK_PATH}`,
    secret,
    currentDir: () => current,
    request,
    async idle() {
      while (running) await running
    },
    async stop() {
      stopped = true
      stopping.abort(new Error('the builder stopped'))
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      while (running) await running
      // a lookup cut off by the stack stopping right after this left the bench:publish process hanging once
      await Promise.allSettled([...lookups])
    },
  }
}

/**
 * Points the site-rebuild webhook at `hookUrl` (URL and secret in Vault through private.configure_webhook, the
 * builder kind in private.site_build_settings) through a superuser connection; `hookUrl: null` turns the webhook
 * off. `builder: 'local'` means the builder records its own builds.
 * @throws when the database refuses the values (22023, e.g. a secret shorter than 16 characters).
 */
export async function configureBuildHook(
  databaseUrl: string,
  settings: { hookUrl: string | null; secret: string | null; builder: 'local' | 'build_hook' },
): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  try {
    await db.query('begin')
    await db.query(`select private.configure_webhook('site_build', $1, $2)`, [settings.hookUrl, settings.secret ?? ''])
    await db.query('update private.site_build_settings set builder = $1, updated_at = now() where id', [
      settings.builder,
    ])
    await db.query('commit')
  } catch (error) {
    await db.query('rollback')
    throw error
  } finally {
    await db.end()
  }
}
