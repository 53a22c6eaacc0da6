/**
 * RESO Web API (OData v4) sync for production MLS feeds: the Property or Member resource into public.properties /
 * public.agents through the same validation (records.ts), staging and apply (upsert.ts) as file imports, with the
 * same safety: one public.import_runs row per run, a rejects file, the reject-rate rule, and all or nothing.
 *
 * Protocol (RESO Web API Core 2.0 on OData v4):
 *   - `GET <RESO_API_URL>/<Resource>?$filter=ModificationTimestamp ge <high water>&$orderby=ModificationTimestamp asc
 *     &$select=<the fields we read>[&$expand=ListAgent($select=...),...]` with `Prefer: odata.maxpagesize=<n>`, then
 *     every `@odata.nextLink` until there is none. `$top` is never sent: in OData it caps the whole result, it is not
 *     a page size (a server answers `$top=200` with 200 records and no next link).
 *   - `$select` and `$expand` come from the service's `$metadata`: only fields and navigation properties the server
 *     has (a field it lacks would be a 400). Each listing's agents (ListAgent, CoListAgent, BuyerAgent, CoBuyerAgent)
 *     come expanded as Member records, so keyed roles link without a separate Member sync.
 *   - Resume: `ge` on the high water, leaving out the keys already applied at exactly that instant
 *     (reso_sync_state.high_water_keys), so records sharing the last ModificationTimestamp across a page or run
 *     boundary are never lost (as with `gt`) nor applied twice. A page link is never stored between runs: a
 *     `$skip`-based link shifts when records change meanwhile.
 *   - Keys rejected by earlier runs (reso_sync_state.rejected_keys) are asked for again by key
 *     (`ListingKey eq '...' or ...`) on every run, even after the high water has passed them, until they validate or
 *     the server no longer has them. A record rejected again does not count against the new run's reject rate.
 *
 * A run stages every page in a temporary table inside one transaction, checks the reject rate over the records of
 * the incremental query, then applies, refreshes the metrics, moves the high water and records the run, and commits:
 * a run that fails or has too many rejects changes nothing but its import_runs row (status failed / rejected) and
 * reso_sync_state.last_error. `maxPages` bounds a run (a first sync of a large feed in chunks); the next run goes on
 * from the high water.
 */
import { stringify } from 'csv-stringify/sync'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { finishImportRun, startImportRun, type ImportRunCounts } from './import-runs.ts'
import {
  memberRowKey,
  MemberRecordSchema,
  PropertyRecordSchema,
  toMemberRow,
  toPropertyRow,
  type MemberRow,
  type PropertyRow,
} from './records.ts'
import { ResoApiError, ResoClient, parseMetadata, type EntityTypeMetadata } from './reso-client.ts'
import type { AccessTokenSource } from './reso-auth.ts'
import { checkRejectRate, defaultMaxRejectRate, defaultRejectsPath, isConnectionLost } from './run-import.ts'
import { formatMetricsRefresh, refreshAgentMetrics, type MetricsRefresh } from './metrics-refresh.ts'
import { applyStaged, createStaging, stageRows } from './upsert.ts'

export { ResoApiError } from './reso-client.ts'

export type ResoResource = 'Property' | 'Member'

