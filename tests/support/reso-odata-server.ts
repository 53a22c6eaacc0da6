/**
 * A RESO Web API server for tests, on node:http at 127.0.0.1 on a free port, behaving as RESO-conformant OData v4
 * servers do where the sync depends on it:
 *   - OAuth2 client credentials at `/oauth2/token` (RFC 6749 section 4.4; client authentication by HTTP Basic or in
 *     the form body), tokens that expire after `tokenLifetime` seconds on the server's clock, static bearer tokens;
 *     401 for a missing, unknown or expired token, 403 for a resource the client may not read;
 *   - `$metadata` (CSDL XML) listing the fields each resource has; `$select` of any other field is a 400, as on a real
 *     server; `$expand` of ListAgent, CoListAgent and BuyerAgent to their Member (by ListAgentKey -> MemberKey ...);
 *   - `$filter` with eq/ne/gt/ge/lt/le, and/or and parentheses; `$orderby`;
 *   - server-driven paging: `Prefer: odata.maxpagesize=n` (cut to `maxPageSize`, answered with Preference-Applied)
 *     and `@odata.nextLink` with a `$skiptoken`; `$top` caps the whole result, as OData says, it is not a page size.
 * Every request is recorded, and `intercept` lets a test answer one itself (a 429 with Retry-After, an outage).
 */
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type ODataRecord = Record<string, unknown>
export type Resource = 'Property' | 'Member'

export interface RecordedRequest {
  method: string
  /** Path after the service root (`Property`, `$metadata`), or `oauth2/token`. */
  path: string
  /** Decoded query parameters. */
  query: Record<string, string>
  authorization: string | undefined
  prefer: string | undefined
  /** The form body of a token request. */
  form?: Record<string, string>
  /** The server clock when the request arrived (ms). */
  at: number
}

export interface InterceptedAnswer {
  status: number
  body: string
  headers?: Record<string, string>
}

export interface ResoTestServerOptions {
  /** Bearer tokens accepted as they are (an MLS-issued static token). */
  staticTokens?: string[]
  /** OAuth2 clients by client_id: secret and the scopes they may ask for (none: any scope). */
  clients?: Record<string, { secret: string; scopes?: string[] }>
  /** Seconds an issued token lives. Default 3600. */
  tokenLifetime?: number
  /** The largest page the server sends (and its page size when the client sends no Prefer). Default 10. */
  maxPageSize?: number
  /** Fields of each resource in $metadata. Default: every field the records of the resource have at start-up. */
  fields?: Partial<Record<Resource, string[]>>
  /** Resources the tokens may not read (403). */
  forbidden?: Resource[]
  /** The server's clock in ms; tests move it forward. Default Date.now. */
  now?: () => number
  records?: Partial<Record<Resource, ODataRecord[]>>
}

export interface ResoTestServer {
  /** Service root, e.g. http://127.0.0.1:41234/odata */
  baseUrl: string
  tokenUrl: string
  records: Record<Resource, ODataRecord[]>
  fields: Record<Resource, Set<string>>
  requests: RecordedRequest[]
  /** Tokens issued by the token endpoint. */
  issued: Array<{ token: string; clientId: string; scope: string | null; expiresAt: number; auth: 'basic' | 'post' }>
  /** Return an answer to short-cut a request, or undefined to serve it normally. */
  intercept?: (request: RecordedRequest) => InterceptedAnswer | undefined
  /** Forget every issued token (as a server restart or a revocation does). */
  revokeTokens(): void
  close(): Promise<void>
}

const keyField: Record<Resource, string> = { Property: 'ListingKey', Member: 'MemberKey' }
const navigations: Record<string, string> = {
  ListAgent: 'ListAgentKey',
  CoListAgent: 'CoListAgentKey',
  BuyerAgent: 'BuyerAgentKey',
}

// ---------------------------------------------------------------------------------------------------------------
// $filter: a small OData expression parser (comparisons, and/or, parentheses)
// ---------------------------------------------------------------------------------------------------------------

