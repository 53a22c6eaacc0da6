/**
 * The local stand-in for a static host's build hook (Netlify and Cloudflare Pages "build hooks"). `npm start`, the
 * browser-test site and the benchmark run it in-process. It knows nothing of the product but what a host's settings
 * hold: a build command, a publish directory and build variables.
 *
 * On each accepted request (hook.ts; requests coalesce while a build runs, queue.ts) it runs the build command
 * (runner.ts). The command keeps whatever it caches between builds (Astro's cache directory: the previous output,
 * which the next build reuses for unchanged pages), as a host's build cache does. When the command succeeds and the
 * publish directory holds an index.html, the directory moves to `<buildsDir>/site-<build id>-<time>` and becomes the
 * one served (the static server asks `currentDir()` on every request); the directory it replaced is removed a minute
 * later so requests in flight can finish. A failed build leaves the last good site live. Every build is recorded in
 * public.site_builds with its log tail (recorder.ts).
 */
import { createClient } from '@supabase/supabase-js'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { serveBuildHook } from './hook.ts'
import { createBuildQueue, type PendingBuild } from './queue.ts'
import { createBuildRecorder, logTail } from './recorder.ts'
import { runBuildCommand, type BuildCommand } from './runner.ts'

export { HOOK_PATH, SECRET_HEADER } from './hook.ts'
export { joinReasons, logTail } from './recorder.ts'
export type { BuildCommand } from './runner.ts'

export interface BuildHookOptions {
  /** The directory served at start. Never deleted by the hook. */
  initialDir: string
  /** Where succeeded builds are kept, one sub-directory each; emptied at start. */
  buildsDir: string
  build: BuildCommand
  supabaseUrl: string
  serviceRoleKey: string
  /** Shared secret of the hook (default: 32 random bytes). */
  secret?: string
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number
  /** How long a replaced build directory is kept before removal, in ms (default 60,000). */
  retireAfterMs?: number
  /**
   * Quiet time, in ms, a build waits after the newest request before it starts, so a burst of data changes makes one
   * build (default 0: at once, as a host does; never longer than 15 s after its first request). queue.ts.
   */
  settleMs?: number
  log?: (line: string) => void
}

export interface BuildHook {
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

/** Moves `from` to `to`, copying when they are on different devices. */
function move(from: string, to: string) {
  try {
    fs.renameSync(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
    fs.cpSync(from, to, { recursive: true })
    fs.rmSync(from, { recursive: true, force: true })
  }
}

/**
 * Starts the hook's endpoint and returns its handle. Build failures never throw from here: they are recorded in
 * site_builds and logged.
 * @throws when the port cannot be bound.
 */
export async function startBuildHook(options: BuildHookOptions): Promise<BuildHook> {
  const log = options.log ?? (() => {})
  const secret = options.secret ?? randomBytes(32).toString('base64url')
  const retireAfterMs = options.retireAfterMs ?? 60_000
  const client = createClient(options.supabaseUrl, options.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const recorder = createBuildRecorder(client, log)
  const stopping = new AbortController()
  const timers = new Set<NodeJS.Timeout>()

  fs.rmSync(options.buildsDir, { recursive: true, force: true })
  fs.mkdirSync(options.buildsDir, { recursive: true })
  let current = options.initialDir
  await recorder.closeInterrupted()

  const run = async ({ reasons, row }: PendingBuild) => {
    const id = await row
    const reason = reasons.join('; ')
    const tail = logTail()
    const started = Date.now()
    if (id !== null) await recorder.building(id, reasons)
    log(`Building the site (${reason})...`)
    try {
      await runBuildCommand(options.build, tail.push, stopping.signal)
      const publishDir = options.build.publishDir
      if (!fs.existsSync(path.join(publishDir, 'index.html')))
        throw new Error(`The build wrote no index.html into ${publishDir}`)
      const outDir = path.join(options.buildsDir, `site-${id ?? 'x'}-${Date.now().toString(36)}`)
      move(publishDir, outDir)
      const previous = current
      current = outDir // the swap: the static server serves the new directory from its next request on
      if (previous !== options.initialDir) {
        const timer = setTimeout(() => {
          timers.delete(timer)
          fs.rmSync(previous, { recursive: true, force: true })
        }, retireAfterMs)
        timer.unref()
        timers.add(timer)
      }
      log(`Built the site in ${((Date.now() - started) / 1000).toFixed(1)} s; now serving ${outDir}.`)
      if (id !== null) await recorder.finished(id, 'succeeded', tail.text())
    } catch (error) {
      const cancelled = stopping.signal.aborted
      tail.push(cancelled ? '\nThe builder stopped before this build finished.\n' : `\n${(error as Error).message}\n`)
      if (cancelled) log(`Site build cancelled (${reason}): the builder is stopping.`)
      else log(`Site build failed (${reason}); the last good site stays live. Log tail:\n${tail.text()}`)
      if (id !== null) await recorder.finished(id, 'failed', tail.text())
    }
  }

  const queue = createBuildQueue(
    { queued: recorder.queued, requeued: recorder.requeued, run },
    { settleMs: options.settleMs ?? 0 },
  )
  const endpoint = await serveBuildHook({ secret, port: options.port ?? 0, request: queue.request })

  return {
    hookUrl: endpoint.url,
    secret,
    currentDir: () => current,
    request: queue.request,
    idle: queue.idle,
    async stop() {
      stopping.abort(new Error('the builder stopped'))
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      await endpoint.close()
      await queue.stop()
    },
  }
}
