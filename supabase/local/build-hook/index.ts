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
 *
 * A product may offer a patcher (SitePatcher): a quicker way from the served site to the next one than its build
 * command, tried first for every build after the first; when it declines (or fails), the build command runs. For a
 * patcher the hook keeps a spare: once a site is swapped in, a child `cp -al` at the lowest CPU priority hard-links
 * every file of it into a new directory, so the next patch starts from a complete copy instead of linking tens of
 * thousands of files while visitors wait for the new data (on this kind of machine the kernel takes about 60 µs a
 * file). A patch that starts while the spare is still being made waits for it (what it linked is done); a static
 * build drops it.
 */
import { createClient } from '@supabase/supabase-js'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { serveBuildHook } from './hook.ts'
import { createBuildQueue, type PendingBuild } from './queue.ts'
import { createBuildRecorder, logTail } from './recorder.ts'
import { runBuildCommand, type BuildCommand } from './runner.ts'

export { HOOK_PATH, SECRET_HEADER } from './hook.ts'
export { joinReasons, logTail } from './recorder.ts'
export type { BuildCommand } from './runner.ts'

/** What the patcher answers: it wrote the next site, or why it could not. */
export type PatchResult = { patched: true } | { patched: false; reason: string }

/**
 * A quicker way than the build command from the served site to the next, offered by the product (the local builder's
 * re-render of the changed pages: scripts/lib/site-patch.ts). A static host has none; the hook works without one.
 */
export interface SitePatcher {
  /**
   * Called before every build, before the build reads anything: an opaque marker of the data it starts from. The
   * marker of the build being served is passed to the next patch as `since`.
   */
  mark(): Promise<string>
  /** Called once a directory is served (not the initial one): the patcher may get ready for a patch from it. */
  prepare?(liveDir: string): void
  /** Called when the hook stops: releases what prepare() holds. */
  dispose?(): Promise<void>
  /**
   * Writes the next site into `publishDir` from `liveDir` (the served site, built from data `since`) for the data of
   * `now`, without the build command; or answers why it cannot (the build command then runs). A throw counts as a
   * refusal; `publishDir` is cleared either way before the build command runs.
   */
  patch(args: {
    liveDir: string
    publishDir: string
    /**
     * Moves the hook's spare (every file of `liveDir` hard-linked ahead) to `publishDir`, waiting for one still being
     * made, and answers true; false when there is none (`publishDir` is then empty). Call it once the patch has
     * decided to go ahead: a patch that declines first never waits for the spare.
     */
    linkAhead(): Promise<boolean>
    since: string
    now: string
    output: (chunk: string) => void
    signal: AbortSignal
  }): Promise<PatchResult>
}

export interface BuildHookOptions {
  /** The directory served at start. Never deleted by the hook. */
  initialDir: string
  /** Where succeeded builds are kept, one sub-directory each; emptied at start. */
  buildsDir: string
  build: BuildCommand
  supabaseUrl: string
  serviceRoleKey: string
  /** A quicker way to the next site than `build`, tried first once a site built here is served (SitePatcher). */
  patcher?: SitePatcher
  /** Shared secret of the hook (default: 32 random bytes). */
  secret?: string
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number
  /**
   * How long a replaced build directory is kept before removal, in ms (default 60,000). The removal never runs beside
   * a build: a directory due while one runs is removed when it ends.
   */
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
  /**
   * Resolves once the patcher's preparation (a second after a swap) has run or was called off and the spare of the
   * served site is made (true) or was not (false: none, dropped or failed).
   */
  spareReady(): Promise<boolean>
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
  /** The data marker of the served site (null: unknown, the initial directory or no patcher). */
  let currentMarker: string | null = null
  await recorder.closeInterrupted()

  /** The patcher's marker for the next build; null (and logged) without a patcher or when it fails. */
  const mark = async () => {
    if (!options.patcher) return null
    try {
      return await options.patcher.mark()
    } catch (error) {
      log(`The site patcher could not mark the data (${(error as Error).message}); a full build follows.`)
      return null
    }
  }
  /** Tries the patcher; true when it wrote the next site into the publish directory, else the directory is cleared. */
  /** Why the running build's patch was declined (kept ahead of the log tail, which the build's output may fill). */
  let declined = ''
  const tryPatch = async (marker: string, output: (chunk: string) => void) => {
    const publishDir = options.build.publishDir
    if (!options.patcher || currentMarker === null || current === options.initialDir) return false
    const liveDir = current
    let result: PatchResult
    try {
      result = await options.patcher.patch({
        liveDir,
        publishDir,
        linkAhead: () => takeSpare(liveDir, publishDir, output),
        since: currentMarker,
        now: marker,
        output,
        signal: stopping.signal,
      })
    } catch (error) {
      result = { patched: false, reason: `the patch failed: ${(error as Error).message}` }
    }
    if (result.patched) return true
    output(`Full build: ${result.reason}.\n`)
    declined = `Full build: ${result.reason}.`
    log(`No patch of the served site (${result.reason}): running the build command.`)
    fs.rmSync(publishDir, { recursive: true, force: true })
    if (stopping.signal.aborted) throw stopping.signal.reason
    return false
  }

