/**
 * `npm run bench:search`: latency of the agent search (public.search_agents() and the search-agents edge function)
 * at 100,000 agents / 2,000,000 closed sales, next to a naive `ilike '%q%'` full scan over the same data.
 *
 * Starts a throwaway stack (its own embedded PostgreSQL in a temporary directory, free ports, fresh keys) with only
 * the search-agents function under Deno, so another function that fails to boot cannot stop the benchmark. Then:
 *   1. loads zip_market_benchmarks from supabase/data/redfin-zip-subset.csv (366 ZIPs, 295 with a centre);
 *   2. generates agents (first and last names from common US names, so trigram search meets realistic
 *      near-duplicates) and closed sales (80 % in the agent's home ZIP, skewed so some agents sell a lot, close
 *      dates over 30 months so part falls outside the 24-month window) with generate_series, indexes dropped
 *      during the load and rebuilt after;
 *   3. runs refresh_agent_metrics() (which also fills agent_zip_sales, the per-(ZIP, agent) summary the ZIP and
 *      address searches rank from), VACUUM ANALYZE, the daily case (a new sale for 1 % of the agents and the
 *      incremental refresh), a full refresh over the same sales, and VACUUM ANALYZE again; the times are printed with
 *      the results;
 *   4. times, per search type, a few hundred varied queries: the SQL function over a direct pg connection as role
 *      service_role (as the edge function calls it), the function end to end over HTTP (gateway -> Deno -> PostgREST -> PostgreSQL), and a naive full scan
 *      (`ilike '%q%'`, index scans disabled) on a smaller sample because each takes hundreds of milliseconds.
 * Prints the machine, the data size and a p50/p95 table (milliseconds). Figures only: it never fails on time.
 * Options: --agents N --sales N --queries N --naive N (defaults 100000, 2000000, 300, 25); --rare-surnames N (150000
 * when names only, else 0: see RARE_SURNAMES); --zips-csv FILE takes the ZIPs from a Redfin ZIP market tracker CSV
 * instead of the 366-ZIP subset; --keep leaves the stack running afterwards (prints the database URL) to look at
 * plans. `--db <postgres URL>` loads nothing and starts no stack: it times the searches on a database that already
 * holds data (the one a `--keep` run printed, restarted cold or not), in SQL and naive only (no HTTP column: no
 * functions run), each query first as the database is and then again, so a first run and a warm one can be told apart
 * in minutes instead of a national load's hour; the sizes come from the database. `--sales 0` (the default when
 * --agents is above 100,000) generates the agents with names only, skips the sales, the metrics refresh and the ZIP
 * and address searches, and times the name search alone: `npm run bench:search -- --agents 1000000` is the
 * national-scale name run. The national data run: `npm run bench:search -- --agents 1000000 --sales 12000000 --zips-csv
 * /work/shared/data/redfin-zip-market-2025-09.csv` (24,585 real ZIPs; sales written a million per statement).
 */
import fs from 'node:fs'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import type { SearchType } from '@shared/search-contract.ts'
import {
  type BenchQuery,
  buildQueries,
  loadData,
  log,
  percentile,
  startBenchStack,
  time,
} from './lib/search-fixture.ts'

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

