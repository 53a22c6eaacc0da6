/**
 * One import, all or nothing: read a RESO Property or Member file (optionally through a mapping), validate each
 * record, stage the valid ones in a temporary table, then apply them and recompute the agent metrics in ONE
 * transaction. Visitors see the old data or the new data, never a mix; a run that fails or is killed changes no
 * live row. Each run is recorded in public.import_runs (import-runs.ts).
 *
 * Before anything is applied:
 *   - every column the mapping reads must be in the header (CSV: checked on the header, before staging a row; JSON:
 *     checked after reading), else MappingError naming the field, the column and the closest header names;
 *   - rows a skip rule of the mapping matches are counted as skipped with the rule's reason, not validated;
 *   - the rejects must not exceed `maxRejectRate` (default 5 %) of the records not skipped, and a run where every
 *     such record was rejected, or that has no record to import at all, always fails;
 *   - a last record without its line end is rejected when its last column is one the import reads and is not a
 *     closed quoted field (it may have been cut short); otherwise it is accepted with a warning.
 * Rejected records go to `rejectsFile` (default .data/import-rejects/<file name>.<timestamp>.rejects.csv), never
 * beside the input.
 */
import cliProgress from 'cli-progress'
import { stringify } from 'csv-stringify/sync'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { rootDir } from '../env.ts'
import { finishImportRun, sha256File, startImportRun, type ImportRunCounts } from './import-runs.ts'
import {
  applyMapping,
  mappedColumns,
  MappingError,
  skipReason,
  validateMappingAgainstHeader,
  type Mapping,
} from './mapping.ts'
import { defaultMaxRecordBytes, detectFormat, readRecords } from './read-file.ts'
import {
  detectResource,
  memberRowKey,
  MemberRecordSchema,
  PropertyRecordSchema,
  toMemberRow,
  toPropertyRow,
  type MemberRow,
  type PropertyRow,
} from './records.ts'
import { applyStaged, createStaging, stageRows } from './upsert.ts'
import { formatMetricsRefresh, refreshAgentMetrics, type MetricsRefresh } from './metrics-refresh.ts'

export interface ImportOptions {
  file: string
  mapping?: Mapping
  /** Validate and count only; nothing is written to the database (the rejects file still is). */
  dryRun?: boolean
  databaseUrl?: string
  /** properties.source when there is no mapping; default 'reso'. */
  source?: string
  /** Rows per staging insert (default 5,000). */
  batchSize?: number
  /** Show a progress bar (default: when stderr is a terminal and the file is over 5 MB). */
  progress?: boolean
  /** Months of closed sales behind the agent metrics (refresh_agent_metrics). */
  windowMonths?: number
  /** Skip refresh_agent_metrics() (e.g. when several files are imported in a row). */
  skipMetrics?: boolean
  /** CSV delimiter; sniffed from the header line when absent. */
  delimiter?: string
  /** Largest share of rejected records (FRACTION 0-1) a run may have and still be applied. Default 0.05. */
  maxRejectRate?: number
  /** Where rejected records go. Default .data/import-rejects/<file name>.<timestamp>.rejects.csv. */
  rejectsFile?: string
  /** Longest record, in characters. Default 1 MiB. */
  maxRecordBytes?: number
  /** Phase lines ("Staged ...", "Applying ..."), for the CLI and the bench. */
  log?: (line: string) => void
}

/** Rows a skip rule left out, per reason (in the order the reasons first occurred). */
export interface SkipCount {
  reason: string
  count: number
  /** The first 20 rows: file line (header = 1; position for a JSON array) and the record's key when it has one. */
  rows: Array<{ line: number; key: string | null }>
}

export interface ImportSummary {
  resource: 'Property' | 'Member'
  read: number
  /** Records a skip rule of the mapping left out on purpose; not validated, not rejects. */
  skipped: number
  skips: SkipCount[]
  rejected: number
  /** Valid records whose key appeared earlier in the same file; the later one wins. */
  duplicates: number
  inserted: number
  updated: number
  unchanged: number
  agentsInserted: number
  agentsUpdated: number
  rejectsFile: string | null
  metrics: MetricsRefresh | null
  /** public.import_runs.id of this run (null on a dry run). */
  runId: number | null
  /** Things the operator should know that did not stop the run (e.g. a last line without line end). */
  warnings: string[]
  /**
   * Seconds spent reading, validating and staging; and applying (upserts, metrics, commit), with the apply's steps:
   * the upserts (with the triggers they fire), the planner statistics, the metrics refresh (null when skipped), the
   * run's record and the commit. `applySteps` is null until the apply has committed (a dry run, a rejected file).
   */
  timings: {
    stageSeconds: number
    applySeconds: number
    applySteps: { upsert: number; analyze: number; metrics: number | null; commit: number } | null
  }
}

