/**
 * `npm run import -- <file> [--map mapping.json] [--source name] [--dry-run] [--window-months 24] [--delimiter ;]
 *    [--max-reject-rate 5%] [--rejects path]`
 * `npm run import -- --zip-benchmarks supabase/data/redfin-zip-subset.csv`
 * `npm run import -- --reso-web-api [--resource Property|Member] [--since ISO] [--source name] [--page-size 200] [--max-pages n]
 *    [--max-reject-rate 5%] [--rejects path] [--no-expand]`
 *
 * Imports RESO Property or Member records (CSV, JSON array or NDJSON) into public.properties / public.agents and
 * recomputes agent metrics, all in one transaction (a failed or killed run changes nothing; each run is recorded in
 * public.import_runs); or loads Redfin ZIP benchmarks; or syncs from a RESO Web API (OData) server given by
 * RESO_API_URL and RESO_API_TOKEN or OAuth2 client credentials (RESO_TOKEN_URL, RESO_CLIENT_ID, RESO_CLIENT_SECRET,
 * RESO_SCOPE; environment or `.env`), going on from the last run's high water, with the same run record, rejects file,
 * reject-rate rule and all-or-nothing apply as a file. Writes straight to Postgres with `pg`:
 * DATABASE_URL from the environment, else from `.env`, else the local stack (postgres on DB_PORT, 54322).
 * See scripts/lib/import/README.md.
 */
import { parse as parseDotenv } from 'dotenv'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs, stripVTControlCharacters } from 'node:util'
import pg from 'pg'
import { z } from 'zod'
import { rootDir } from './lib/env.ts'
import { resolveDatabaseUrl } from './lib/import/database-url.ts'
import { readMapping } from './lib/import/mapping.ts'
import { accessTokenSource, resoApiConfig } from './lib/import/reso-auth.ts'
import { formatSyncSummary, ResoSyncRejectedError, syncResoWebApi } from './lib/import/reso-web-api.ts'
import {
  defaultMaxRejectRate,
  formatSummary,
  ImportError,
  isConnectionLost,
  runImport,
} from './lib/import/run-import.ts'
import { loadZipBenchmarks } from './lib/import/zip-benchmarks.ts'

const usage = `Usage:
  npm run import -- <file.csv|file.json|file.ndjson> [--map mapping.json] [--source name] [--dry-run] [--window-months 24]
      [--delimiter ';'] [--max-reject-rate 5%] [--rejects path/to/rejects.csv]
    (the CSV delimiter is sniffed from the header unless given; more rejects than --max-reject-rate (a percent like
     5% or a fraction like 0.05) and the run writes nothing and exits 1; rejects go to .data/import-rejects/ unless
     --rejects names a file)
  npm run import -- --zip-benchmarks <redfin-zip.csv> [--dry-run] [--rejects path]
  npm run import -- --reso-web-api [--resource Property|Member] [--since 2025-01-01T00:00:00Z] [--source name] [--page-size 200]
      [--max-pages n] [--max-reject-rate 5%] [--rejects path] [--no-expand]
    (RESO_API_URL = OData service root; RESO_API_TOKEN = a bearer token, or RESO_TOKEN_URL, RESO_CLIENT_ID,
     RESO_CLIENT_SECRET and optional RESO_SCOPE for OAuth2 client credentials; from the environment or .env.
     --page-size goes in Prefer: odata.maxpagesize; --max-pages applies a run in chunks, the next run goes on)`

const ArgsSchema = z.object({
  file: z.string().min(1, 'a file to import is required'),
  map: z.string().optional(),
  source: z.string().trim().min(1).max(100).optional(),
  dryRun: z.boolean(),
  zipBenchmarks: z.boolean(),
  windowMonths: z.coerce.number().int().min(1).max(600).default(24),
  delimiter: z
    .string()
    .transform((value) => (value === '\\t' || value.toLowerCase() === 'tab' ? '\t' : value))
    .pipe(z.string().length(1, '--delimiter must be one character (use tab or \\t for a tab)'))
    .optional(),
  maxRejectRate: z
    .string()
    .regex(/^\d+(\.\d+)?%?$/, '--max-reject-rate must be a percent like 5% or a fraction like 0.05')
    .transform((value) => (value.endsWith('%') ? Number(value.slice(0, -1)) / 100 : Number(value)))
    .pipe(
      z
        .number()
        .min(0, '--max-reject-rate must be between 0% and 100%')
        .max(1, '--max-reject-rate must be between 0% and 100% (a fraction is 0-1; write 5% for five percent)'),
    )
    .default(defaultMaxRejectRate),
  rejects: z.string().min(1).optional(),
})

const SyncArgsSchema = z.object({
  resource: z.enum(['Property', 'Member'], '--resource must be Property or Member').default('Property'),
  since: z.iso
    .datetime({ offset: true, error: '--since must be an ISO 8601 timestamp, e.g. 2025-01-01T00:00:00Z' })
    .optional(),
  source: z.string().trim().min(1).max(100).default('reso'),
  pageSize: z.coerce.number('--page-size must be a number').int().min(1).max(10_000).default(200),
  maxPages: z.coerce.number('--max-pages must be a number').int().min(1).optional(),
  windowMonths: z.coerce.number().int().min(1).max(600).default(24),
  maxRejectRate: ArgsSchema.shape.maxRejectRate,
  rejectsFile: z.string().min(1).optional(),
  expand: z.boolean(),
})