  /** Whether a build is running, the replaced directories due for removal meanwhile, and the removals under way. */
  let building = false
  const dueForRemoval: string[] = []
  const removals = new Set<ChildProcess>()
  /** Pauses (SIGSTOP) or resumes (SIGCONT) the removals under way: none runs beside a build. */
  const signalRemovals = (signal: 'SIGSTOP' | 'SIGCONT') => {
    for (const child of removals) {
      try {
        child.kill(signal)
      } catch {
        // a platform without job-control signals: the removal just runs on
      }
    }
  }
  /**
   * Removes a replaced build directory in a child `rm -rf` at the lowest CPU priority, paused while a build runs:
   * removing tens of thousands of files in this process, even with fs.promises, queues their unlinks ahead of the
   * static server's file reads in libuv's thread pool, and beside a build it slows the build's own linking (a 1 %
   * refresh at 20,000 agents went live in 7.6-10.7 s with the removal beside it, 6.2-7.3 s without, on one machine).
   * Where `rm` cannot start, fs.promises.rm. A failure is logged and the directory left.
   */
  const remove = (dir: string) => {
    const fallback = () =>
      fs.promises
        .rm(dir, { recursive: true, force: true })
        .catch((error: Error) => log(`Could not remove the replaced build ${dir}: ${error.message}`))
    const child = spawn('rm', ['-rf', dir], { stdio: 'ignore' })
    removals.add(child)
    child.once('spawn', () => {
      try {
        os.setPriority(child.pid!, 19)
      } catch {
        // a lower priority is a courtesy
      }
    })
    child.once('error', () => {
      removals.delete(child)
      void fallback()
    })
    child.once('exit', (code) => {
      removals.delete(child)
      if (code !== 0) log(`Could not remove the replaced build ${dir} (rm exited ${code}).`)
    })
  }

  /** The spare: a hard-linked copy of `source` being made (`child`) or made (`ready`) in `dir` (module comment). */
  let spare: {
    source: string
    dir: string
    child: ChildProcess | null
    ready: boolean
    done: Promise<boolean>
  } | null = null
  /** Drops the spare: stops its `cp` and removes what it wrote. */
  const discardSpare = () => {
    const entry = spare
    spare = null
    if (!entry) return
    // a removal of thousands of files beside a build would slow it
    const retire = () => (building ? dueForRemoval.push(entry.dir) : remove(entry.dir))
    if (!entry.child) return void retire()
    entry.child.once('exit', retire)
    entry.child.kill('SIGKILL')
  }
  /** Starts a spare of the served directory (only with a patcher: nothing else uses it). */
  const prepareSpare = () => {
    discardSpare()
    if (!options.patcher || current === options.initialDir) return
    const dir = path.join(options.buildsDir, `.spare-${Date.now().toString(36)}`)
    const child = spawn('cp', ['-al', current, dir], { stdio: 'ignore' })
    let settle = (_made: boolean) => {}
    const done = new Promise<boolean>((resolve) => (settle = resolve))
    const entry = { source: current, dir, child: child as ChildProcess | null, ready: false, done }
    spare = entry
    child.once('spawn', () => {
      try {
        os.setPriority(child.pid!, 19)
      } catch {
        // a lower priority is a courtesy
      }
    })
    // no `cp` here (or no -l): patches link the files themselves
    child.once('error', () => {
      entry.child = null
      if (spare === entry) spare = null
      settle(false)
    })
    child.once('exit', (code) => {
      entry.child = null
      entry.ready = code === 0
      settle(code === 0)
      if (code === 0) return
      if (spare === entry) spare = null
      if (code !== null) remove(dir)
    })
  }
  /**
   * Moves the spare of `liveDir` to `publishDir` and answers true, waiting for one still being made (what it has
   * linked is done; finishing costs less than linking every file again, and nothing else runs meanwhile); otherwise
   * drops any spare and answers false. `output` says which.
   */
  const takeSpare = async (liveDir: string, publishDir: string, output: (chunk: string) => void): Promise<boolean> => {
    const entry = spare
    if (!entry || entry.source !== liveDir) {
      discardSpare()
      return false
    }
    const waited = Date.now()
    if (!entry.ready && entry.child) {
      try {
        os.setPriority(entry.child.pid!, 0) // may be refused to an unprivileged process: it then finishes as it is
      } catch {
        // kept at the lowest priority
      }
      await entry.done
    }
    if (spare !== entry || !entry.ready) {
      discardSpare()
      return false
    }
    spare = null
    try {
      fs.rmSync(publishDir, { recursive: true, force: true })
      fs.renameSync(entry.dir, publishDir)
      const wait = (Date.now() - waited) / 1000
      output(
        `Spare copy of the served site: ${wait < 0.01 ? 'ready' : `finished ${wait.toFixed(2)} s into this build`}.\n`,
      )
      return true
    } catch (error) {
      log(`The spare copy of the served site could not be used (${(error as Error).message}).`)
      dueForRemoval.push(entry.dir)
      fs.rmSync(publishDir, { recursive: true, force: true })
      return false
    }
  }