/** A run that changed nothing: bad mapping, too many rejects, unreadable file, lost connection. Carries the summary so far. */
export class ImportError extends Error {
  override name = 'ImportError'
  constructor(
    message: string,
    readonly summary: ImportSummary | null,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

export const defaultMaxRejectRate = 0.05
export const defaultRejectsDir = path.join(rootDir, '.data/import-rejects')

/** The default rejects file of `file`: .data/import-rejects/<file name>.<UTC timestamp>.rejects.csv. */
export function defaultRejectsPath(file: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
  return path.join(defaultRejectsDir, `${path.basename(file)}.${stamp}.rejects.csv`)
}

const connectionLostCodes = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
])

/** Whether `error` means the database connection is gone (server shut down or killed, network cut). */
export function isConnectionLost(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null
  return (
    !!e &&
    ((e.code !== undefined && connectionLostCodes.has(e.code)) ||
      /Connection terminated|terminating connection|Client has encountered a connection error|not queryable/i.test(
        e.message ?? '',
      ))
  )
}

/** RESO fields read when there is no mapping, to tell whether a cut-short last column matters. */
const resoFieldsRead = new Set([...Object.keys(PropertyRecordSchema.shape), ...Object.keys(MemberRecordSchema.shape)])

/** Seconds from `from` to `to` (performance.now() values), to a tenth. */
const between = (from: number, to: number) => Math.round((to - from) / 100) / 10
const seconds = (since: number) => between(since, performance.now())

/**
 * Runs an import. Everything is applied in one transaction, or nothing is.
 * @throws MappingError when the mapping names a column the file lacks; FileFormatError for binary input or a record
 * over the size cap; ImportError when the rejects exceed the threshold, there is no valid record, the resource cannot
 * be told, or the database connection was lost ("lost the database connection after N rows; nothing was changed").
 */
