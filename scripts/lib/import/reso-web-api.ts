/**
 * RESO Web API (OData v4) client for production MLS feeds: incremental sync of the Property or Member resource into
 * public.properties / public.agents through the same validation (records.ts) and upserts (upsert.ts) as file imports.
 *
 * Protocol (RESO Web API Core 2.0): `GET <RESO_API_URL>/<Resource>?$filter=ModificationTimestamp gt <high water>
 * &$orderby=ModificationTimestamp&$top=<page size>` with `Authorization: Bearer <RESO_API_TOKEN>`; the answer is
 * `{ "value": [records], "@odata.nextLink"?: "<url of the next page>" }`, and the client follows nextLink until there
 * is none.
 *
 * Progress lives in public.reso_sync_state (one row per source and resource). Each page's upserts and the state
 * change (the next page's URL, the highest ModificationTimestamp seen) commit in one transaction, so a sync that is
 * interrupted (crash, network, server outage) resumes at the page it stopped on; only when the last page is written
 * does the high water advance. Writes are idempotent (unchanged rows are not touched), so a page seen twice is
 * harmless.
 *
 * Errors: 429 and 5xx (and network failures) are retried with exponential backoff, honouring Retry-After; 401/403
 * stop at once naming RESO_API_TOKEN; a body that is not JSON, or not an OData collection, stops naming the URL.
 */
import pg from 'pg'
import { z } from 'zod'
import { memberRowKey, toMemberRow, toPropertyRow, type MemberRow, type PropertyRow } from './records.ts'
import { upsertListingAgents, upsertMembers, upsertProperties } from './upsert.ts'

/** RESO_API_URL (service root, e.g. https://api.example-mls.com/reso/odata) and RESO_API_TOKEN (OAuth2 bearer token). */
export const ResoApiEnvSchema = z.object({
  RESO_API_URL: z.url({
    protocol: /^https?$/,
    error: 'RESO_API_URL must be the http(s) URL of the OData service root',
  }),
  RESO_API_TOKEN: z
    .string('RESO_API_TOKEN is required (the bearer token the MLS issued)')
    .trim()
    .min(1, 'RESO_API_TOKEN is required (the bearer token the MLS issued)'),
})
export type ResoApiEnv = z.infer<typeof ResoApiEnvSchema>

/** Reads RESO_API_URL and RESO_API_TOKEN. @throws Error naming each missing or invalid variable. */
export function resoApiConfig(env: Record<string, string | undefined> = process.env): {
  baseUrl: string
  token: string
} {
  const parsed = ResoApiEnvSchema.safeParse(env)
  if (!parsed.success)
    throw new Error(`RESO Web API configuration: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`)
  return { baseUrl: parsed.data.RESO_API_URL, token: parsed.data.RESO_API_TOKEN }
}

export type ResoResource = 'Property' | 'Member'

export interface ResoSyncOptions {
  databaseUrl: string
  /** OData service root; the resource name is appended. */
  baseUrl: string
  token: string
  resource?: ResoResource
  /** Feed name: properties.source and the reso_sync_state key. Default 'reso' (the file importer's default). */
  source?: string
  /** Ask for records modified after this ISO 8601 instant instead of the stored high water (drops a pending page). */
  since?: string
  /** $top per page. Default 200 (a common server maximum; the server may send fewer and page with nextLink). */
  pageSize?: number
  /** Attempts after the first for 429/5xx/network failures. Default 5. */
  maxRetries?: number
  /** First backoff delay in ms, doubled on each retry (Retry-After wins when the server sends it). Default 1000. */
  retryDelayMs?: number
  /** Stop after this many pages, leaving the rest pending for the next run (for bounded runs). */
  maxPages?: number
  /** Months behind the agent metrics refreshed after a Property sync that changed something. Default 24. */
  windowMonths?: number
  skipMetrics?: boolean
  /** HTTP client (tests inject one). Default global fetch. */
  fetch?: typeof fetch
  log?: (line: string) => void
}

