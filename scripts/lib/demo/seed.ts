/**
 * Seeds the demo data through the real import path: generate RESO Member and Property files (generate.ts), load
 * them with `runImport` exactly as `npm run import` would, write the synthetic profile fields the feed cannot carry
 * (rating, review_count, years_experience, bio, home city/state/ZIP), then recompute the metrics once with
 * `public.refresh_agent_metrics()`. Used by `npm run seed:demo` and by `npm start` on an empty database.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { z } from 'zod'
import { rootDir } from '../env.ts'
import { readRecords } from '../import/read-file.ts'
import { refreshAgentMetrics, type MetricsRefresh } from '../import/metrics-refresh.ts'
import { runImport, type ImportSummary } from '../import/run-import.ts'
import { loadZipBenchmarks } from '../import/zip-benchmarks.ts'
import { blankToUndefined, cleanNumber } from '../import/values.ts'
import { generateDemoData, type DemoOptions } from './generate.ts'
import { defaultZipFile } from './zip-markets.ts'

export const defaultDemoDir = path.join(rootDir, '.data/demo')

export interface SeedDemoOptions extends Omit<DemoOptions, 'outDir' | 'log'> {
  databaseUrl: string
  /** Where the generated files go. Default .data/demo (gitignored). */
  outDir?: string
  /** properties.source of the demo listings. Default 'demo'. */
  source?: string
  /** Months of closed sales behind the metrics. Default 24. */
  windowMonths?: number
  /** Rows per upsert batch (see runImport). */
  batchSize?: number
  /** Progress lines, one per phase with its duration. */
  log?: (line: string) => void
}

export interface SeedDemoResult {
  agents: number
  sales: number
  members: ImportSummary
  properties: ImportSummary
  profilesUpdated: number
  metrics: MetricsRefresh
  /** Seconds per phase: generate, members, properties, profiles, metrics, total. */
  timings: Record<'generate' | 'members' | 'properties' | 'profiles' | 'metrics' | 'total', number>
}

const ProfileSchema = z.object({
  MemberMlsId: z.string().min(1),
  rating: z.preprocess(cleanNumber, z.number().min(0).max(5).optional()),
  review_count: z.preprocess(cleanNumber, z.number().int().min(0)),
  years_experience: z.preprocess(cleanNumber, z.number().int().min(0)),
  bio: z.preprocess(blankToUndefined, z.string().max(1000).optional()),
  city: z.preprocess(blankToUndefined, z.string().optional()),
  state: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Z]{2}$/)
      .optional(),
  ),
  zip_code: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{5}$/)
      .optional(),
  ),
})
type Profile = z.infer<typeof ProfileSchema>

const profileColumns = [
  ['rating', 'numeric'],
  ['review_count', 'integer'],
  ['years_experience', 'integer'],
  ['bio', 'text'],
  ['city', 'text'],
  ['state', 'text'],
  ['zip_code', 'text'],
] as const

/**
 * Writes the synthetic profile fields of agent-profiles.csv onto the agents with those MLS ids, in batches.
 * Returns the number of agents changed. @throws Error naming the line of an invalid profile row.
 */