export interface ResoSyncOptions {
  databaseUrl: string
  /** OData service root; the resource name is appended. */
  baseUrl: string
  /** Bearer tokens: staticToken(RESO_API_TOKEN) or clientCredentialsToken(...) (reso-auth.ts). */
  auth: AccessTokenSource
  resource?: ResoResource
  /** Feed name: properties.source and the reso_sync_state key. Default 'reso' (the file importer's default). */
  source?: string
  /** Ask for records modified at or after this ISO 8601 instant instead of the stored high water. */
  since?: string
  /** Records per page asked for with `Prefer: odata.maxpagesize`. Default 200 (the server may send fewer). */
  pageSize?: number
  /** Stop after this many pages; the run is applied and the next one goes on from its high water. */
  maxPages?: number
  /** Expand each listing's agents as Member records when the server's metadata has them. Default true. */
  expand?: boolean
  /** Largest share (FRACTION 0-1) of rejected records a run may have and still be applied. Default 0.05. */
  maxRejectRate?: number
  /** Where rejected records go. Default .data/import-rejects/reso-web-api-<source>-<Resource>.<timestamp>.rejects.csv. */
  rejectsFile?: string
  /** Attempts after the first for 429/5xx/network failures. Default 5. */
  maxRetries?: number
  /** First backoff delay in ms, doubled on each retry (Retry-After wins when the server sends it). Default 1000. */
  retryDelayMs?: number
  /** Longest Retry-After waited out, in ms; a longer one stops the run. Default 300,000. */
  maxRetryAfterMs?: number
  /** Months behind the agent metrics refreshed after a Property run that changed something. Default 24. */
  windowMonths?: number
  skipMetrics?: boolean
  /** HTTP client, sleep and clock (tests inject them). Default global fetch, setTimeout, Date.now. */
  fetch?: typeof fetch
  sleep?: (ms: number) => Promise<void>
  now?: () => number
  log?: (line: string) => void
}

export interface ResoSyncSummary {
  resource: ResoResource
  /** public.import_runs.id of this run. */
  runId: number | null
  /** True when the server had no further page (false when maxPages stopped the run). */
  complete: boolean
  pages: number
  /** HTTP requests sent ($metadata, pages, retried keys, repeats after 429/5xx/401). */
  requests: number
  /** Records of the incremental query (the reject rate is over these). */
  read: number
  /** Records at exactly the stored high water that an earlier run had applied (the `ge` overlap), left out. */
  alreadyApplied: number
  /** Records whose key came again in the same run; the later one wins. */
  duplicates: number
  rejected: number
  /** Keys rejected by earlier runs and asked for again; of them, fixed now, still rejected, no longer served. */
  retried: { asked: number; fixed: number; stillRejected: number; gone: number }
  /** The first 100 rejects: the record's key and the reason naming the RESO field. */
  rejects: Array<{ key: string; reason: string }>
  rejectsFile: string | null
  inserted: number
  updated: number
  unchanged: number
  agentsInserted: number
  agentsUpdated: number
  /** Member records that came expanded with the listings, and those that were not valid Members (ignored). */
  expandedMembers: number
  expandedIgnored: number
  /** The fields asked for with $select (null: the server has no usable $metadata, all fields) and the expansions. */
  selected: string[] | null
  expanded: string[]
  /** High water after the run (ISO 8601), null when nothing was ever synced. */
  highWater: string | null
  metrics: MetricsRefresh | null
}

/** A run that changed nothing because of its records (too many rejects); carries the summary. */
export class ResoSyncRejectedError extends Error {
  override name = 'ResoSyncRejectedError'
  constructor(
    message: string,
    readonly summary: ResoSyncSummary,
  ) {
    super(message)
  }
}

/**
 * OData timestamp literal for $filter: an ISO 8601 instant in UTC (`2025-01-31T12:00:00.000Z`), unquoted.
 * @throws Error when `value` is not a date-time.
 */
export function odataTimestamp(value: string | Date): string {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value)
  if (Number.isNaN(ms)) throw new Error(`Not an ISO 8601 timestamp: ${String(value)}`)
  return new Date(ms).toISOString()
}

/** An OData string literal: single quotes, an inner quote doubled. */
export const odataString = (value: string) => `'${value.replace(/'/g, "''")}'`

/** The agent roles of a listing as RESO navigation properties to Member (CoBuyerAgent is not in every DD version). */
const agentNavigations = ['ListAgent', 'CoListAgent', 'BuyerAgent', 'CoBuyerAgent'] as const