const resoVariables = [
  'RESO_API_URL',
  'RESO_API_TOKEN',
  'RESO_TOKEN_URL',
  'RESO_CLIENT_ID',
  'RESO_CLIENT_SECRET',
  'RESO_SCOPE',
  'RESO_TOKEN_AUTH',
] as const

/** RESO_* from the environment, else from `.env`. */
function resoEnv(): Record<string, string | undefined> {
  const envFile = path.join(rootDir, '.env')
  const fromFile = fs.existsSync(envFile) ? parseDotenv(fs.readFileSync(envFile, 'utf8')) : {}
  return Object.fromEntries(resoVariables.map((name) => [name, process.env[name] ?? fromFile[name]]))
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      map: { type: 'string' },
      source: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'zip-benchmarks': { type: 'string' },
      'window-months': { type: 'string' },
      delimiter: { type: 'string' },
      'max-reject-rate': { type: 'string' },
      rejects: { type: 'string' },
      'reso-web-api': { type: 'boolean', default: false },
      resource: { type: 'string' },
      since: { type: 'string' },
      'page-size': { type: 'string' },
      'max-pages': { type: 'string' },
      'no-expand': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help) {
    console.log(usage)
    return
  }
  if (values['reso-web-api']) {
    if (values['dry-run'] || positionals.length > 0 || values.map || values['zip-benchmarks'] !== undefined)
      throw new Error(`--reso-web-api reads the server named by RESO_API_URL: no file, --map or --dry-run\n${usage}`)
    const sync = SyncArgsSchema.safeParse({
      resource: values.resource,
      since: values.since,
      source: values.source,
      pageSize: values['page-size'],
      maxPages: values['max-pages'],
      windowMonths: values['window-months'],
      maxRejectRate: values['max-reject-rate'],
      rejectsFile: values.rejects,
      expand: !values['no-expand'],
    })
    if (!sync.success) throw new Error(`${sync.error.issues.map((issue) => issue.message).join('\n')}\n${usage}`)
    const started = performance.now()
    const { baseUrl, auth } = resoApiConfig(resoEnv())
    const log = (line: string) => console.log(line)
    let summary
    try {
      summary = await syncResoWebApi({
        ...sync.data,
        databaseUrl: resolveDatabaseUrl(),
        baseUrl,
        auth: accessTokenSource(auth, { log }),
        log,
      })
    } catch (error) {
      if (error instanceof ResoSyncRejectedError) console.error(formatSyncSummary(error.summary, false))
      throw error
    }
    console.log(formatSyncSummary(summary))
    console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
    return
  }
  const parsed = ArgsSchema.safeParse({
    file: values['zip-benchmarks'] ?? positionals[0],
    map: values.map,
    source: values.source,
    dryRun: values['dry-run'],
    zipBenchmarks: values['zip-benchmarks'] !== undefined,
    windowMonths: values['window-months'],
    delimiter: values.delimiter,
    maxRejectRate: values['max-reject-rate'],
    rejects: values.rejects,
  })
  if (!parsed.success) throw new Error(`${parsed.error.issues.map((issue) => issue.message).join('\n')}\n${usage}`)
  const args = parsed.data
  if (!fs.existsSync(args.file)) throw new Error(`No such file: ${args.file}`)

  const started = performance.now()
  if (args.zipBenchmarks) {
    const client = args.dryRun ? null : new pg.Client({ connectionString: resolveDatabaseUrl() })
    await client?.connect()
    try {
      const summary = await loadZipBenchmarks(client, args.file, args.rejects)
      console.log(
        `ZIP benchmarks${args.dryRun ? ' (dry run: nothing written)' : ''}: read ${summary.read}, rejected ${summary.rejected}${summary.rejectsFile ? ` (see ${summary.rejectsFile})` : ''}, inserted ${summary.inserted}, updated ${summary.updated}, unchanged ${summary.unchanged}`,
      )
    } finally {
      await client?.end()
    }
  } else {
    const summary = await runImport({
      file: args.file,
      mapping: args.map ? readMapping(args.map) : undefined,
      source: args.source,
      dryRun: args.dryRun,
      databaseUrl: args.dryRun ? undefined : resolveDatabaseUrl(),
      windowMonths: args.windowMonths,
      delimiter: args.delimiter,
      maxRejectRate: args.maxRejectRate,
      rejectsFile: args.rejects,
      log: (line) => console.log(line),
    })
    console.log(formatSummary(summary, args.dryRun))
  }
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
}

main().catch((error: unknown) => {
  // the summary of a run that stopped (what was read and rejected), then the reason; never a stack trace, and
  // nothing from the file that could drive the terminal
  // (a lost connection is the one line alone: the counts of a run that was rolled back would only mislead)
  if (error instanceof ImportError && error.summary && error.summary.read > 0 && !isConnectionLost(error.cause))
    console.error(
      stripVTControlCharacters(
        formatSummary(error.summary, true).replace(/^Dry run: nothing written\. /, 'Nothing written. '),
      ),
    )
  console.error(stripVTControlCharacters(error instanceof Error ? error.message : String(error)))
  process.exitCode = 1
})