export interface ResoSyncSummary {
  resource: ResoResource
  /** True when the run continued an interrupted one from its stored nextLink. */
  resumed: boolean
  /** True when the server has no further page (the high water advanced). */
  complete: boolean
  pages: number
  read: number
  rejected: number
  /** The first 100 rejects: the record's key and the reason naming the RESO field. */
  rejects: Array<{ key: string; reason: string }>
  inserted: number
  updated: number
  unchanged: number
  agentsInserted: number
  agentsUpdated: number
  /** High water after the run (ISO 8601), null when nothing was ever synced. */
  highWater: string | null
  metrics: { windowStart: string | null; windowEnd: string | null; agentsUpdated: number } | null
}

const ODataPageSchema = z.object({
  value: z.array(z.record(z.string(), z.unknown())),
  '@odata.nextLink': z.string().min(1).optional(),
})

/** An HTTP answer the sync cannot get past; `status` is 0 for network failures. */
export class ResoApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
    this.name = 'ResoApiError'
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

/** The first page's URL: `<base>/<Resource>?$filter=ModificationTimestamp gt <since>&$orderby=ModificationTimestamp&$top=<n>`. */
export function firstPageUrl(baseUrl: string, resource: ResoResource, since: string | null, pageSize: number): string {
  const query = [
    ...(since ? [`$filter=${encodeURIComponent(`ModificationTimestamp gt ${odataTimestamp(since)}`)}`] : []),
    '$orderby=ModificationTimestamp',
    `$top=${pageSize}`,
  ]
  return `${baseUrl.replace(/\/+$/, '')}/${resource}?${query.join('&')}`
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Retry-After in ms (seconds or an HTTP date), capped at 60 s; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined
  const seconds = Number(header)
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now()
  return Number.isFinite(ms) ? Math.min(60_000, Math.max(0, ms)) : undefined
}

interface FetchPageOptions {
  token: string
  maxRetries: number
  retryDelayMs: number
  fetch: typeof fetch
  log: (line: string) => void
}

/**
 * GETs one page with retries. @throws ResoApiError for 401/403 (no retry), other 4xx, 429/5xx after the retries,
 * a body that is not JSON or not an OData collection.
 */
export async function fetchODataPage(url: string, options: FetchPageOptions): Promise<z.infer<typeof ODataPageSchema>> {
  for (let attempt = 0; ; attempt += 1) {
    let response: Response
    try {
      response = await options.fetch(url, {
        headers: { Authorization: `Bearer ${options.token}`, Accept: 'application/json' },
      })
    } catch (error) {
      // fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND, a TLS error) in `cause`
      const reason = [(error as Error).message, ((error as Error).cause as Error | undefined)?.message]
        .filter(Boolean)
        .join(': ')
      if (attempt >= options.maxRetries)
        throw new ResoApiError(`RESO Web API ${url} could not be reached after ${attempt + 1} attempts: ${reason}`, 0)
      const delay = options.retryDelayMs * 2 ** attempt
      options.log(`  network error (${reason}); retrying in ${delay} ms`)
      await sleep(delay)
      continue
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel()
      throw new ResoApiError(
        `RESO Web API refused the bearer token (${response.status} ${response.statusText || (response.status === 401 ? 'Unauthorized' : 'Forbidden')}) for ${url}: check RESO_API_TOKEN (it may have expired)`,
        response.status,
      )
    }
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel()
      if (attempt >= options.maxRetries) {
        throw new ResoApiError(
          `RESO Web API ${url} answered ${response.status} ${response.statusText} after ${attempt + 1} attempts`,
          response.status,
        )
      }
      const delay = retryAfterMs(response.headers.get('retry-after')) ?? options.retryDelayMs * 2 ** attempt
      options.log(
        `  ${response.status} ${response.statusText} from the server; retrying in ${delay} ms (attempt ${attempt + 2} of ${options.maxRetries + 1})`,
      )
      await sleep(delay)
      continue
    }
    const text = await response.text()
    if (!response.ok) {
      throw new ResoApiError(
        `RESO Web API ${url} answered ${response.status} ${response.statusText}: ${text.slice(0, 300)}`,
        response.status,
      )
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      throw new ResoApiError(
        `RESO Web API returned invalid JSON from ${url}: ${(error as Error).message} (body starts ${JSON.stringify(text.slice(0, 80))})`,
        response.status,
      )
    }
    const page = ODataPageSchema.safeParse(json)
    if (!page.success) {
      throw new ResoApiError(
        `RESO Web API returned JSON that is not an OData collection from ${url}: expected { "value": [records], "@odata.nextLink"?: url } (${page.error.issues[0]!.path.join('.') || 'body'}: ${page.error.issues[0]!.message})`,
        response.status,
      )
    }
    return page.data
  }
}

