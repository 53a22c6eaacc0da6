/**
 * `npm run bench:import -- [--rows 1000000] [--seed bench] [--batch-size 5000] [--reimport]`
 *
 * Import benchmark: generates a RESO Property CSV of `--rows` closed sales (and its Member file, one agent per 20
 * sales) with the demo generator, starts a fresh embedded PostgreSQL 17 in a temporary directory, migrates it, and
 * imports both files with the real importer (`runImport`): each run stages its rows in a temporary table, then
 * applies them (and, for the Property file, refreshes the agent metrics) in one transaction. Prints the machine,
 * the data size, the staging and apply seconds separately, rows/s, and the peak RSS of this Node process (Postgres
 * runs in its own processes and is not counted), and the CPU seconds of each phase (Node, and Postgres's processes), which
 * a loaded machine distorts far less than wall seconds. `--reimport` imports the Property file a second time (the
 * no-change path).
 * Prints the national target (12,000,000 rows in under 30 minutes), measured at that size or projected from this
 * run's rate. Benchmarks print figures; they never pass or fail on time. Everything is removed at the end.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { generateDemoData } from '../scripts/lib/demo/generate.ts'
import { runImport } from '../scripts/lib/import/run-import.ts'
import { startThrowawayStack } from '../supabase/local/throwaway-stack.ts'

const ArgsSchema = z.object({
  rows: z.coerce.number().int().min(1).max(20_000_000).default(1_000_000),
  seed: z.string().min(1).default('bench'),
  batchSize: z.coerce.number().int().min(100).max(100_000).default(5000),
  reimport: z.boolean(),
})

/**
 * CPU seconds (user + system) used so far by PostgreSQL: the postmaster's live children (the backends, the
 * checkpointer, the WAL writer), the postmaster itself and its children that have ended (their time is added to the
 * postmaster's cutime/cstime when it reaps them; without it a backend that ended made the figure go down). Also this
 * Node process. On a shared machine wall seconds follow the load, CPU seconds much less. Linux only (/proc); 0 for
 * Postgres elsewhere.
 */
