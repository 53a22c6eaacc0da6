/**
 * `npm run bench:load`: throughput of the search-agents edge function under concurrent clients, with autocannon
 * (https://github.com/mcollina/autocannon) as the load generator, on the same machine as the stack.
 *
 * autocannon runs in a worker thread (bench/lib/load-worker.ts): the stack's Node side (gateway, PostgREST/GoTrue
 * stand-in) lives in this process and must not share its event loop with the load generator.
 * Starts the same throwaway stack as bench:search (embedded PostgreSQL, PostgREST/GoTrue stand-in, search-agents
 * under Deno behind a /functions/v1 gateway hop), generates agents and closed sales (bench/lib/search-fixture.ts),
 * builds a mix of agent-name, ZIP and address queries from them, and then hits, one layer at a time, each for
 * --duration seconds with --connections concurrent clients, every request a different query of the mix:
 *   function  POST /functions/v1/search-agents through the gateway (what a visitor's browser calls)
 *   deno      the same POST straight to the function's Deno port (no gateway hop)
 *   rpc       POST /rest/v1/rpc/search_agents with the service-role key (PostgREST stand-in -> PostgreSQL, what the
 *             function calls; without the search log insert)
 * and prints requests per second, p50/p95/p99 latency (ms), errors (non-2xx and socket errors) per layer: where
 * the time goes, layer by layer. Figures only: it never fails on time.
 * The search function limits searches per client IP (@shared/public-limits.ts); the bench stack raises that limit
 * to 100,000 a minute (bench/lib/search-fixture.ts), since every client runs from one address. The per-IP count is
 * part of each measured request.
 * Options: --connections N (50) --duration S (30) --agents N (100000) --sales N (400000) --queries N (300)
 * --layers function,deno,rpc (all) --zips-csv FILE (a Redfin ZIP market tracker CSV instead of the 366-ZIP subset).
 * National: `-- --agents 1000000 --sales 12000000 --zips-csv /work/shared/data/redfin-zip-market-2025-09.csv`.
 */
import fs from 'node:fs'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import pg from 'pg'
import type { LoadJob, LoadOutcome } from './lib/load-worker.ts'
import { buildQueries, loadData, log, startBenchStack } from './lib/search-fixture.ts'

/** A file path option, checked to exist; undefined when not given. */
function fileOption(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`)
  if (index === -1) return undefined
  const value = process.argv[index + 1]
  if (!value || !fs.existsSync(value))
    throw new Error(`--${name} must name an existing file, got ${value ?? 'nothing'}`)
  return value
}

function option(name: string, fallback: number, min = 1): number {
  const index = process.argv.indexOf(`--${name}`)
  if (index === -1) return fallback
  const value = Number(process.argv[index + 1])
  if (!Number.isInteger(value) || value < min)
    throw new Error(`--${name} must be a whole number of at least ${min}, got ${process.argv[index + 1]}`)
  return value
}

const CONNECTIONS = option('connections', 50)
const DURATION = option('duration', 30)
const SIZE = {
  agents: option('agents', 100_000),
  sales: option('sales', 400_000, 0),
  queries: option('queries', 300),
  zipsCsv: fileOption('zips-csv'),
}
const LAYERS = ['function', 'deno', 'rpc'] as const
type Layer = (typeof LAYERS)[number]
const layersIndex = process.argv.indexOf('--layers')
const SELECTED: Layer[] =
  layersIndex === -1
    ? [...LAYERS]
    : (process.argv[layersIndex + 1] ?? '').split(',').map((name) => {
        if (!(LAYERS as readonly string[]).includes(name))
          throw new Error(`--layers takes ${LAYERS.join(', ')}, got ${name}`)
        return name as Layer
      })

interface LayerResult {
  layer: Layer
  requests: number
  rps: number
  p50: number
  p95: number
  p99: number
  errors: number
  non2xx: number
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN

/** One layer's run in a worker thread (bench/lib/load-worker.ts), so the generator has its own event loop. */
async function run(
  layer: Layer,
  url: string,
  headers: Record<string, string>,
  bodies: string[],
  connections = CONNECTIONS,
  duration = DURATION,
): Promise<LayerResult> {
  const job: LoadJob = { url, headers, bodies, connections, duration }
  const outcome = await new Promise<LoadOutcome>((resolve, reject) => {
    const worker = new Worker(new URL('./lib/load-worker.ts', import.meta.url), { workerData: job })
    worker.once('message', (message: LoadOutcome) => resolve(message))
    worker.once('error', reject)
    worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load worker exited with code ${code}`))))
  })
  const times = outcome.times.sort((x, y) => x - y)
  return {
    layer,
    requests: outcome.times.length,
    rps: outcome.times.length / (outcome.duration || duration),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    errors: outcome.errors + outcome.timeouts,
    non2xx: outcome.non2xx,
  }
}