interface StateRow {
  high_water: string | null
  run_high_water: string | null
  next_link: string | null
}

const latest = (a: string | null, b: string | null) =>
  a === null ? b : b === null ? a : Date.parse(b) > Date.parse(a) ? b : a

/**
 * Runs one sync (see the module comment). Returns counts like a file import.
 * @throws ResoApiError (see fetchODataPage), or a database error; the state keeps the pending page and last_error.
 */
export async function syncResoWebApi(options: ResoSyncOptions): Promise<ResoSyncSummary> {
  const resource = options.resource ?? 'Property'
  const source = options.source ?? 'reso'
  const log = options.log ?? (() => {})
  const pageSize = options.pageSize ?? 200
  const fetchOptions: FetchPageOptions = {
    token: options.token,
    maxRetries: options.maxRetries ?? 5,
    retryDelayMs: options.retryDelayMs ?? 1000,
    fetch: options.fetch ?? fetch,
    log,
  }
  if (options.since !== undefined) odataTimestamp(options.since)

  const summary: ResoSyncSummary = {
    resource,
    resumed: false,
    complete: false,
    pages: 0,
    read: 0,
    rejected: 0,
    rejects: [],
    inserted: 0,
    updated: 0,
    unchanged: 0,
    agentsInserted: 0,
    agentsUpdated: 0,
    highWater: null,
    metrics: null,
  }
  const client = new pg.Client({ connectionString: options.databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<StateRow>(
      `insert into public.reso_sync_state (source, resource) values ($1, $2)
       on conflict (source, resource) do update set source = excluded.source
       returning to_char(high_water at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as high_water,
                 to_char(run_high_water at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as run_high_water, next_link`,
      [source, resource],
    )
    const state = rows[0]!
    let url: string
    let runHighWater: string | null
    if (options.since !== undefined) {
      url = firstPageUrl(options.baseUrl, resource, options.since, pageSize)
      runHighWater = null
      if (state.next_link)
        log(`Dropping the pending page of an interrupted sync: --since ${options.since} starts over.`)
    } else if (state.next_link) {
      url = state.next_link
      runHighWater = state.run_high_water
      summary.resumed = true
      log(`Resuming an interrupted ${resource} sync at ${url}`)
    } else {
      url = firstPageUrl(options.baseUrl, resource, state.high_water, pageSize)
      runHighWater = null
    }
    summary.highWater = state.high_water
    // a pending page is only recorded once a page has been written (a failure on the first page leaves nothing to resume)
    await client.query(
      `update public.reso_sync_state
       set next_link = case when $3 then next_link end, run_high_water = $4, run_started_at = case when $3 then run_started_at else now() end
       where source = $1 and resource = $2`,
      [source, resource, summary.resumed, runHighWater],
    )

    for (;;) {
      let page: z.infer<typeof ODataPageSchema>
      try {
        page = await fetchODataPage(url, fetchOptions)
      } catch (error) {
        // a server may forget its paging cursor; start over from the high water rather than stop for good
        const stale =
          summary.resumed &&
          summary.pages === 0 &&
          error instanceof ResoApiError &&
          [400, 404, 410].includes(error.status)
        if (!stale) throw error
        log(`The stored page is no longer valid (${error.status}); starting over from the last high water.`)
        url = firstPageUrl(options.baseUrl, resource, state.high_water, pageSize)
        runHighWater = null
        summary.resumed = false
        continue
      }
      summary.pages += 1

      const batch = new Map<string, PropertyRow | MemberRow>()
      for (const record of page.value) {
        summary.read += 1
        const modified =
          typeof record.ModificationTimestamp === 'string' && !Number.isNaN(Date.parse(record.ModificationTimestamp))
            ? record.ModificationTimestamp
            : null
        runHighWater = latest(runHighWater, modified === null ? null : odataTimestamp(modified))
        const result = resource === 'Member' ? toMemberRow(record) : toPropertyRow(record, source)
        if (!result.ok) {
          summary.rejected += 1
          const key = String(record[resource === 'Member' ? 'MemberMlsId' : 'ListingKey'] ?? '(no key)')
          if (summary.rejects.length < 100) summary.rejects.push({ key, reason: result.reason })
          continue
        }
        batch.set('source_record_id' in result.row ? result.row.source_record_id : memberRowKey(result.row), result.row)
      }
      const nextLink = page['@odata.nextLink'] ? new URL(page['@odata.nextLink'], url).toString() : null

      await client.query('begin')
      try {
        const rows = [...batch.values()]
        let written = { inserted: 0, updated: 0 }
        if (resource === 'Member') {
          written = await upsertMembers(client, rows as MemberRow[])
          summary.agentsInserted += written.inserted
          summary.agentsUpdated += written.updated
        } else {
          const agents = await upsertListingAgents(client, rows as PropertyRow[])
          summary.agentsInserted += agents.inserted
          summary.agentsUpdated += agents.updated
          written = await upsertProperties(client, rows as PropertyRow[])
        }
        summary.inserted += written.inserted
        summary.updated += written.updated
        summary.unchanged += rows.length - written.inserted - written.updated
        if (nextLink) {
          await client.query(
            `update public.reso_sync_state set next_link = $3, run_high_water = $4, last_error = null where source = $1 and resource = $2`,
            [source, resource, nextLink, runHighWater],
          )
        } else {
          const done = await client.query<{ high_water: string | null }>(
            `update public.reso_sync_state
             set high_water = greatest(high_water, $3::timestamptz), next_link = null, run_high_water = null, last_error = null,
                 last_completed_at = now(), last_run_records = $4
             where source = $1 and resource = $2
             returning to_char(high_water at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as high_water`,
            [source, resource, runHighWater, summary.read],
          )
          summary.highWater = done.rows[0]!.high_water
        }
        await client.query('commit')
      } catch (error) {
        await client.query('rollback')
        throw error
      }
      log(
        `  page ${summary.pages}: ${page.value.length} records (${summary.read} so far, ${summary.rejected} rejected)`,
      )
      if (!nextLink) {
        summary.complete = true
        break
      }
      url = nextLink
      if (options.maxPages !== undefined && summary.pages >= options.maxPages) {
        log(`Stopping after ${summary.pages} pages (--max-pages); the next run resumes at ${url}`)
        break
      }
    }

    if (resource === 'Property' && !options.skipMetrics && summary.inserted + summary.updated > 0) {
      const { rows } = await client.query<{
        metrics_window_start: string | null
        metrics_window_end: string | null
        agents_updated: number
      }>(
        `select metrics_window_start::text, metrics_window_end::text, agents_updated from public.refresh_agent_metrics($1)`,
        [options.windowMonths ?? 24],
      )
      summary.metrics = {
        windowStart: rows[0]!.metrics_window_start,
        windowEnd: rows[0]!.metrics_window_end,
        agentsUpdated: rows[0]!.agents_updated,
      }
    }
    return summary
  } catch (error) {
    await client
      .query(`update public.reso_sync_state set last_error = left($3, 2000) where source = $1 and resource = $2`, [
        source,
        resource,
        (error as Error).message,
      ])
      .catch(() => {})
    throw error
  } finally {
    await client.end()
  }
}

/** The summary as the CLI prints it. */
export function formatSyncSummary(summary: ResoSyncSummary): string {
  const lines = [
    `RESO Web API ${summary.resource} sync${summary.resumed ? ' (resumed)' : ''}: ${summary.complete ? 'complete' : 'paused, the next run continues'}`,
    `  pages       ${summary.pages}`,
    `  read        ${summary.read}`,
    `  rejected    ${summary.rejected}`,
    ...summary.rejects.slice(0, 10).map((reject) => `              ${reject.key}: ${reject.reason}`),
    `  inserted    ${summary.inserted}`,
    `  updated     ${summary.updated}`,
    `  unchanged   ${summary.unchanged}`,
    `  high water  ${summary.highWater ?? '-'} (ModificationTimestamp)`,
  ]
  if (summary.resource === 'Property')
    lines.push(`  agents      ${summary.agentsInserted} created, ${summary.agentsUpdated} updated`)
  if (summary.metrics)
    lines.push(
      `Agent metrics refreshed for ${summary.metrics.windowStart ?? '-'} to ${summary.metrics.windowEnd ?? '-'}: ${summary.metrics.agentsUpdated} agents changed`,
    )
  return lines.join('\n')
}