/** The fields the importer reads of each resource (records.ts), plus ModificationTimestamp. */
export const fieldsRead: Record<ResoResource, string[]> = {
  Property: Object.keys(PropertyRecordSchema.shape),
  Member: [...Object.keys(MemberRecordSchema.shape), 'ModificationTimestamp'],
}

export interface ResoQuery {
  select: string[] | null
  expand: Array<{ navigation: string; select: string[] }>
}

/**
 * What to ask the server for, from its metadata: `$select` the fields we read that the entity type has, and for
 * Property `$expand` the agent navigation properties that lead to Member. Without metadata: every field, no expand.
 */
export function planQuery(
  types: Map<string, EntityTypeMetadata> | null,
  resource: ResoResource,
  expand: boolean,
): ResoQuery {
  const type = types?.get(resource)
  if (!type) return { select: null, expand: [] }
  const member = types!.get('Member')
  return {
    select: fieldsRead[resource].filter((field) => type.properties.has(field)),
    expand:
      resource === 'Property' && expand && member
        ? agentNavigations
            .filter((name) => /(^|\.)Member\)?$/.test(type.navigation.get(name) ?? ''))
            .map((navigation) => ({
              navigation,
              select: fieldsRead.Member.filter((field) => member.properties.has(field)),
            }))
        : [],
  }
}

function queryString(query: ResoQuery, filter: string | null, orderBy: boolean): string {
  const params = [
    ...(filter ? [`$filter=${encodeURIComponent(filter)}`] : []),
    ...(orderBy ? [`$orderby=${encodeURIComponent('ModificationTimestamp asc')}`] : []),
    ...(query.select ? [`$select=${query.select.join(',')}`] : []),
    ...(query.expand.length > 0
      ? [
          `$expand=${encodeURIComponent(query.expand.map((entry) => `${entry.navigation}($select=${entry.select.join(',')})`).join(','))}`,
        ]
      : []),
  ]
  return params.join('&')
}

/**
 * The first page's URL: `<root>/<Resource>?$filter=ModificationTimestamp ge <since>&$orderby=ModificationTimestamp
 * asc&$select=...&$expand=...` (no $filter on a first sync). No `$top`: the page size goes in the Prefer header.
 */
export function firstPageUrl(root: string, resource: ResoResource, since: string | null, query: ResoQuery): string {
  const filter = since ? `ModificationTimestamp ge ${odataTimestamp(since)}` : null
  return `${root.replace(/\/+$/, '')}/${resource}?${queryString(query, filter, true)}`
}

/** The key a record is known by in reso_sync_state: ListingKey; MemberKey, else `MemberMlsId:<id>`. */
export function recordKey(resource: ResoResource, record: Record<string, unknown>): string | null {
  const text = (value: unknown) =>
    value === undefined || value === null || String(value).trim() === '' ? null : String(value).trim()
  if (resource === 'Property') return text(record.ListingKey)
  const memberKey = text(record.MemberKey)
  if (memberKey) return memberKey
  const mlsId = text(record.MemberMlsId)
  return mlsId ? `MemberMlsId:${mlsId}` : null
}

/** `$filter` clauses asking for these keys, at most 40 keys and 3,000 characters each. */
export function keyFilters(resource: ResoResource, keys: string[]): string[] {
  const clause = (key: string) =>
    resource === 'Property'
      ? `ListingKey eq ${odataString(key)}`
      : key.startsWith('MemberMlsId:')
        ? `MemberMlsId eq ${odataString(key.slice('MemberMlsId:'.length))}`
        : `MemberKey eq ${odataString(key)}`
  const filters: string[] = []
  let current: string[] = []
  for (const key of keys) {
    const next = clause(key)
    if (current.length >= 40 || current.join(' or ').length + next.length > 3000) {
      filters.push(current.join(' or '))
      current = []
    }
    current.push(next)
  }
  if (current.length > 0) filters.push(current.join(' or '))
  return filters
}

interface StateRow {
  high_water: string | null
  high_water_keys: string[]
  rejected_keys: string[]
}