async function main() {
  const started = performance.now()
  log(`Starting a throwaway stack (embedded PostgreSQL 17, search-agents under Deno)...`)
  const { stack, keys, functionsUrl, functionPort, stop } = await startBenchStack()
  const db = new pg.Client({ connectionString: stack.databaseUrl })
  await db.connect()
  try {
    await loadData(db, SIZE)
    const queries = await buildQueries(db, SIZE)
    const functionBodies = queries.map((q) => JSON.stringify({ query: q.query, type: q.type }))
    const rpcBodies = queries.map((q) =>
      JSON.stringify({ search_query: q.query, search_type: q.type, result_limit: 20, result_offset: 0 }),
    )
    const anon = { authorization: `Bearer ${keys.anonKey}`, apikey: keys.anonKey }
    const service = { authorization: `Bearer ${keys.serviceRoleKey}`, apikey: keys.serviceRoleKey }
    const targets: Record<Layer, [string, Record<string, string>, string[]]> = {
      function: [`${functionsUrl}/search-agents`, anon, functionBodies],
      deno: [`http://127.0.0.1:${functionPort}/search-agents`, anon, functionBodies],
      rpc: [`${stack.apiUrl}/rest/v1/rpc/search_agents`, service, rpcBodies],
    }

    const results: LayerResult[] = []
    for (const layer of SELECTED) {
      const [url, headers, bodies] = targets[layer]
      // warm-up: JIT, connection pools, plans
      await run(layer, url, headers, bodies, 5, 2)
      log(`${layer}: ${CONNECTIONS} connections x ${DURATION} s...`)
      results.push(await run(layer, url, headers, bodies))
    }
    const logged = (await db.query<{ n: number }>(`select count(*)::integer as n from public.search_queries`)).rows[0]!
      .n

    const header = [
      'layer',
      'requests',
      'req/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'errors',
      'non-2xx',
      'targets p95<300 / >=300 req/s / 0 errors',
    ]
    const rows = results.map((r) => [
      r.layer,
      String(r.requests),
      r.rps.toFixed(1),
      r.p50.toFixed(0),
      r.p95.toFixed(0),
      r.p99.toFixed(0),
      String(r.errors),
      String(r.non2xx),
      r.layer === 'function'
        ? `${r.p95 < 300 ? 'yes' : 'NO'} / ${r.rps >= 300 ? 'yes' : 'NO'} / ${r.errors + r.non2xx === 0 ? 'yes' : 'NO'}`
        : '',
    ])
    const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)))
    const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')
    console.log('')
    console.log(`search-agents load benchmark (autocannon), ${new Date().toISOString()}`)
    console.log(
      `machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} (load generator on the same machine)`,
    )
    console.log(
      `data: ${SIZE.agents.toLocaleString('en-US')} agents, ${SIZE.sales.toLocaleString('en-US')} closed sales; ${queries.length} queries (agent, zipcode, address), round robin; ${CONNECTIONS} connections x ${DURATION} s per layer; ${logged.toLocaleString('en-US')} searches logged in search_queries`,
    )
    console.log('')
    console.log(line(header))
    console.log(widths.map((width) => '-'.repeat(width)).join('-|-'))
    for (const row of rows) console.log(line(row))
    console.log('')
    console.log(`total run ${((performance.now() - started) / 1000).toFixed(0)} s`)
  } finally {
    await db.end()
    await stop()
  }
}

main().catch((error) => {
  console.error(error)
  // a bench that could not measure must not look like one that did: fail the command
  process.exit(1)
})