type Token = { kind: 'ident' | 'string' | 'literal' | 'open' | 'close'; value: string }
type Expression =
  | { op: 'and' | 'or'; left: Expression; right: Expression }
  | { op: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le'; field: string; value: string; quoted: boolean }

class FilterError extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === ' ') {
      i += 1
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c === '(' ? 'open' : 'close', value: c })
      i += 1
    } else if (c === "'") {
      let value = ''
      i += 1
      for (;;) {
        if (i >= text.length) throw new FilterError('unterminated string literal')
        if (text[i] === "'" && text[i + 1] === "'") {
          value += "'"
          i += 2
        } else if (text[i] === "'") {
          i += 1
          break
        } else value += text[i++]
      }
      tokens.push({ kind: 'string', value })
    } else {
      const match = /^[^\s()']+/.exec(text.slice(i))!
      tokens.push({ kind: /^[A-Za-z_]\w*$/.test(match[0]) ? 'ident' : 'literal', value: match[0] })
      i += match[0].length
    }
  }
  return tokens
}

function parseFilter(text: string): Expression {
  const tokens = tokenize(text)
  let position = 0
  const peek = () => tokens[position]
  const primary = (): Expression => {
    const token = tokens[position++]
    if (!token) throw new FilterError('unexpected end of $filter')
    if (token.kind === 'open') {
      const inner = or()
      if (tokens[position++]?.kind !== 'close') throw new FilterError('missing )')
      return inner
    }
    if (token.kind !== 'ident') throw new FilterError(`unexpected ${token.value}`)
    const op = tokens[position++]
    const value = tokens[position++]
    if (
      !op ||
      !['eq', 'ne', 'gt', 'ge', 'lt', 'le'].includes(op.value) ||
      !value ||
      (value.kind !== 'string' && value.kind !== 'literal')
    )
      throw new FilterError(`unsupported comparison after ${token.value}`)
    return { op: op.value as 'eq', field: token.value, value: value.value, quoted: value.kind === 'string' }
  }
  const and = (): Expression => {
    let left = primary()
    while (peek()?.value === 'and') {
      position += 1
      left = { op: 'and', left, right: primary() }
    }
    return left
  }
  const or = (): Expression => {
    let left = and()
    while (peek()?.value === 'or') {
      position += 1
      left = { op: 'or', left, right: and() }
    }
    return left
  }
  const expression = or()
  if (position !== tokens.length) throw new FilterError(`unexpected ${tokens[position]!.value}`)
  return expression
}

function evaluate(expression: Expression, record: ODataRecord): boolean {
  if ('left' in expression)
    return expression.op === 'and'
      ? evaluate(expression.left, record) && evaluate(expression.right, record)
      : evaluate(expression.left, record) || evaluate(expression.right, record)
  const stored = record[expression.field]
  if (stored === undefined || stored === null) return false
  let a: number | string
  let b: number | string
  if (!expression.quoted && /^\d{4}-\d{2}-\d{2}T/.test(expression.value)) {
    a = Date.parse(String(stored))
    b = Date.parse(expression.value)
  } else if (!expression.quoted && /^-?\d+(\.\d+)?$/.test(expression.value)) {
    a = Number(stored)
    b = Number(expression.value)
  } else {
    a = String(stored)
    b = expression.value
  }
  switch (expression.op) {
    case 'eq':
      return a === b
    case 'ne':
      return a !== b
    case 'gt':
      return a > b
    case 'ge':
      return a >= b
    case 'lt':
      return a < b
    case 'le':
      return a <= b
  }
}