export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? 5000
  const source = options.mapping?.source ?? options.source ?? 'reso'
  const maxRejectRate = options.maxRejectRate ?? defaultMaxRejectRate
  const log = options.log ?? (() => {})
  if (!options.dryRun && !options.databaseUrl) throw new Error('databaseUrl is required unless dryRun is set')
  if (!(maxRejectRate >= 0 && maxRejectRate <= 1))
    throw new Error(`maxRejectRate must be a fraction between 0 and 1, got ${maxRejectRate}`)

  const summary: ImportSummary = {
    resource: options.mapping?.resource ?? 'Property',
    read: 0,
    skipped: 0,
    skips: [],
    rejected: 0,
    duplicates: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    agentsInserted: 0,
    agentsUpdated: 0,
    rejectsFile: null,
    metrics: null,
    runId: null,
    warnings: [],
    timings: { stageSeconds: 0, applySeconds: 0, applySteps: null },
  }
  const rejectsFile = options.rejectsFile ?? defaultRejectsPath(options.file)
  const rejects: string[][] = []
  let rejectColumns: string[] | null = null
  const format = detectFormat(options.file)
  const readColumns = options.mapping
    ? new Set(mappedColumns(options.mapping).map((entry) => entry.column))
    : resoFieldsRead
  let header: string[] | null = null

  const size = fs.statSync(options.file).size
  const showProgress = options.progress ?? (process.stderr.isTTY && size > 5_000_000)
  const bar = showProgress
    ? new cliProgress.SingleBar(
        { format: 'import [{bar}] {percentage}% | {records} records | {eta_formatted} left', stream: process.stderr },
        cliProgress.Presets.shades_classic,
      )
    : null

  const client = options.dryRun ? null : new pg.Client({ connectionString: options.databaseUrl })
  // without a listener a dropped connection is an uncaught 'error' event: a stack trace instead of our one line
  client?.on('error', () => {})
  let phase: 'connect' | 'stage' | 'apply' | 'commit' = 'connect'
  let inTransaction = false
  const runCounts = (): ImportRunCounts => ({
    resource: summary.resource,
    read: summary.read,
    skipped: summary.skipped,
    inserted: summary.inserted,
    updated: summary.updated,
    unchanged: summary.unchanged,
    rejected: summary.rejected,
    duplicates: summary.duplicates,
    rejectsFile: summary.rejectsFile,
  })
  const writeRejects = () => {
    if (rejects.length === 0) return
    fs.mkdirSync(path.dirname(rejectsFile), { recursive: true })
    fs.writeFileSync(rejectsFile, stringify([['line', 'reason', ...(rejectColumns ?? [])], ...rejects]))
    summary.rejectsFile = rejectsFile
  }

  try {
    if (client) {
      await client.connect()
      // the staging table lives in this session's temp buffers (default 8 MB): a million staged rows would be
      // written out and read back again; only settable before the session's first temporary table
      await client.query(`set temp_buffers = '256MB'`)
      summary.runId = await startImportRun(client, {
        source,
        fileName: options.file,
        sha256: await sha256File(options.file),
        bytes: size,
      })
      await client.query('begin')
      inTransaction = true
    }
    phase = 'stage'
    const stageStarted = performance.now()
    bar?.start(size, 0, { records: 0 })

    const seen = new Set<string>()
    let batch = new Map<string, { seq: number; row: PropertyRow | MemberRow }>()
    let resource: 'Property' | 'Member' | undefined = options.mapping?.resource
    let staging = false
    // one batch is staged while the next one is parsed and validated; at most one write is in flight
    let pending: Promise<void> = Promise.resolve()
    const flush = async () => {
      await pending
      if (batch.size === 0 || !client) {
        batch = new Map()
        return
      }
      const rows = [...batch.values()]
      batch = new Map()
      if (!staging) {
        await createStaging(client, resource!)
        staging = true
      }
      pending = stageRows(client, resource!, rows)
      // the rejection is re-thrown by the next `await pending`; this only stops Node reporting it as unhandled
      pending.catch(() => {})
    }
    const reject = (line: number, reason: string, raw: Record<string, unknown> | null) => {
      summary.rejected += 1
      if (raw) rejectColumns ??= Object.keys(raw)
      rejects.push([
        String(line),
        reason,
        ...(rejectColumns ?? []).map((column) => (raw?.[column] == null ? '' : String(raw[column]))),
      ])
    }

    const records = readRecords(options.file, {
      delimiter: options.delimiter,
      maxRecordBytes: options.maxRecordBytes ?? defaultMaxRecordBytes,
      onBytes: bar ? (bytes) => bar.update(bytes, { records: summary.read }) : undefined,
      onHeader: (columns, delimiter) => {
        header = columns
        // a mapping that does not fit the header stops the run before a single row is staged
        if (options.mapping)
          validateMappingAgainstHeader(options.mapping, columns, `the header of ${options.file}`, delimiter)
        else if (
          !columns.includes('ListingKey') &&
          !columns.includes('MemberMlsId') &&
          !columns.includes('MemberKey') &&
          columns.length === 1 &&
          delimiter === ','
        ) {
          throw new ImportError(
            `${options.file}: the header has a single column; is the delimiter right? (set --delimiter); nothing was imported`,
            summary,
          )
        }
      },
    })
    const jsonKeys = new Set<string>()
    for await (const entry of records) {
      summary.read += 1
      if (entry.problem !== undefined) {
        reject(entry.line, entry.problem, null)
        continue
      }
      const raw = entry.record
      if (format !== 'csv' && options.mapping) for (const key of Object.keys(raw)) jsonKeys.add(key)
      const skipped = options.mapping ? skipReason(raw, options.mapping) : undefined
      const record = options.mapping ? applyMapping(raw, options.mapping) : raw
      if (skipped !== undefined) {
        summary.skipped += 1
        let count = summary.skips.find((entry) => entry.reason === skipped)
        if (!count) summary.skips.push((count = { reason: skipped, count: 0, rows: [] }))
        count.count += 1
        const key = record.ListingKey ?? record.MemberKey ?? record.MemberMlsId
        if (count.rows.length < 20)
          count.rows.push({
            line: entry.line,
            key: key === undefined || key === null || key === '' ? null : String(key),
          })
        continue
      }
      resource ??= detectResource(record)
      if (!resource) {
        throw new ImportError(
          `${options.file}: cannot tell the RESO resource: the first record has neither ListingKey (Property) nor MemberKey or MemberMlsId (Member). Use --map to name the columns.`,
          summary,
        )
      }
      const result = resource === 'Member' ? toMemberRow(record) : toPropertyRow(record, source)
      if (!result.ok) {
        reject(entry.line, result.reason, raw)
        continue
      }
      // a valid last record without its line end may still have been cut inside its last column
      if (entry.unterminated) {
        const lastColumn = (header ?? Object.keys(raw)).at(-1)
        if (lastColumn !== undefined && readColumns.has(lastColumn) && !entry.endsQuoted) {
          reject(
            entry.line,
            `the file ends inside this record (no line end after it): its last column ${JSON.stringify(lastColumn)} may be cut short`,
            raw,
          )
          summary.warnings.push(
            `line ${entry.line}: the file ends without a line end; the record was rejected because its last column may be cut short`,
          )
          continue
        }
        summary.warnings.push(
          `line ${entry.line}: the file ends without a line end; the record was accepted (its last column is complete or not read)`,
        )
      }
      const key = 'source_record_id' in result.row ? result.row.source_record_id : memberRowKey(result.row)
      if (seen.has(key)) summary.duplicates += 1
      else seen.add(key)
      batch.delete(key)
      batch.set(key, { seq: entry.line, row: result.row })
      if (batch.size >= batchSize) await flush()
    }
    await flush()
    await pending
    bar?.stop()
    summary.resource = resource ?? summary.resource
    if (options.mapping && format !== 'csv' && summary.read > summary.rejected) {
      validateMappingAgainstHeader(options.mapping, [...jsonKeys], `the keys of the records in ${options.file}`)
    }
    summary.timings.stageSeconds = seconds(stageStarted)
    writeRejects()

    if (summary.read === 0)
      throw new ImportError(
        `${options.file}: no records found (is it empty, or the wrong file?); nothing was imported`,
        summary,
      )
    const considered = summary.read - summary.skipped
    if (considered === 0)
      throw new ImportError(
        `${options.file}: all ${summary.read} records were skipped by the mapping's skip rules (${summary.skips.map((entry) => entry.reason).join('; ')}); nothing was imported`,
        summary,
      )
    checkRejectRate(summary.rejected, considered, maxRejectRate, summary.rejectsFile, (message) => {
      throw new ImportError(message, summary)
    })
    log(
      `Staged ${seen.size.toLocaleString('en-US')} ${summary.resource} records in ${summary.timings.stageSeconds} s (${summary.skipped > 0 ? `${summary.skipped} skipped, ` : ''}${summary.rejected} rejected); applying...`,
    )

    if (client && staging) {
      phase = 'apply'
      const applyStarted = performance.now()
      const applied = await applyStaged(client, summary.resource)
      const upserted = performance.now()
      summary.inserted = applied.inserted
      summary.updated = applied.updated
      summary.agentsInserted = applied.agentsInserted
      summary.agentsUpdated = applied.agentsUpdated
      summary.unchanged = Math.max(0, seen.size - summary.inserted - summary.updated)
      // fresh planner statistics for what changed (PostgreSQL manual, "Populating a Database: Run ANALYZE
      // Afterwards"): the metrics refresh and the pages' per-agent queries right after the import plan with them
      if (applied.inserted + applied.updated + applied.agentsInserted > 0)
        await client.query(
          summary.resource === 'Property'
            ? 'analyze public.properties, public.transaction_sides, public.agents'
            : 'analyze public.agents',
        )
      const analyzed = performance.now()
      if (!options.skipMetrics) {
        summary.metrics = await refreshAgentMetrics(client, options.windowMonths)
      }
      const refreshed = performance.now()
      await finishImportRun(client, summary.runId!, 'succeeded', runCounts())
      phase = 'commit'
      await client.query('commit')
      inTransaction = false
      summary.timings.applySteps = {
        upsert: between(applyStarted, upserted),
        analyze: between(upserted, analyzed),
        metrics: options.skipMetrics ? null : between(analyzed, refreshed),
        commit: between(refreshed, performance.now()),
      }
      // fresh planner statistics for what changed (PostgreSQL manual, "Populating a Database: Run ANALYZE
      // Afterwards"), so the pages' per-agent queries right after the import plan with them. After the commit: inside
      // the transaction its lock would be held until the end and two imports could wait on each other
      if (applied.inserted + applied.updated + applied.agentsInserted > 0) {
        try {
          await client.query(
            summary.resource === 'Property'
              ? 'analyze public.properties, public.transaction_sides, public.agents'
              : 'analyze public.agents',
          )
        } catch (error) {
          summary.warnings.push(
            `the import is applied; refreshing the planner statistics failed: ${(error as Error).message}`,
          )
        }
      }
      summary.timings.applySeconds = seconds(applyStarted)
    } else {
      summary.unchanged = 0
    }
    return summary
  } catch (error) {
    bar?.stop()
    if (!summary.rejectsFile) writeRejects()
    if (isConnectionLost(error)) {
      throw new ImportError(
        phase === 'commit'
          ? `lost the database connection while committing after ${summary.read} rows; the run may or may not have been applied (see public.import_runs id ${summary.runId})`
          : `lost the database connection after ${summary.read} rows; nothing was changed`,
        summary,
        { cause: error },
      )
    }
    if (client && summary.runId !== null) {
      try {
        if (inTransaction) await client.query('rollback')
        const rejected = error instanceof MappingError || (error instanceof ImportError && summary.read > 0)
        await finishImportRun(
          client,
          summary.runId,
          rejected ? 'rejected' : 'failed',
          { ...runCounts(), inserted: 0, updated: 0, unchanged: 0 },
          (error as Error).message,
        )
      } catch (bookkeeping) {
        if (isConnectionLost(bookkeeping))
          throw new ImportError(
            `lost the database connection after ${summary.read} rows; nothing was changed`,
            summary,
            { cause: error },
          )
        throw bookkeeping
      }
    }
    throw error
  } finally {
    await client?.end().catch(() => {})
  }
}

