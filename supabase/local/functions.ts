/**
 * Edge functions of the local stand-in: every `supabase/functions/<slug>/index.ts` runs under real Deno (the npm
 * package `deno`), one process each, and is reached through /functions/v1/<slug> as on hosted Supabase.
 * `verify_jwt` from supabase/config.toml is honoured (default true): requests need a valid JWT in
 * Authorization, as the hosted gateway requires.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parse as parseDotenv } from 'dotenv'
import { parse as parseToml } from 'smol-toml'
import { JwtError, verifyJwt } from './jwt.ts'
import { freePort } from './postgres.ts'
import { onSignalExit } from './embedded-postgres.ts'

export interface FunctionsOptions {
  /** Folders of functions, each with the config.toml that holds their verify_jwt settings. */
  sources: { functionsDir: string; configToml: string }[]
  /** Environment every function gets: SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, ... */
  env: Record<string, string>
  jwtSecret: string
  /** DENO_DIR: where Deno caches npm packages between runs. */
  denoDir: string
  log: (line: string) => void
  /** Start only these slugs (tests); default all. */
  only?: string[]
  /** Called after a dead function process was started again and listens. */
  onRestart?: (slug: string, pid: number) => void
}

export interface FunctionsRuntime {
  slugs: string[]
  /** Process id of each function's current Deno process. */
  pids(): Record<string, number>
  /** Loopback port each function's Deno process listens on (benchmarks reach a function without the gateway). */
  ports(): Record<string, number>
  fetch(request: Request): Promise<Response>
  stop(): Promise<void>
}

interface RunningFunction {
  slug: string
  port: number
  verifyJwt: boolean
  process: ChildProcess
  ready: Promise<void>
  exited: boolean
}

const here = path.dirname(fileURLToPath(import.meta.url))
const slugPattern = /^[a-z0-9][a-z0-9-]*$/