const timestampOf = (record: Record<string, unknown>): number | null => {
  const value = record.ModificationTimestamp
  if (typeof value !== 'string') return null
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? null : ms
}

/**
 * Runs one sync (see the module comment). Returns counts like a file import.
 * @throws ResoSyncRejectedError when the rejects exceed the limit (the run is recorded as rejected; nothing changed);
 * ResoApiError for an HTTP answer the run cannot get past; a database error. The run is then recorded as failed.
 */
export async function syncResoWebApi(options: ResoSyncOptions): Promise<ResoSyncSummary> {
  const resource = options.resource ?? 'Property'
  const source = options.source ?? 'reso'
  const log = options.log ?? (() => {})
  const maxRejectRate = options.maxRejectRate ?? defaultMaxRejectRate
  const root = options.baseUrl.replace(/\/+$/, '')
  const resourceUrl = `${root}/${resource}`
  if (options.since !== undefined) odataTimestamp(options.since)
  const http = new ResoClient({
    auth: options.auth,
    maxPageSize: options.pageSize ?? 200,
    maxRetries: options.maxRetries,
    retryDelayMs: options.retryDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs,
    fetch: options.fetch,
    sleep: options.sleep,
    now: options.now,
    log,
  })
  const rejectsFile = options.rejectsFile ?? defaultRejectsPath(`reso-web-api-${source}-${resource}`)

  const summary: ResoSyncSummary = {
    resource,
    runId: null,
    complete: false,
    pages: 0,
    requests: 0,
    read: 0,
    alreadyApplied: 0,
    duplicates: 0,
    rejected: 0,
    retried: { asked: 0, fixed: 0, stillRejected: 0, gone: 0 },
    rejects: [],
    rejectsFile: null,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    agentsInserted: 0,
    agentsUpdated: 0,
    expandedMembers: 0,
    expandedIgnored: 0,
    selected: null,
    expanded: [],
    highWater: null,
    metrics: null,
  }
  const rejectRows: string[][] = []
  const writeRejects = () => {
    if (rejectRows.length === 0 || summary.rejectsFile) return
    fs.mkdirSync(path.dirname(rejectsFile), { recursive: true })
    fs.writeFileSync(rejectsFile, stringify([['key', 'reason', 'ModificationTimestamp', 'record'], ...rejectRows]))
    summary.rejectsFile = rejectsFile
  }
  const runCounts = (): ImportRunCounts => ({
    resource,
    read: summary.read + summary.retried.asked - summary.retried.gone,
    skipped: 0,
    inserted: summary.inserted,
    updated: summary.updated,
    unchanged: summary.unchanged,
    rejected: summary.rejected + summary.retried.stillRejected,
    duplicates: summary.duplicates,
    rejectsFile: summary.rejectsFile,
  })

  const client = new pg.Client({ connectionString: options.databaseUrl })
  // without a listener a dropped connection is an uncaught 'error' event: a stack trace instead of our one line
  client.on('error', () => {})
  await client.connect()
  let inTransaction = false
  try {
    await client.query(
      `insert into public.reso_sync_state (source, resource) values ($1, $2) on conflict (source, resource) do nothing`,
      [source, resource],
    )
    summary.runId = await startImportRun(client, {
      source,
      fileName: resourceUrl,
      sha256: null,
      bytes: null,
      origin: 'reso_web_api',
    })
    await client.query('begin')
    inTransaction = true
    let state: StateRow
    try {
      // the row lock is held to the commit: a second sync of the same feed and resource waits for nothing, it stops
      const { rows } = await client.query<StateRow>(
        `select to_char(high_water at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as high_water,
                high_water_keys, rejected_keys
         from public.reso_sync_state where source = $1 and resource = $2 for update nowait`,
        [source, resource],
      )
      state = rows[0]!
    } catch (error) {
      if ((error as { code?: string }).code === '55P03')
        throw new Error(
          `Another RESO Web API sync of ${source} ${resource} is running; try again when it has finished`,
          {
            cause: error,
          },
        )
      throw error
    }
    summary.highWater = state.high_water

    // $select and $expand from the metadata; without usable metadata, every field and no expansion
    let types: Map<string, EntityTypeMetadata> | null = null
    try {
      types = parseMetadata(await http.getText(`${root}/$metadata`, 'application/xml'))
      if (!types.has(resource)) log(`The server's $metadata has no ${resource} entity type; asking for every field.`)
    } catch (error) {
      if (error instanceof ResoApiError && (error.status === 401 || error.status === 403 || error.status === 0))
        throw error
      log(`No usable $metadata (${(error as Error).message}); asking for every field, expanding nothing.`)
    }
    const query = planQuery(types, resource, options.expand ?? true)
    if (types?.get(resource) && !query.select!.includes('ModificationTimestamp'))
      throw new Error(
        `The server's ${resource} has no ModificationTimestamp field; an incremental RESO Web API sync needs it`,
      )
    summary.selected = query.select
    summary.expanded = query.expand.map((entry) => entry.navigation)

    const since = options.since ?? state.high_water
    const sinceMs = since === null ? null : Date.parse(since)
    const appliedAtSince = new Set(options.since === undefined ? state.high_water_keys : [])
    let runHighWater: number | null = null
    let runHighWaterKeys = new Set<string>()
    const validKeys = new Set<string>()
    const rejectedNow = new Map<string, string>()
    const stagedTables = new Set<ResoResource>()
    let seq = 0
    let batch = new Map<string, { seq: number; row: PropertyRow | MemberRow }>()
    let members = new Map<string, { seq: number; row: MemberRow }>()

    const flush = async () => {
      for (const [table, rows] of [
        [resource, batch],
        ['Member', resource === 'Member' ? new Map() : members],
      ] as const) {
        if (rows.size === 0) continue
        if (!stagedTables.has(table)) {
          await createStaging(client, table)
          stagedTables.add(table)
        }
        await stageRows(client, table, [...rows.values()])
      }
      batch = new Map()
      members = new Map()
    }

    const take = (record: Record<string, unknown>, phase: 'main' | 'retry') => {
      const key = recordKey(resource, record)
      const modified = timestampOf(record)
      if (phase === 'main') {
        if (modified !== null && modified === sinceMs && key !== null && appliedAtSince.has(key)) {
          summary.alreadyApplied += 1
          return
        }
        summary.read += 1
        if (modified !== null && key !== null) {
          if (runHighWater === null || modified > runHighWater) {
            runHighWater = modified
            runHighWaterKeys = new Set([key])
          } else if (modified === runHighWater) runHighWaterKeys.add(key)
        }
      }
      for (const { navigation } of query.expand) {
        const expanded = record[navigation]
        delete record[navigation]
        if (expanded === null || typeof expanded !== 'object' || Array.isArray(expanded)) continue
        const member = toMemberRow(expanded as Record<string, unknown>)
        if (!member.ok) {
          summary.expandedIgnored += 1
          continue
        }
        summary.expandedMembers += 1
        members.set(memberRowKey(member.row), { seq: ++seq, row: member.row })
      }
      const result = resource === 'Member' ? toMemberRow(record) : toPropertyRow(record, source)
      if (!result.ok) {
        if (phase === 'main') summary.rejected += 1
        else summary.retried.stillRejected += 1
        if (key !== null) rejectedNow.set(key, result.reason)
        if (summary.rejects.length < 100) summary.rejects.push({ key: key ?? '(no key)', reason: result.reason })
        rejectRows.push([
          key ?? '',
          `${phase === 'retry' ? 'rejected again: ' : ''}${result.reason}`,
          typeof record.ModificationTimestamp === 'string' ? record.ModificationTimestamp : '',
          JSON.stringify(record),
        ])
        return
      }
      const rowKey = 'source_record_id' in result.row ? result.row.source_record_id : memberRowKey(result.row)
      if (key !== null) {
        if (validKeys.has(key)) summary.duplicates += 1
        validKeys.add(key)
        rejectedNow.delete(key)
      }
      if (phase === 'retry') summary.retried.fixed += 1
      batch.delete(rowKey)
      batch.set(rowKey, { seq: ++seq, row: result.row })
    }

    // the incremental query, page by page through @odata.nextLink
    let url = firstPageUrl(root, resource, since, query)
    for (;;) {
      const page = await http.getPage(url)
      summary.pages += 1
      for (const record of page.value) take(record, 'main')
      await flush()
      log(
        `  page ${summary.pages}: ${page.value.length} records (${summary.read} so far, ${summary.rejected} rejected)`,
      )
      const next = page['@odata.nextLink']
      if (!next) {
        summary.complete = true
        break
      }
      url = new URL(next, url).href
      if (options.maxPages !== undefined && summary.pages >= options.maxPages) {
        log(`Stopping after ${summary.pages} pages (--max-pages); the next run goes on from the high water.`)
        break
      }
    }

    // keys rejected by earlier runs and not seen again above: ask for them by key
    const retryKeys = state.rejected_keys.filter((key) => !validKeys.has(key) && !rejectedNow.has(key))
    const asked = new Set(retryKeys)
    const returned = new Set<string>()
    if (retryKeys.length > 0) {
      log(`Asking again for ${retryKeys.length} records rejected by earlier runs...`)
      summary.retried.asked = retryKeys.length
      for (const filter of keyFilters(resource, retryKeys)) {
        let retryUrl: string | null = `${resourceUrl}?${queryString(query, filter, false)}`
        while (retryUrl) {
          const page = await http.getPage(retryUrl)
          for (const record of page.value) {
            const key = recordKey(resource, record)
            if (key === null || !asked.has(key) || returned.has(key)) continue
            returned.add(key)
            take(record, 'retry')
          }
          await flush()
          retryUrl = page['@odata.nextLink'] ? new URL(page['@odata.nextLink'], retryUrl).href : null
        }
      }
      summary.retried.gone = retryKeys.filter((key) => !returned.has(key)).length
    }
    writeRejects()
    summary.requests = http.requests

    checkRejectRate(summary.rejected, summary.read, maxRejectRate, summary.rejectsFile, (message) => {
      throw new ResoSyncRejectedError(message, summary)
    })

    // apply: Members first (a Member run, or the agents expanded with the listings), so keyed roles link at once
    if (stagedTables.has('Member')) {
      const applied = await applyStaged(client, 'Member')
      summary.agentsInserted += applied.inserted
      summary.agentsUpdated += applied.updated
      if (resource === 'Member') {
        summary.inserted = applied.inserted
        summary.updated = applied.updated
      }
    }
    if (resource === 'Property' && stagedTables.has('Property')) {
      const applied = await applyStaged(client, 'Property')
      summary.inserted = applied.inserted
      summary.updated = applied.updated
      summary.agentsInserted += applied.agentsInserted
      summary.agentsUpdated += applied.agentsUpdated
    }
    summary.unchanged = Math.max(0, validKeys.size - summary.inserted - summary.updated)

    // the new high water never moves back (a --since run that stopped early), and keeps the keys applied at it
    const stored = state.high_water === null ? null : Date.parse(state.high_water)
    let highWater = stored
    let highWaterKeys = new Set(state.high_water_keys)
    if (runHighWater !== null && (stored === null || runHighWater > stored)) {
      highWater = runHighWater
      highWaterKeys = runHighWaterKeys
    } else if (runHighWater !== null && runHighWater === stored) {
      for (const key of runHighWaterKeys) highWaterKeys.add(key)
    }
    const resolved = new Set([...validKeys, ...retryKeys.filter((key) => !returned.has(key))])
    const rejectedKeys = new Set([...state.rejected_keys.filter((key) => !resolved.has(key)), ...rejectedNow.keys()])
    const { rows: done } = await client.query<{ high_water: string | null }>(
      `update public.reso_sync_state
       set high_water = $3::timestamptz, high_water_keys = $4, rejected_keys = $5, last_error = null,
           last_completed_at = now(), last_run_records = $6
       where source = $1 and resource = $2
       returning to_char(high_water at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as high_water`,
      [
        source,
        resource,
        highWater === null ? null : new Date(highWater).toISOString(),
        [...highWaterKeys],
        [...rejectedKeys],
        summary.read,
      ],
    )
    summary.highWater = done[0]!.high_water

    if (resource === 'Property' && !options.skipMetrics && summary.inserted + summary.updated > 0) {
      summary.metrics = await refreshAgentMetrics(client, options.windowMonths)
    }
    await finishImportRun(client, summary.runId, 'succeeded', runCounts())
    await client.query('commit')
    inTransaction = false
    return summary
  } catch (error) {
    summary.requests = http.requests
    writeRejects()
    if (inTransaction) await client.query('rollback').catch(() => {})
    if (!isConnectionLost(error)) {
      const message = (error as Error).message
      if (summary.runId !== null)
        await finishImportRun(
          client,
          summary.runId,
          error instanceof ResoSyncRejectedError ? 'rejected' : 'failed',
          { ...runCounts(), inserted: 0, updated: 0, unchanged: 0 },
          message,
        ).catch(() => {})
      await client
        .query(`update public.reso_sync_state set last_error = left($3, 2000) where source = $1 and resource = $2`, [
          source,
          resource,
          message,
        ])
        .catch(() => {})
    }
    throw error
  } finally {
    await client.end().catch(() => {})
  }
}