export async function applyAgentProfiles(client: pg.ClientBase, file: string, batchSize = 5000): Promise<number> {
  let updated = 0
  let batch: Profile[] = []
  const names = profileColumns.map(([name]) => name)
  const write = async () => {
    if (batch.length === 0) return
    const result = await client.query(
      `update public.agents a set ${names.map((name) => `${name} = u.${name}`).join(', ')}
       from unnest($1::text[], ${profileColumns.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')}) as u(mls_id, ${names.join(', ')})
       where a.mls_id = u.mls_id
         and (${names.map((name) => `a.${name}`).join(', ')}) is distinct from (${names.map((name) => `u.${name}`).join(', ')})`,
      [batch.map((row) => row.MemberMlsId), ...names.map((name) => batch.map((row) => row[name] ?? null))],
    )
    updated += result.rowCount ?? 0
    batch = []
  }
  for await (const { line, record, problem } of readRecords(file)) {
    if (problem !== undefined) throw new Error(`${file}:${line}: ${problem}`)
    const parsed = ProfileSchema.safeParse(record)
    if (!parsed.success)
      throw new Error(
        `${file}:${line}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
      )
    batch.push(parsed.data)
    if (batch.length >= batchSize) await write()
  }
  await write()
  return updated
}

/**
 * The MLS id / ListingKey prefix of a demo run: `<base><8 hex of sha256(source, seed)>-`, e.g. `DEMO-3f2a9c1b-`.
 * Seeding with another seed or source therefore writes other keys and never overwrites the agents and sales of an
 * earlier demo run (issue "data integrity", case 5); the same seed and source give the same keys, so re-seeding is a
 * no-op. `base` defaults to `DEMO-`, which the site reads as "fictional agent".
 */
export function demoIdPrefix(source: string, seed: string | number, base = 'DEMO-'): string {
  return `${base}${createHash('sha256')
    .update(`${source}\n${String(seed)}`)
    .digest('hex')
    .slice(0, 8)}-`
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10
const count = (n: number) => n.toLocaleString('en-US')

/**
 * Generates and imports the demo data, then refreshes the metrics once.
 * @throws Error when generation fails, a demo record is rejected by the importer (a generator bug), or the database
 * refuses a write.
 */
export async function seedDemo(options: SeedDemoOptions): Promise<SeedDemoResult> {
  const log = options.log ?? (() => {})
  const outDir = options.outDir ?? defaultDemoDir
  const source = options.source ?? 'demo'
  const started = performance.now()
  const timings = {} as SeedDemoResult['timings']

  let phase = performance.now()
  log(
    `Demo data: generating ${count(options.agents ?? 2000)} agents (seed ${JSON.stringify(String(options.seed ?? 'agent-insight-demo'))})...`,
  )
  const idPrefix = demoIdPrefix(source, options.seed ?? 'agent-insight-demo', options.idPrefix)
  const files = await generateDemoData({ ...options, idPrefix, outDir, log })
  timings.generate = seconds(phase)
  log(
    `Demo data: generated ${count(files.agents)} agents and ${count(files.sales)} closed sales in ${timings.generate} s`,
  )

  // generated records are all valid (a reject is a generator bug, reported below), so no reject is tolerated
  const importOptions = {
    databaseUrl: options.databaseUrl,
    source,
    batchSize: options.batchSize,
    skipMetrics: true,
    maxRejectRate: 0,
  }
  phase = performance.now()
  const members = await runImport({ ...importOptions, file: files.members })
  timings.members = seconds(phase)
  log(
    `Demo data: imported Member records: ${count(members.inserted)} inserted, ${count(members.updated)} updated, ${count(members.unchanged)} unchanged in ${timings.members} s`,
  )

  phase = performance.now()
  const properties = await runImport({ ...importOptions, file: files.properties })
  timings.properties = seconds(phase)
  log(
    `Demo data: imported Property records: ${count(properties.inserted)} inserted, ${count(properties.updated)} updated, ${count(properties.unchanged)} unchanged in ${timings.properties} s (${count(Math.round(files.sales / Math.max(timings.properties, 0.1)))} rows/s)`,
  )
  const rejected = members.rejected + properties.rejected
  if (rejected > 0)
    throw new Error(
      `The importer rejected ${rejected} demo records (see ${members.rejectsFile ?? properties.rejectsFile}); the generator and the validation disagree`,
    )

  const client = new pg.Client({ connectionString: options.databaseUrl })
  await client.connect()
  try {
    phase = performance.now()
    const profilesUpdated = await applyAgentProfiles(client, files.profiles, options.batchSize)
    timings.profiles = seconds(phase)
    log(
      `Demo data: wrote synthetic ratings, reviews, experience and bios for ${count(profilesUpdated)} agents in ${timings.profiles} s`,
    )

    phase = performance.now()
    const metrics = await refreshAgentMetrics(client, options.windowMonths)
    timings.metrics = seconds(phase)
    log(
      `Demo data: agent metrics refreshed for ${metrics.windowStart} to ${metrics.windowEnd} (${count(metrics.agentsUpdated)} agents changed) in ${timings.metrics} s`,
    )
    timings.total = seconds(started)
    return { agents: files.agents, sales: files.sales, members, properties, profilesUpdated, metrics, timings }
  } finally {
    await client.end()
  }
}

/** Loads supabase/data/redfin-zip-subset.csv into zip_market_benchmarks when that table is empty. Returns whether it did. */
export async function ensureZipBenchmarks(
  client: pg.ClientBase,
  log: (line: string) => void = () => {},
): Promise<boolean> {
  const benchmarks = await client.query<{ n: number }>('select count(*)::int as n from public.zip_market_benchmarks')
  if (benchmarks.rows[0]!.n > 0 || !fs.existsSync(defaultZipFile)) return false
  const summary = await loadZipBenchmarks(client, defaultZipFile)
  log(`Loaded ${summary.inserted} Redfin ZIP benchmarks from ${path.relative(rootDir, defaultZipFile)}.`)
  return true
}

/**
 * `npm start`'s first-run step: loads the Redfin ZIP benchmarks when the table is empty, and seeds the demo data
 * when there is no agent at all. A database that already has agents is left alone.
 * Returns what was done.
 */
export async function ensureDemoData(options: {
  databaseUrl: string
  log?: (line: string) => void
}): Promise<{ benchmarksLoaded: boolean; seeded: boolean }> {
  const log = options.log ?? (() => {})
  const client = new pg.Client({ connectionString: options.databaseUrl })
  await client.connect()
  const { benchmarksLoaded, agents } = await (async () => {
    try {
      const loaded = await ensureZipBenchmarks(client, log)
      const count = await client.query<{ n: number }>('select count(*)::int as n from public.agents')
      return { benchmarksLoaded: loaded, agents: count.rows[0]!.n }
    } finally {
      await client.end()
    }
  })()
  if (agents > 0) return { benchmarksLoaded, seeded: false }
  log('The database has no agents: seeding demo data (fictional agents and sales; `npm run seed:demo -- --help`)...')
  const result = await seedDemo({ databaseUrl: options.databaseUrl, log })
  log(`Demo data ready in ${result.timings.total} s.`)
  return { benchmarksLoaded, seeded: true }
}