/** Lists function slugs: folders under functionsDir with an index.ts, excluding `_shared` and dot folders. */
export function listFunctions(functionsDir: string): string[] {
  if (!fs.existsSync(functionsDir)) return []
  return fs
    .readdirSync(functionsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && slugPattern.test(entry.name))
    .filter((entry) => fs.existsSync(path.join(functionsDir, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort()
}

/** Reads `[functions.<slug>] verify_jwt` from config.toml; missing means true. */
export function readVerifyJwt(configToml: string): Map<string, boolean> {
  const result = new Map<string, boolean>()
  if (!fs.existsSync(configToml)) return result
  const config = parseToml(fs.readFileSync(configToml, 'utf8')) as {
    functions?: Record<string, { verify_jwt?: boolean }>
  }
  for (const [slug, settings] of Object.entries(config.functions ?? {})) {
    if (typeof settings.verify_jwt === 'boolean') result.set(slug, settings.verify_jwt)
  }
  return result
}

function denoBinary(): string {
  const local = path.resolve(here, '../../node_modules/.bin/deno')
  return fs.existsSync(local) ? local : 'deno'
}

/** Restart delays after a function process dies: 0.5 s, doubling up to 30 s; back to 0.5 s after 60 s of uptime. */
const restartDelay = (attempt: number) => Math.min(30_000, 500 * 2 ** attempt)

/**
 * Starts one Deno process per function and waits until each one listens (first run downloads npm packages).
 * Supervision: a function process that dies after it was ready is logged ("[fn slug] exited ...; restarting") and
 * started again on the same port; requests meanwhile get 503. Each process runs in its own process group (killed as a
 * group on stop), holds a pipe from us on stdin and exits when it closes (deno-entry.ts), so it never outlives this
 * process, even one killed with SIGKILL; an exit hook also kills the groups on a normal exit.
 */
export async function startFunctions(options: FunctionsOptions): Promise<FunctionsRuntime> {
  const found = options.sources.flatMap((source) => {
    const verify = readVerifyJwt(source.configToml)
    const secretsFile = path.join(source.functionsDir, '.env')
    const secrets = fs.existsSync(secretsFile) ? parseDotenv(fs.readFileSync(secretsFile, 'utf8')) : {}
    return listFunctions(source.functionsDir)
      .filter((slug) => !options.only || options.only.includes(slug))
      .map((slug) => ({ slug, functionsDir: source.functionsDir, verifyJwt: verify.get(slug) ?? true, secrets }))
  })
  const slugs = found.map((fn) => fn.slug)
  const running = new Map<string, RunningFunction>()
  let stopping = false

  const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
    try {
      process.kill(-child.pid, signal)
    } catch {
      child.kill(signal)
    }
  }
  const onProcessExit = () => {
    for (const fn of running.values()) killGroup(fn.process, 'SIGKILL')
  }
  process.once('exit', onProcessExit)

  const spawnFunction = (def: (typeof found)[number], port: number): RunningFunction => {
    const { slug, functionsDir, secrets } = def
    // The folder's deno.json import map (bare `zod`, `@shared/...`), as `supabase functions deploy` bundles it.
    const importMap = path.join(functionsDir, 'deno.json')
    const config = fs.existsSync(importMap) ? ['--config', importMap] : []
    const child = spawn(
      denoBinary(),
      [
        'run',
        ...config,
        '--allow-net',
        '--allow-env',
        '--allow-read',
        '--allow-sys=hostname',
        '--no-prompt',
        '--no-lock',
        '--node-modules-dir=none',
        '--quiet',
        path.join(here, 'deno-entry.ts'),
      ],
      {
        cwd: path.resolve(functionsDir),
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          DENO_DIR: options.denoDir,
          DENO_NO_UPDATE_CHECK: '1',
          NO_COLOR: '1',
          ...networkEnv(),
          ...secrets,
          ...options.env,
          LOCAL_FUNCTION_PORT: String(port),
          LOCAL_FUNCTION_ENTRY: pathToFileURL(path.resolve(functionsDir, slug, 'index.ts')).href,
          LOCAL_FUNCTION_WATCH_STDIN: '1',
        },
        // stdin: a pipe the function watches; when it closes (we are gone), the function exits
        stdio: ['pipe', 'pipe', 'pipe'],
        // own process group: a terminal's Ctrl-C reaches us only, and we stop the group as a whole
        detached: true,
      },
    )
    child.stdin!.on('error', () => {})
    const fn: RunningFunction = {
      slug,
      port,
      verifyJwt: def.verifyJwt,
      process: child,
      exited: false,
      ready: Promise.resolve(),
    }
    fn.ready = new Promise<void>((resolve, reject) => {
      let output = ''
      const onData = (chunk: Buffer) => {
        const text = chunk.toString()
        for (const line of text.split('\n').filter(Boolean)) {
          if (line.startsWith(`ready on ${port}`)) resolve()
          else options.log(`[fn ${slug}] ${line}`)
        }
        output = (output + text).slice(-4000)
      }
      child.stdout!.on('data', onData)
      child.stderr!.on('data', onData)
      child.once('exit', (code) => {
        fn.exited = true
        reject(new Error(`Edge function ${slug} exited (code ${code}) before it was ready:\n${output}`))
      })
    })
    fn.ready.catch(() => {})
    return fn
  }

  const supervise = (def: (typeof found)[number], fn: RunningFunction, attempt: number) => {
    const started = Date.now()
    fn.process.once('exit', (code, signal) => {
      fn.exited = true
      if (stopping) return
      // consecutive quick deaths back off; a process that ran a minute starts the count again
      const current = Date.now() - started > 60_000 ? 0 : attempt
      const delay = restartDelay(current)
      options.log(
        `[fn ${fn.slug}] exited (${signal ? `signal ${signal}` : `code ${code}`}); restarting in ${(delay / 1000).toFixed(1)} s`,
      )
      setTimeout(() => {
        if (stopping) return
        const replacement = spawnFunction(def, fn.port)
        running.set(fn.slug, replacement)
        replacement.ready.then(
          () => {
            options.log(`[fn ${fn.slug}] restarted (pid ${replacement.process.pid})`)
            options.onRestart?.(fn.slug, replacement.process.pid ?? 0)
          },
          (error: Error) => options.log(`[fn ${fn.slug}] restart failed: ${error.message.split('\n')[0]}`),
        )
        supervise(def, replacement, current + 1)
      }, delay).unref()
    })
  }

  const seen = new Set<string>()
  for (const def of found) {
    if (seen.has(def.slug)) throw new Error(`Edge function ${def.slug} is defined twice`)
    seen.add(def.slug)
  }
  // freePort() only says a port was free a moment ago: another stack on the same machine (parallel test runs, a
  // bench beside CI) can take it before Deno listens. Deno then exits with AddrInUse; a new port is tried, twice.
  const startOnFreePort = async (def: (typeof found)[number]) => {
    for (let attempt = 1; ; attempt++) {
      const fn = spawnFunction(def, await freePort())
      running.set(def.slug, fn)
      try {
        return await fn.ready
      } catch (error) {
        if (attempt >= 3 || !/AddrInUse/.test((error as Error).message)) throw error
        options.log(`[fn ${def.slug}] port ${fn.port} was taken before the function listened; trying another`)
      }
    }
  }
  try {
    await Promise.all(found.map(startOnFreePort))
  } catch (error) {
    stopping = true
    for (const fn of running.values()) killGroup(fn.process, 'SIGKILL')
    process.removeListener('exit', onProcessExit)
    throw error
  }
  for (const def of found) supervise(def, running.get(def.slug)!, 0)

  const stop = async () => {
    stopping = true
    await Promise.all(
      [...running.values()].map(
        (fn) =>
          new Promise<void>((resolve) => {
            if (fn.exited || fn.process.exitCode !== null || fn.process.signalCode !== null) return resolve()
            fn.process.once('exit', () => resolve())
            killGroup(fn.process, 'SIGTERM')
            setTimeout(() => killGroup(fn.process, 'SIGKILL'), 3000).unref()
          }),
      ),
    )
    process.removeListener('exit', onProcessExit)
  }
  // a signal that ends the process through embedded-postgres' exit hook waits until every function process is gone
  const unhookSignals = onSignalExit(stop)

  return {
    slugs,
    pids: () => Object.fromEntries([...running.values()].map((fn) => [fn.slug, fn.process.pid ?? 0])),
    ports: () => Object.fromEntries([...running.values()].map((fn) => [fn.slug, fn.port])),
    async fetch(request) {
      const url = new URL(request.url)
      const match = /^\/functions\/v1\/([^/]+)(\/.*)?$/.exec(url.pathname)
      const fn = match ? running.get(match[1]!) : undefined
      if (request.method === 'OPTIONS' && fn) return forward(fn, request, url, match?.[2] ?? '')
      if (!fn) return Response.json({ code: 'NOT_FOUND', message: 'Requested function was not found' }, { status: 404 })
      if (fn.exited)
        return Response.json(
          { code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' },
          { status: 503 },
        )
      if (fn.verifyJwt) {
        const token = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
        if (!token) return Response.json({ code: 401, message: 'Missing authorization header' }, { status: 401 })
        try {
          await verifyJwt(options.jwtSecret, token)
        } catch (error) {
          if (error instanceof JwtError) return Response.json({ code: 401, message: 'Invalid JWT' }, { status: 401 })
          throw error
        }
      }
      return forward(fn, request, url, match?.[2] ?? '')
    },
    async stop() {
      unhookSignals()
      await stop()
    },
  }
}

async function forward(fn: RunningFunction, request: Request, url: URL, rest: string): Promise<Response> {
  // The function sees the same path as on hosted Supabase: /<slug>/<rest>.
  const target = `http://127.0.0.1:${fn.port}/${fn.slug}${rest}${url.search}`
  const headers = new Headers(request.headers)
  headers.delete('host')
  try {
    const response = await fetch(target, {
      method: request.method,
      headers,
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer(),
      redirect: 'manual',
    })
    const outHeaders = new Headers(response.headers)
    outHeaders.delete('content-encoding')
    outHeaders.delete('content-length')
    return new Response(response.body, { status: response.status, headers: outHeaders })
  } catch (error) {
    return Response.json(
      { code: 'EDGE_FUNCTION_ERROR', message: `Function ${fn.slug} did not answer: ${(error as Error).message}` },
      { status: 502 },
    )
  }
}

/**
 * What Deno needs from our environment to download `npm:` packages the way npm does here: the registry, proxies,
 * and the machine's certificate authorities (Deno trusts only its bundled roots unless told otherwise).
 */
export function networkEnv(): Record<string, string> {
  const passThrough = [
    'NPM_CONFIG_REGISTRY',
    'HTTP_PROXY',
    'HTTPS_PROXY',
    'NO_PROXY',
    'http_proxy',
    'https_proxy',
    'no_proxy',
    'SSL_CERT_FILE',
    'SSL_CERT_DIR',
  ]
  const env: Record<string, string> = { DENO_TLS_CA_STORE: 'mozilla,system' }
  for (const name of passThrough) if (process.env[name]) env[name] = process.env[name]!
  if (process.env.NODE_EXTRA_CA_CERTS) env.DENO_CERT = process.env.NODE_EXTRA_CA_CERTS
  return env
}