/** Splits on commas outside parentheses: `A($select=x,y),B` -> [`A($select=x,y)`, `B`]. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let current = ''
  for (const c of text) {
    if (c === ',' && depth === 0) {
      parts.push(current)
      current = ''
      continue
    }
    if (c === '(') depth += 1
    if (c === ')') depth -= 1
    current += c
  }
  if (current) parts.push(current)
  return parts.map((part) => part.trim()).filter(Boolean)
}

function metadataXml(fields: Record<Resource, Set<string>>): string {
  const property = (name: string) =>
    `<Property Name="${name}" Type="${name === 'ModificationTimestamp' ? 'Edm.DateTimeOffset' : 'Edm.String'}"/>`
  const navigation = Object.keys(navigations)
    .map((name) => `<NavigationProperty Name="${name}" Type="org.reso.metadata.Member"/>`)
    .join('')
  return `<?xml version="1.0" encoding="UTF-8"?>
<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
  <edmx:DataServices>
    <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="org.reso.metadata">
      <EntityType Name="Property"><Key><PropertyRef Name="ListingKey"/></Key>${[...fields.Property].map(property).join('')}${navigation}</EntityType>
      <EntityType Name="Member"><Key><PropertyRef Name="MemberKey"/></Key>${[...fields.Member].map(property).join('')}</EntityType>
      <EntityContainer Name="Default"><EntitySet Name="Property" EntityType="org.reso.metadata.Property"/><EntitySet Name="Member" EntityType="org.reso.metadata.Member"/></EntityContainer>
    </Schema>
  </edmx:DataServices>
</edmx:Edmx>`
}

/** Starts the server. */
export async function startResoServer(options: ResoTestServerOptions = {}): Promise<ResoTestServer> {
  const now = options.now ?? Date.now
  const maxPageSize = options.maxPageSize ?? 10
  const records: Record<Resource, ODataRecord[]> = {
    Property: options.records?.Property ?? [],
    Member: options.records?.Member ?? [],
  }
  const fieldsOf = (resource: Resource) =>
    new Set(
      options.fields?.[resource] ?? [
        keyField[resource],
        'ModificationTimestamp',
        ...records[resource].flatMap(Object.keys),
      ],
    )
  const state: ResoTestServer = {
    baseUrl: '',
    tokenUrl: '',
    records,
    fields: { Property: fieldsOf('Property'), Member: fieldsOf('Member') },
    requests: [],
    issued: [],
    revokeTokens: () => {
      state.issued.length = 0
    },
    close: async () => {},
  }
  const staticTokens = new Set(options.staticTokens ?? [])

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname.replace(/^\/(odata\/)?/, ''),
        query: Object.fromEntries(url.searchParams.entries()),
        authorization: req.headers.authorization,
        prefer: typeof req.headers.prefer === 'string' ? req.headers.prefer : undefined,
        at: now(),
      }
      const body = Buffer.concat(chunks).toString('utf8')
      if (recorded.path === 'oauth2/token') recorded.form = Object.fromEntries(new URLSearchParams(body).entries())
      state.requests.push(recorded)
      const send = (status: number, payload: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers })
        res.end(payload)
      }
      const error = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
        send(status, JSON.stringify({ error: { code, message } }), headers)
      const intercepted = state.intercept?.(recorded)
      if (intercepted) return send(intercepted.status, intercepted.body, intercepted.headers)

      if (recorded.path === 'oauth2/token') {
        if (req.method !== 'POST') return error(405, 'method_not_allowed', 'POST only')
        const form = recorded.form!
        let clientId = form.client_id
        let secret = form.client_secret
        let auth: 'basic' | 'post' = 'post'
        const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')
        if (basic) {
          // RFC 6749 section 2.3.1: id and secret are form-urlencoded before Basic encoding
          const [id, pass] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')
          clientId = decodeURIComponent((id ?? '').replace(/\+/g, ' '))
          secret = decodeURIComponent((pass ?? '').replace(/\+/g, ' '))
          auth = 'basic'
        }
        const oauthError = (status: number, code: string, description: string) =>
          send(status, JSON.stringify({ error: code, error_description: description }), {
            'cache-control': 'no-store',
            ...(status === 401 ? { 'www-authenticate': 'Basic realm="token"' } : {}),
          })
        if (form.grant_type !== 'client_credentials')
          return oauthError(400, 'unsupported_grant_type', 'only client_credentials')
        const client = clientId ? options.clients?.[clientId] : undefined
        if (!client || client.secret !== secret)
          return oauthError(401, 'invalid_client', 'unknown client or wrong secret')
        const scope = form.scope ?? null
        if (scope && client.scopes && !scope.split(' ').every((s) => client.scopes!.includes(s)))
          return oauthError(400, 'invalid_scope', `scope ${scope} is not granted to ${clientId}`)
        const lifetime = options.tokenLifetime ?? 3600
        const token = randomBytes(16).toString('hex')
        state.issued.push({ token, clientId: clientId!, scope, expiresAt: now() + lifetime * 1000, auth })
        return send(
          200,
          JSON.stringify({
            access_token: token,
            token_type: 'Bearer',
            expires_in: lifetime,
            ...(scope ? { scope } : {}),
          }),
          { 'cache-control': 'no-store' },
        )
      }

      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
      const issued = bearer ? state.issued.find((entry) => entry.token === bearer) : undefined
      if (!bearer || (!staticTokens.has(bearer) && (!issued || issued.expiresAt <= now()))) {
        return error(401, '401', issued ? 'The access token expired' : 'Invalid or missing bearer token', {
          'www-authenticate': 'Bearer error="invalid_token"',
        })
      }
      if (recorded.path === '$metadata') {
        res.writeHead(200, { 'content-type': 'application/xml' })
        return res.end(metadataXml(state.fields))
      }
      const resource = recorded.path as Resource
      if (resource !== 'Property' && resource !== 'Member') return error(404, '404', `No resource ${recorded.path}`)
      if (options.forbidden?.includes(resource)) return error(403, '403', `This client may not read ${resource}`)
      const query = recorded.query

      let selected = [...records[resource]]
      if (query.$filter) {
        try {
          const expression = parseFilter(query.$filter)
          selected = selected.filter((record) => evaluate(expression, record))
        } catch (problem) {
          return error(400, '400', `Invalid $filter: ${(problem as Error).message}`)
        }
      }
      const order = (query.$orderby ?? keyField[resource]).split(',').map((part) => part.trim().split(/\s+/))
      for (const [field] of order)
        if (!state.fields[resource].has(field!))
          return error(400, '400', `Could not find a property named '${field}' on type ${resource}`)
      selected.sort((a, b) => {
        for (const [field, direction] of order) {
          const x = field === 'ModificationTimestamp' ? Date.parse(String(a[field])) : String(a[field!] ?? '')
          const y = field === 'ModificationTimestamp' ? Date.parse(String(b[field])) : String(b[field!] ?? '')
          if (x !== y) return (x < y ? -1 : 1) * (direction === 'desc' ? -1 : 1)
        }
        // the server's own order inside equal sort values: by key, as most servers use their primary key
        return String(a[keyField[resource]]).localeCompare(String(b[keyField[resource]]))
      })
      if (query.$top !== undefined) selected = selected.slice(0, Number(query.$top))

      const select = query.$select?.split(',').map((field) => field.trim())
      for (const field of select ?? [])
        if (!state.fields[resource].has(field))
          return error(400, '400', `Could not find a property named '${field}' on type ${resource}`)
      const expand = query.$expand ? splitTopLevel(query.$expand) : []
      const expansions: Array<{ name: string; select: string[] | null }> = []
      for (const entry of expand) {
        const match = /^(\w+)(?:\(\$select=([^)]*)\))?$/.exec(entry)
        if (!match || resource !== 'Property' || !navigations[match[1]!])
          return error(400, '400', `Could not find a navigation property named '${entry}' on type ${resource}`)
        const memberSelect = match[2]?.split(',').map((field) => field.trim()) ?? null
        for (const field of memberSelect ?? [])
          if (!state.fields.Member.has(field))
            return error(400, '400', `Could not find a property named '${field}' on type Member`)
        expansions.push({ name: match[1]!, select: memberSelect })
      }

      const preferred = /odata\.maxpagesize=(\d+)/.exec(recorded.prefer ?? '')?.[1]
      const pageSize = Math.min(preferred ? Number(preferred) : maxPageSize, maxPageSize)
      const offset = query.$skiptoken ? Number(Buffer.from(query.$skiptoken, 'base64url').toString()) : 0
      const project = (record: ODataRecord, fields: string[] | null) =>
        fields
          ? Object.fromEntries(fields.filter((field) => field in record).map((field) => [field, record[field]]))
          : { ...record }
      const page = selected.slice(offset, offset + pageSize).map((record) => {
        const out = project(record, select ?? null)
        for (const { name, select: memberSelect } of expansions) {
          const key = record[navigations[name]!]
          const member = key === undefined ? undefined : records.Member.find((m) => m.MemberKey === key)
          out[name] = member ? project(member, memberSelect) : null
        }
        return out
      })
      const answer: Record<string, unknown> = {
        '@odata.context': `${state.baseUrl}/$metadata#${resource}`,
        value: page,
      }
      if (offset + pageSize < selected.length) {
        const next = new URL(`${state.baseUrl}/${resource}`)
        for (const [name, value] of Object.entries(query)) if (name !== '$skiptoken') next.searchParams.set(name, value)
        next.searchParams.set('$skiptoken', Buffer.from(String(offset + pageSize)).toString('base64url'))
        answer['@odata.nextLink'] = next.toString()
      }
      send(200, JSON.stringify(answer), preferred ? { 'preference-applied': `odata.maxpagesize=${pageSize}` } : {})
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  state.baseUrl = `${origin}/odata`
  state.tokenUrl = `${origin}/oauth2/token`
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return state
}