function cpuSeconds(postmaster: number | null): { node: number; postgres: number } {
  const usage = process.cpuUsage()
  let ticks = 0
  if (postmaster !== null && fs.existsSync('/proc')) {
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue
      try {
        // fields after the command: state ppid ... utime(14) stime(15), counted from the field after ") "
        const fields = fs.readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')
        if (Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12])
        // the postmaster: its own time and its reaped children's (cutime, cstime)
        if (Number(name) === postmaster)
          ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
      } catch {
        // the process ended meanwhile
      }
    }
  }
  // USER_HZ is 100 on Linux
  return { node: (usage.user + usage.system) / 1e6, postgres: ticks / 100 }
}
const cpuSince = (start: { node: number; postgres: number }, postmaster: number | null) => {
  const now = cpuSeconds(postmaster)
  return `CPU: Node ${(now.node - start.node).toFixed(1)} s, Postgres ${(now.postgres - start.postgres).toFixed(1)} s`
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const since = (start: number) => (performance.now() - start) / 1000
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

async function main() {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string' },
      seed: { type: 'string' },
      'batch-size': { type: 'string' },
      reimport: { type: 'boolean', default: false },
    },
  })
  const parsed = ArgsSchema.safeParse({
    rows: values.rows,
    seed: values.seed,
    batchSize: values['batch-size'],
    reimport: values.reimport,
  })
  if (!parsed.success)
    throw new Error(parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('\n'))
  const args = parsed.data
  const agents = Math.max(1, Math.round(args.rows / 20))

  const cpus = os.cpus()
  console.log(
    `Machine: ${cpus.length} x ${cpus[0]?.model.trim() ?? 'CPU'}, ${mb(os.totalmem())} RAM, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (shared machine: other work competes for the cores)`,
  )
  console.log(
    `Data: ${fmt(args.rows)} RESO Property rows (closed sales) and ${fmt(agents)} Member rows, seed "${args.seed}", batches of ${fmt(args.batchSize)}`,
  )

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-insight-bench-data-'))
  let start = performance.now()
  console.log('Starting a fresh PostgreSQL 17 and applying the migrations...')
  // the one throwaway stack, without seed data or functions; the bench uses only its database
  const stack = await startThrowawayStack({ prefix: 'agent-insight-bench-', seed: false, functions: false })
  const db = { url: stack.databaseUrl, stop: () => stack.stop() }
  console.log(`  ready in ${since(start).toFixed(1)} s`)
  try {
    start = performance.now()
    const files = await generateDemoData({
      outDir: dir,
      agents,
      sales: args.rows,
      seed: args.seed,
      idPrefix: 'BENCH-',
      log: (line) => console.log(line),
    })
    const generateSeconds = since(start)
    console.log(`Generated in ${generateSeconds.toFixed(1)} s (${mb(fs.statSync(files.properties).size)} Property CSV)`)

    const common = {
      databaseUrl: db.url,
      source: 'bench',
      batchSize: args.batchSize,
      progress: false,
      maxRejectRate: 0,
    }
    start = performance.now()
    const members = await runImport({ ...common, skipMetrics: true, file: files.members })
    const memberSeconds = since(start)
    console.log(
      `Members:    ${fmt(members.inserted)} inserted in ${memberSeconds.toFixed(1)} s (staging ${members.timings.stageSeconds} s, apply ${members.timings.applySeconds} s)`,
    )

    start = performance.now()
    const postmaster = stack.pids().postgres
    const cpuStart = cpuSeconds(postmaster)
    let cpuStaged = cpuStart
    let stageCpu = ''
    const properties = await runImport({
      ...common,
      file: files.properties,
      // "Staged ..., applying..." is logged between the two phases
      log: (line) => {
        if (!line.startsWith('Staged ')) return
        stageCpu = cpuSince(cpuStart, postmaster)
        cpuStaged = cpuSeconds(postmaster)
      },
    })
    const applyCpu = cpuSince(cpuStaged, postmaster)
    const propertySeconds = since(start)
    const { stageSeconds, applySeconds } = properties.timings
    console.log(
      `Properties: ${fmt(properties.inserted)} inserted, ${fmt(properties.rejected)} rejected in ${propertySeconds.toFixed(1)} s (${fmt(properties.read / propertySeconds)} rows/s)`,
    )
    console.log(
      `  staging   ${stageSeconds} s  read, validate and load ${fmt(properties.read)} rows into the staging table (${fmt(properties.read / stageSeconds)} rows/s; ${stageCpu})`,
    )
    console.log(
      `  apply     ${applySeconds} s  upsert agents and properties from staging, refresh_agent_metrics(24) (${fmt(properties.metrics?.agentsUpdated ?? 0)} agents updated), commit (${applyCpu})`,
    )
    const steps = properties.timings.applySteps
    if (steps)
      console.log(
        `            upserts with their triggers ${steps.upsert} s, planner statistics ${steps.analyze} s, metrics refresh ${steps.metrics ?? '-'} s, record and commit ${steps.commit} s`,
      )

    let reimportLine = ''
    if (args.reimport) {
      start = performance.now()
      const again = await runImport({ ...common, file: files.properties })
      const seconds = since(start)
      reimportLine = `, re-import ${seconds.toFixed(1)} s (${fmt(again.unchanged)} unchanged, ${fmt(again.read / seconds)} rows/s)`
      console.log(
        `Re-import:  ${fmt(again.inserted)} inserted, ${fmt(again.updated)} updated, ${fmt(again.unchanged)} unchanged in ${seconds.toFixed(1)} s (staging ${again.timings.stageSeconds} s, apply ${again.timings.applySeconds} s)`,
      )
    }

    const importSeconds = memberSeconds + propertySeconds
    console.log(
      `\nResult: ${fmt(args.rows)} Property rows imported in ${propertySeconds.toFixed(1)} s = ${fmt(args.rows / propertySeconds)} rows/s ` +
        `(staging ${stageSeconds} s + apply with metrics ${applySeconds} s, one transaction); ` +
        `members + properties ${importSeconds.toFixed(1)} s${reimportLine}; generation ${generateSeconds.toFixed(1)} s; ` +
        `peak RSS (this Node process) ${mb(process.resourceUsage().maxRSS * 1024)}`,
    )
    // the national target: 12 million rows in under 30 minutes, in one transaction (all or nothing)
    const national = 12_000_000
    console.log(
      args.rows >= national
        ? `Target: ${fmt(national)} rows < 30 min: ${(propertySeconds / 60).toFixed(1)} min for ${fmt(args.rows)} rows (${propertySeconds < 1800 ? 'met' : 'NOT met'})`
        : `Target: ${fmt(national)} rows < 30 min: ${(national / (args.rows / propertySeconds) / 60).toFixed(1)} min projected at this run's rate (a straight line; run --rows ${national} to measure)`,
    )
  } finally {
    await db.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
  process.exitCode = 1
})