/** The summary as the CLI prints it. */
export function formatSyncSummary(summary: ResoSyncSummary, applied = true): string {
  const lines = [
    `RESO Web API ${summary.resource} sync: ${!applied ? 'nothing applied' : summary.complete ? 'complete' : 'stopped at --max-pages, the next run goes on from the high water'}`,
    `  pages       ${summary.pages} (${summary.requests} requests)`,
    `  select      ${summary.selected ? `${summary.selected.length} fields` : 'every field (no usable $metadata)'}${summary.expanded.length > 0 ? `; expand ${summary.expanded.join(', ')}` : ''}`,
    `  read        ${summary.read}${summary.alreadyApplied > 0 ? ` (and ${summary.alreadyApplied} at the high water already applied)` : ''}`,
    `  rejected    ${summary.rejected}${summary.rejectsFile ? ` (see ${summary.rejectsFile})` : ''}`,
    ...summary.rejects.slice(0, 10).map((reject) => `              ${reject.key}: ${reject.reason}`),
  ]
  if (summary.retried.asked > 0)
    lines.push(
      `  retried     ${summary.retried.asked} keys rejected before: ${summary.retried.fixed} now valid, ${summary.retried.stillRejected} rejected again, ${summary.retried.gone} no longer on the server`,
    )
  if (summary.duplicates > 0) lines.push(`  duplicates  ${summary.duplicates} (same key again; the later one wins)`)
  if (applied) {
    lines.push(
      `  inserted    ${summary.inserted}`,
      `  updated     ${summary.updated}`,
      `  unchanged   ${summary.unchanged}`,
    )
    if (summary.resource === 'Property')
      lines.push(
        `  agents      ${summary.agentsInserted} created, ${summary.agentsUpdated} updated${summary.expandedMembers > 0 ? ` (${summary.expandedMembers} Member records expanded with the listings${summary.expandedIgnored > 0 ? `, ${summary.expandedIgnored} not valid` : ''})` : ''}`,
      )
    lines.push(`  high water  ${summary.highWater ?? '-'} (ModificationTimestamp)`)
  }
  if (summary.metrics) lines.push(formatMetricsRefresh(summary.metrics))
  if (summary.runId !== null) lines.push(`Recorded as import run ${summary.runId} (public.import_runs)`)
  return lines.join('\n')
}