/**
 * The reject-rate rule shared by file imports and Web API runs: a run is refused (`fail` is called with the message)
 * when every considered record was rejected, or when the rejected share of the considered records (skips excluded)
 * is over `maxRejectRate` (a FRACTION 0-1).
 */
export function checkRejectRate(
  rejected: number,
  considered: number,
  maxRejectRate: number,
  rejectsFile: string | null,
  fail: (message: string) => never,
): void {
  if (considered === 0) return
  if (rejected === considered)
    fail(`All ${considered} records were rejected (see ${rejectsFile}); nothing was imported`)
  const rate = rejected / considered
  if (rate > maxRejectRate)
    fail(
      `${rejected} of ${considered} records were rejected (${(rate * 100).toFixed(1)} %, over the ${(maxRejectRate * 100).toFixed(1)} % allowed by --max-reject-rate; see ${rejectsFile}); nothing was imported`,
    )
}

/** The skipped rows as the CLI prints them: per reason, the count and the first rows (line and key). */
export function formatSkips(skips: SkipCount[]): string[] {
  return skips.flatMap((entry) => [
    `              ${entry.reason} (${entry.count}):`,
    ...entry.rows.map((row) => `                line ${row.line}${row.key ? `  ${row.key}` : ''}`),
    ...(entry.count > entry.rows.length ? [`                and ${entry.count - entry.rows.length} more`] : []),
  ])
}