/** `--db <url>`: time the searches on this database (no load, no stack). */
const DB_URL = (() => {
  const index = process.argv.indexOf('--db')
  if (index === -1) return undefined
  const value = process.argv[index + 1]
  if (!value || !/^postgres(ql)?:\/\//.test(value))
    throw new Error(`--db must be a postgres:// URL (the one a --keep run printed), got ${value ?? 'nothing'}`)
  return value
})()
const AGENTS = option('agents', 100_000)
/** Above 100,000 agents the default is names only (the national-scale name search needs no sales). */
const SALES = option('sales', AGENTS > 100_000 ? 0 : 2_000_000, 0)
/** No sales: agents are generated with names only and only the name search is timed. */
const NAMES_ONLY = SALES === 0
const QUERIES = option('queries', 300)
const NAIVE = option('naive', 25, 0)
/** Keep the stack running after the run (prints the database URL) to look at plans; Ctrl-C stops it. */
const KEEP = process.argv.includes('--keep')
/**
 * Distinct rare surnames half the agents draw from (bench/lib/search-fixture.ts rareSurnames()): by default 150,000
 * for a names-only (national-scale) run, about the Census count of surnames held by 100 or more people, so the name
 * dictionary has a national size; 0 otherwise, as in the runs recorded before this option.
 */
const RARE_SURNAMES = option('rare-surnames', NAMES_ONLY ? 150_000 : 0, 0)
const SIZE = {
  agents: AGENTS,
  sales: SALES,
  queries: QUERIES,
  rareSurnames: RARE_SURNAMES,
  zipsCsv: fileOption('zips-csv'),
}

const naiveSql: Record<SearchType, string> = {
  agent: `select a.id, a.name, count(*) over () as total
          from public.agents a where a.name ilike '%' || $1 || '%'
          order by a.total_sales desc, a.name limit 20`,
  zipcode: `select p.agent_id, count(*) as sales, sum(p.sale_price) as volume, count(*) over () as total
            from public.properties p
            where p.zip_code ilike '%' || $1 || '%' and p.standard_status = 'Closed' and p.sale_price > 0
              and p.sale_date between $2 and $3 and p.agent_id is not null
            group by p.agent_id order by sales desc, volume desc limit 20`,
  address: `select p.agent_id, count(*) as sales, sum(p.sale_price) as volume, count(*) over () as total
            from public.properties p
            where p.address ilike '%' || $1 || '%' and p.standard_status = 'Closed' and p.sale_price > 0
              and p.sale_date between $2 and $3 and p.agent_id is not null
            group by p.agent_id order by sales desc, volume desc limit 20`,
}

// ---------------------------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const started = performance.now()
  let bench: Awaited<ReturnType<typeof startBenchStack>> | null = null
  if (!DB_URL) {
    log(`Starting a throwaway stack (embedded PostgreSQL 17, search-agents under Deno)...`)
    bench = await startBenchStack()
  }
  const databaseUrl = DB_URL ?? bench!.stack.databaseUrl
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  try {
    const refresh = bench ? await loadData(db, SIZE) : null
    if (!bench) {
      // the sizes the query sample is drawn by: the planner's row counts (a count(*) would read the tables first),
      // counted only for a table never analysed
      const sizes = (
        await db.query<{ agents: number; sales: number }>(
          `select (select case when reltuples < 0 then (select count(*) from public.agents) else reltuples end
                     from pg_class where oid = 'public.agents'::regclass)::bigint::integer as agents,
                  (select case when reltuples < 0 then (select count(*) from public.properties) else reltuples end
                     from pg_class where oid = 'public.properties'::regclass)::bigint::integer as sales`,
        )
      ).rows[0]!
      // no sales: the name search alone, as in a names-only run
      Object.assign(SIZE, { agents: Math.max(1, sizes.agents), sales: Math.max(0, sizes.sales) })
      log(
        `Timing on ${DB_URL!.replace(/\/\/[^@]*@/, '//')} (about ${sizes.agents.toLocaleString('en-US')} agents, ${sizes.sales.toLocaleString('en-US')} sales)`,
      )
    }
    const queries = await buildQueries(db, SIZE)
    const window = (
      await db.query<{ window_start: string; window_end: string }>(
        `select window_start::text, window_end::text from public.search_metrics_window()`,
      )
    ).rows[0]!

    // SQL layer: the function as the edge function runs it (role service_role, the only role that may execute it)
    const sqlClient = new pg.Client({ connectionString: databaseUrl })
    await sqlClient.connect()
    await sqlClient.query(`set role service_role`)
    const naiveClient = new pg.Client({ connectionString: databaseUrl })
    await naiveClient.connect()
    await naiveClient.query(
      `set role service_role; set enable_indexscan = off; set enable_bitmapscan = off; set enable_indexonlyscan = off`,
    )

    const runSql = (q: BenchQuery) =>
      sqlClient.query(`select public.search_agents($1, $2, 20, 0) as result`, [q.query, q.type])
    const runHttp = async (q: BenchQuery) => {
      if (!bench) throw new Error('no functions run with --db')
      const { keys, functionsUrl } = bench
      const response = await fetch(`${functionsUrl}/search-agents`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.anonKey}`, apikey: keys.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: q.query, type: q.type }),
      })
      if (response.status !== 200)
        throw new Error(`search-agents answered ${response.status} for ${JSON.stringify(q)}: ${await response.text()}`)
      return response.json() as Promise<{ totalResults: number; message?: string }>
    }
    const runNaive = (q: BenchQuery) =>
      naiveClient.query(
        naiveSql[q.type],
        q.type === 'agent' ? [q.naive] : [q.naive, window.window_start, window.window_end],
      )

    // warm-up: plans, caches, Deno JIT, connection pools
    // (not with --db: its point is the first run on the database as it is)
    if (bench)
      for (const q of queries.filter((_, i) => i % 30 === 0)) {
        await runSql(q)
        await runHttp(q)
      }

    const rows: string[][] = []
    const slowNotes: string[] = []
    const summary: Record<string, number> = {}
    for (const type of SIZE.sales === 0 ? (['agent'] as const) : (['agent', 'zipcode', 'address'] as const)) {
      const list = queries.filter((q) => q.type === type)
      const sqlTimes: number[] = []
      const httpTimes: number[] = []
      const naiveTimes: number[] = []
      let hits = 0
      let resolvedMessages = 0
      for (const q of list) sqlTimes.push(await time(() => runSql(q)))
      const slowest = list
        .map((q, i) => ({ query: q.query, ms: sqlTimes[i]! }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5)
      slowNotes.push(
        `${type}: slowest in SQL ${slowest.map((row) => `${JSON.stringify(row.query)} ${row.ms.toFixed(1)}`).join(', ')}`,
      )
      for (const q of list) {
        if (!bench) {
          // the same answer in SQL (the function's JSON), timed a second time: the warm figure of the same queries
          const start = performance.now()
          const result = (await runSql(q)).rows[0]!.result as { totalResults?: number; message?: string }
          httpTimes.push(performance.now() - start)
          if ((result.totalResults ?? 0) > 0) hits += 1
          if (result.message) resolvedMessages += 1
          continue
        }
        const start = performance.now()
        const body = await runHttp(q)
        httpTimes.push(performance.now() - start)
        if (body.totalResults > 0) hits += 1
        if (body.message) resolvedMessages += 1
      }
      if (NAIVE > 0)
        for (const q of list.filter((_, i) => i % Math.max(1, Math.floor(list.length / NAIVE)) === 0).slice(0, NAIVE)) {
          naiveTimes.push(await time(() => runNaive(q)))
        }
      const sqlP50 = percentile(sqlTimes, 50)
      const sqlP95 = percentile(sqlTimes, 95)
      const httpP50 = percentile(httpTimes, 50)
      const httpP95 = percentile(httpTimes, 95)
      const naiveP50 = percentile(naiveTimes, 50)
      const naiveP95 = percentile(naiveTimes, 95)
      summary[type] = sqlP95
      rows.push([
        type,
        String(list.length),
        `${hits}/${list.length}${type === 'address' ? ` (${resolvedMessages} unresolved)` : ''}`,
        sqlP50.toFixed(1),
        sqlP95.toFixed(1),
        httpP50.toFixed(1),
        httpP95.toFixed(1),
        naiveTimes.length ? `${naiveP50.toFixed(0)} (n=${naiveTimes.length})` : '-',
        naiveTimes.length ? naiveP95.toFixed(0) : '-',
        naiveTimes.length ? `${(naiveP50 / sqlP50).toFixed(0)}x / ${(naiveP95 / sqlP95).toFixed(0)}x` : '-',
        `${sqlP95 < 25 ? 'yes' : 'NO'} / ${httpP95 < 60 ? 'yes' : 'NO'} / ${naiveTimes.length ? (naiveP50 / sqlP50 >= 20 ? 'yes' : 'NO') : '-'}`,
      ])
    }
    await sqlClient.end()
    await naiveClient.end()

    const counts = (
      await db.query<{ agents: number; closed: number; in_window: number; zips: number; summary: number }>(
        `select (select count(*) from public.agents)::integer as agents,
              (select count(*) from public.agent_zip_sales)::integer as summary,
              (select count(*) from public.properties where standard_status = 'Closed')::integer as closed,
              (select count(*) from public.properties where standard_status = 'Closed' and sale_date between $1 and $2)::integer as in_window,
              (select count(*) from public.zip_market_benchmarks)::integer as zips`,
        [window.window_start, window.window_end],
      )
    ).rows[0]!
    const header = [
      'type',
      'queries',
      'with results',
      'SQL p50',
      'SQL p95',
      bench ? 'HTTP p50' : 'SQL again p50',
      bench ? 'HTTP p95' : 'SQL again p95',
      'naive p50',
      'naive p95',
      'speed-up p50 / p95',
      'targets SQL<25 / HTTP<60 / >=20x',
    ]
    const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)))
    const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')

    console.log('')
    console.log(`search-agents benchmark, ${new Date().toISOString()}`)
    console.log(
      `machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} (shared machine: figures include contention)`,
    )
    console.log(
      `data: ${counts.agents.toLocaleString('en-US')} agents, ${counts.closed.toLocaleString('en-US')} closed sales (${counts.in_window.toLocaleString('en-US')} in the window ${window.window_start}..${window.window_end}), ${counts.zips} ZIPs, ${counts.summary.toLocaleString('en-US')} agent_zip_sales rows`,
    )
    if (refresh)
      console.log(
        `metrics refresh: first ${refresh.first.toFixed(1)} s (${refresh.agentsUpdated.toLocaleString('en-US')} agents written); daily change (${refresh.daily.newSales.toLocaleString('en-US')} new sales, 1 % of the agents, inserted in ${refresh.daily.insertSeconds.toFixed(1)} s): ${refresh.daily.kind} ${refresh.daily.seconds.toFixed(1)} s, ${refresh.daily.agentsRecomputed.toLocaleString('en-US')} agents recomputed, ${refresh.daily.agentsUpdated.toLocaleString('en-US')} changed, and after it (off the path to live) ${refresh.daily.cityRanking.cities.toLocaleString('en-US')} city pages ranked in ${refresh.daily.cityRanking.seconds.toFixed(1)} s; then a full refresh over the same sales ${refresh.unchanged.toFixed(1)} s; VACUUM ANALYZE after them ${refresh.vacuumAfter.toFixed(1)} s (the searches below run after it)`,
      )
    console.log(
      `times in milliseconds, sequential single client; SQL = public.search_agents() over pg as role service_role${bench ? '; HTTP = POST /functions/v1/search-agents (gateway -> Deno -> PostgREST -> PostgreSQL, incl. the search_queries insert)' : ', each query first as the database is (no warm-up), then "SQL again" once every query of the type has run'}; naive = ilike '%q%' full scan (index scans off)`,
    )
    console.log('')
    console.log(line(header))
    console.log(widths.map((width) => '-'.repeat(width)).join('-|-'))
    for (const row of rows) console.log(line(row))
    console.log('')
    for (const note of slowNotes) console.log(note)
    console.log('')
    console.log(`total run ${((performance.now() - started) / 1000).toFixed(0)} s`)
    if (KEEP && bench) {
      console.log(`--keep: database ${databaseUrl}, functions ${bench.functionsUrl}; Ctrl-C stops the stack`)
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()))
    }
  } finally {
    await db.end()
    await bench?.stop()
  }
}

main().catch((error) => {
  console.error(error)
  // a bench that could not measure must not look like one that did: fail the command
  process.exit(1)
})