  /**
   * A second after a swap, unless a build has started: the patcher's preparation for the served site. Not at the swap
   * itself: starting the patcher's worker runtimes blocks this process (which may also serve the site) for a few
   * hundred milliseconds, just when the first requests for the new site arrive.
   */
  let readyTimer: NodeJS.Timeout | null = null
  /** Settles when the pending preparation ran or was called off (spareReady() waits for it). */
  let readySettled: Promise<void> = Promise.resolve()
  let settleReady = () => {}
  const cancelReady = () => {
    if (readyTimer) clearTimeout(readyTimer)
    readyTimer = null
    settleReady()
  }
  const getReadyLater = () => {
    cancelReady()
    const served = current
    readySettled = new Promise((resolve) => (settleReady = resolve))
    readyTimer = setTimeout(() => {
      readyTimer = null
      if (!building && current === served && !stopping.signal.aborted && current !== options.initialDir) {
        try {
          options.patcher?.prepare?.(current)
        } catch (error) {
          // the next patch starts its runtimes itself
          log(`The site patcher could not get ready for the next patch (${(error as Error).message}).`)
        }
      }
      settleReady()
    }, 1000)
    readyTimer.unref()
  }

  const run = async ({ reasons, row }: PendingBuild) => {
    cancelReady()
    building = true
    signalRemovals('SIGSTOP')
    try {
      await runBuild({ reasons, row })
    } finally {
      building = false
      signalRemovals('SIGCONT')
      for (const dir of dueForRemoval.splice(0)) remove(dir)
    }
  }

  const runBuild = async ({ reasons, row }: PendingBuild) => {
    const id = await row
    const reason = reasons.join('; ')
    const tail = logTail()
    /** The recorded log: why no patch (when declined), then the tail of the output. */
    const logText = () => (declined && !tail.text().includes(declined) ? `${declined}\n${tail.text()}` : tail.text())
    const started = Date.now()
    if (id !== null) await recorder.building(id, reasons)
    log(`Building the site (${reason})...`)
    try {
      const publishDir = options.build.publishDir
      // the data marker comes first: everything the build reads is at least as new
      const marker = await mark()
      declined = ''
      const patched = marker !== null && (await tryPatch(marker, tail.push))
      if (!patched) {
        discardSpare()
        await runBuildCommand(options.build, tail.push, stopping.signal)
      }
      if (!fs.existsSync(path.join(publishDir, 'index.html')))
        throw new Error(`The build wrote no index.html into ${publishDir}`)
      const outDir = path.join(options.buildsDir, `site-${id ?? 'x'}-${Date.now().toString(36)}`)
      move(publishDir, outDir)
      const previous = current
      current = outDir // the swap: the static server serves the new directory from its next request on
      currentMarker = marker
      if (previous !== options.initialDir) {
        const timer = setTimeout(() => {
          timers.delete(timer)
          // a removal of thousands of files beside a build would slow it
          if (building) dueForRemoval.push(previous)
          else remove(previous)
        }, retireAfterMs)
        timer.unref()
        timers.add(timer)
      }
      log(`Built the site in ${((Date.now() - started) / 1000).toFixed(1)} s; now serving ${outDir}.`)
      // the spare at once (a child process: nothing blocks here), the patcher's preparation a second later
      prepareSpare()
      if (id !== null) await recorder.finished(id, 'succeeded', logText())
      getReadyLater()
    } catch (error) {
      const cancelled = stopping.signal.aborted
      tail.push(cancelled ? '\nThe builder stopped before this build finished.\n' : `\n${(error as Error).message}\n`)
      if (cancelled) log(`Site build cancelled (${reason}): the builder is stopping.`)
      else log(`Site build failed (${reason}); the last good site stays live. Log tail:\n${tail.text()}`)
      if (id !== null) await recorder.finished(id, 'failed', logText())
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
    spareReady: async () => {
      await readySettled
      return (await spare?.done) ?? false
    },
    async stop() {
      stopping.abort(new Error('the builder stopped'))
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      signalRemovals('SIGCONT') // a paused removal finishes on its own
      cancelReady()
      spare?.child?.kill('SIGKILL')
      spare = null
      await options.patcher?.dispose?.()
      await endpoint.close()
      await queue.stop()
    },
  }
}
