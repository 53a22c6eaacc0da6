/**
 * HTTP for the RESO Web API (OData v4): authenticated GETs with server-driven paging (`Prefer: odata.maxpagesize`,
 * OData v4.0 Part 1 section 8.2.8.3), retries, and errors that name the problem:
 *   - 401: the token is renewed once (client credentials), then the run stops naming the variables to check;
 *   - 403: the token is valid but not allowed to read the resource; the run stops naming RESO_CLIENT_ID/RESO_SCOPE;
 *   - 429: Retry-After (seconds or an HTTP date, RFC 9110 section 10.2.3) is waited out before the next try, up to
 *     `maxRetryAfterMs`; a longer wait stops the run saying when to try again;
 *   - 5xx and network failures: retried with exponential backoff (Retry-After wins when sent);
 *   - a body that is not JSON, or not an OData collection, stops naming the URL.
 * And the service's `$metadata` (CSDL XML), read with fast-xml-parser, to $select only fields the server has.
 */
import { XMLParser } from 'fast-xml-parser'
import { z } from 'zod'
import type { AccessTokenSource } from './reso-auth.ts'

/** An HTTP answer the sync cannot get past; `status` is 0 for network failures. */
export class ResoApiError extends Error {
  override name = 'ResoApiError'
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

export const ODataPageSchema = z.object({
  value: z.array(z.record(z.string(), z.unknown())),
  '@odata.nextLink': z.string().min(1).optional(),
})
export type ODataPage = z.infer<typeof ODataPageSchema>

export interface ResoClientOptions {
  auth: AccessTokenSource
  /** Records per page asked for with `Prefer: odata.maxpagesize` (the server may send fewer). */
  maxPageSize: number
  /** Attempts after the first for 429/5xx/network failures. Default 5. */
  maxRetries?: number
  /** First backoff delay in ms, doubled on each retry (Retry-After wins when the server sends it). Default 1000. */
  retryDelayMs?: number
  /** Longest Retry-After waited out, in ms; a longer one stops the run. Default 300,000 (5 minutes). */
  maxRetryAfterMs?: number
  fetch?: typeof fetch
  sleep?: (ms: number) => Promise<void>
  now?: () => number
  log?: (line: string) => void
}

/** Retry-After in ms from now (delay-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  const trimmed = header.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** The OData error message of a body (`{ "error": { "message": ... } }`), else its first 200 characters. */
function serverMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message
    if (typeof message === 'string') return message.slice(0, 300)
  } catch {
    // not JSON: show the start of the text
  }
  return text.slice(0, 200).replace(/\s+/g, ' ').trim()
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`

/** GETs against one RESO Web API server with the token source's bearer token. */
export class ResoClient {
  private readonly fetch: typeof fetch
  private readonly sleep: (ms: number) => Promise<void>
  private readonly now: () => number
  private readonly log: (line: string) => void
  private readonly maxRetries: number
  private readonly retryDelayMs: number
  private readonly maxRetryAfterMs: number
  /** Requests sent, for the summary. */
  requests = 0

  constructor(private readonly options: ResoClientOptions) {
    this.fetch = options.fetch ?? fetch
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.now = options.now ?? Date.now
    this.log = options.log ?? (() => {})
    this.maxRetries = options.maxRetries ?? 5
    this.retryDelayMs = options.retryDelayMs ?? 1000
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 300_000
  }

  /**
   * GETs `url` and returns the body text. @throws ResoApiError (see the module comment).
   */
  async getText(url: string, accept = 'application/json'): Promise<string> {
    let renewed = false
    for (let attempt = 0; ;) {
      const token = await this.options.auth.token()
      let response: Response
      try {
        this.requests += 1
        response = await this.fetch(url, {
          headers: {
            Authorization: `Bearer ${token}`,
            Accept: accept,
            Prefer: `odata.maxpagesize=${this.options.maxPageSize}`,
          },
        })
      } catch (error) {
        // fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND, a TLS error) in `cause`
        const reason = [(error as Error).message, ((error as Error).cause as Error | undefined)?.message]
          .filter(Boolean)
          .join(': ')
        if (attempt >= this.maxRetries)
          throw new ResoApiError(`RESO Web API ${url} could not be reached after ${attempt + 1} attempts: ${reason}`, 0)
        const delay = this.retryDelayMs * 2 ** attempt
        attempt += 1
        this.log(`  network error (${reason}); retrying in ${seconds(delay)}`)
        await this.sleep(delay)
        continue
      }
      if (response.status === 401) {
        const text = await response.text()
        if (!renewed && this.options.auth.renew()) {
          renewed = true
          this.log('  401 Unauthorized: the token was refused; asking RESO_TOKEN_URL for a new one')
          continue
        }
        throw new ResoApiError(
          `RESO Web API refused the access token (401 Unauthorized) for ${url}: ${this.options.auth.refusedHint}${text ? ` (server: ${serverMessage(text)})` : ''}`,
          401,
        )
      }
      if (response.status === 403) {
        const text = await response.text()
        throw new ResoApiError(
          `RESO Web API forbids this request (403 Forbidden) for ${url}: the token is valid but not allowed to read this resource; ask the MLS to grant it to your RESO_CLIENT_ID (or token), and check RESO_SCOPE${text ? ` (server: ${serverMessage(text)})` : ''}`,
          403,
        )
      }
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel()
        const asked = retryAfterMs(response.headers.get('retry-after'), this.now())
        const what =
          response.status === 429
            ? 'rate limit (429 Too Many Requests)'
            : `${response.status} ${response.statusText || 'server error'}`
        if (asked !== undefined && asked > this.maxRetryAfterMs) {
          throw new ResoApiError(
            `RESO Web API ${what} on ${url}: the server asks to wait ${seconds(asked)} (Retry-After), longer than the ${seconds(this.maxRetryAfterMs)} a run waits; run again after ${new Date(this.now() + asked).toISOString()}`,
            response.status,
          )
        }
        if (attempt >= this.maxRetries) {
          throw new ResoApiError(
            `RESO Web API ${what} on ${url}, still after ${attempt + 1} attempts${response.status === 429 ? ': the server limits how fast this client may ask; run again later or ask the MLS for a higher limit' : ''}`,
            response.status,
          )
        }
        const delay = asked ?? this.retryDelayMs * 2 ** attempt
        attempt += 1
        this.log(
          `  ${what}; waiting ${seconds(delay)}${asked !== undefined ? ' as Retry-After asks' : ''} (attempt ${attempt + 1} of ${this.maxRetries + 1})`,
        )
        await this.sleep(delay)
        continue
      }
      const text = await response.text()
      if (!response.ok) {
        throw new ResoApiError(
          `RESO Web API ${url} answered ${response.status} ${response.statusText}: ${serverMessage(text)}`,
          response.status,
        )
      }
      return text
    }
  }

  /** GETs one page of an OData collection. @throws ResoApiError, also for a body that is not an OData collection. */
  async getPage(url: string): Promise<ODataPage> {
    const text = await this.getText(url)
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      throw new ResoApiError(
        `RESO Web API returned invalid JSON from ${url}: ${(error as Error).message} (body starts ${JSON.stringify(text.slice(0, 80))})`,
        200,
      )
    }
    const page = ODataPageSchema.safeParse(json)
    if (!page.success) {
      throw new ResoApiError(
        `RESO Web API returned JSON that is not an OData collection from ${url}: expected { "value": [records], "@odata.nextLink"?: url } (${page.error.issues[0]!.path.join('.') || 'body'}: ${page.error.issues[0]!.message})`,
        200,
      )
    }
    return page.data
  }
}

/** An entity type of the service's metadata: its structural properties and navigation properties (name -> type). */
export interface EntityTypeMetadata {
  properties: Set<string>
  navigation: Map<string, string>
}

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]

/**
 * The entity types of a CSDL XML document (`$metadata`), by name. Types are matched by their unqualified name
 * (`Property`, `Member`): RESO servers put them in `org.reso.metadata` or their own namespace.
 * @throws Error when the text is not CSDL XML.
 */
export function parseMetadata(xml: string): Map<string, EntityTypeMetadata> {
  type Named = { Name?: string; Type?: string }
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', removeNSPrefix: true })
  const doc = parser.parse(xml) as {
    Edmx?: {
      DataServices?: {
        Schema?: Array<{ EntityType?: Array<Named & { Property?: Named[]; NavigationProperty?: Named[] }> }>
      }
    }
  }
  const schemas = doc.Edmx?.DataServices?.Schema
  if (!schemas) throw new Error('not an OData CSDL document (no edmx:Edmx/edmx:DataServices/Schema)')
  const types = new Map<string, EntityTypeMetadata>()
  for (const schema of asArray(schemas)) {
    for (const type of asArray(schema.EntityType)) {
      if (!type.Name) continue
      types.set(type.Name, {
        properties: new Set(asArray(type.Property).flatMap((p) => (p.Name ? [p.Name] : []))),
        navigation: new Map(asArray(type.NavigationProperty).flatMap((p) => (p.Name ? [[p.Name, p.Type ?? '']] : []))),
      })
    }
  }
  return types
}