/** The summary as the CLI prints it. */
export function formatSummary(summary: ImportSummary, dryRun = false): string {
  const lines = [
    `${dryRun ? 'Dry run: nothing written. ' : ''}${summary.resource} records`,
    `  read        ${summary.read}`,
    ...(summary.skipped > 0
      ? [`  skipped     ${summary.skipped} (the mapping's skip rules)`, ...formatSkips(summary.skips)]
      : []),
    `  rejected    ${summary.rejected}${summary.rejectsFile ? ` (see ${summary.rejectsFile})` : ''}`,
    `  duplicates  ${summary.duplicates} (same key again in the file; merged, last one wins)`,
  ]
  if (!dryRun) {
    lines.push(
      `  inserted    ${summary.inserted}`,
      `  updated     ${summary.updated}`,
      `  unchanged   ${summary.unchanged}`,
    )
    if (summary.resource === 'Property')
      lines.push(`  agents      ${summary.agentsInserted} created, ${summary.agentsUpdated} updated`)
  }
  if (summary.metrics) {
    lines.push(formatMetricsRefresh(summary.metrics))
  }
  if (summary.runId !== null)
    lines.push(
      `Recorded as import run ${summary.runId} (public.import_runs); staging ${summary.timings.stageSeconds} s, apply ${summary.timings.applySeconds} s`,
    )
  for (const warning of summary.warnings) lines.push(`Warning: ${warning}`)
  return lines.join('\n')
}
