/**
 * The RESO Web API sync against a local server that behaves as RESO servers do (tests/support/reso-odata-server.ts):
 * paging by `Prefer: odata.maxpagesize` and @odata.nextLink where `$top` is a cap, `$select` of the fields the server
 * has and `$expand` of the listing agents, equal ModificationTimestamps across a page and run boundary, the file
 * importer's safety (import_runs, rejects file, reject-rate rule, all or nothing), rejected keys retried, OAuth2 client
 * credentials with renewal before expiry, and 401/403/429 answers. Rows use a per-run source and key prefix; afterAll
 * removes them. Metrics are not refreshed here (skipMetrics) so that parallel test files' agent figures are left alone.
 */
import { parse } from 'csv-parse/sync'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { clientCredentialsToken, staticToken } from '../../scripts/lib/import/reso-auth.ts'
import {
  fieldsRead,
  ResoSyncRejectedError,
  syncResoWebApi,
  type ResoSyncOptions,
} from '../../scripts/lib/import/reso-web-api.ts'
import { sql, testEnv } from '../support/env.ts'
import { rootDir } from '../support/test-stack.ts'
import { startResoServer, type ODataRecord, type ResoTestServer } from '../support/reso-odata-server.ts'

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const token = `token-${run}`
const clientId = `client-${run}`
const clientSecret = `secret ${run}:&=` // characters that Basic authentication must form-encode
const clock = { offset: 0, now: () => Date.now() + clock.offset }
/** The server has most Data Dictionary fields we read, not all, and some we do not read. */
const serverFields = {
  Property: [
    ...fieldsRead.Property.filter((field) => !/^CoBuyer|^UnitNumber$|^Latitude$|^Longitude$/.test(field)),
    'PublicRemarks',
    'PrivateRemarks',
  ],
  Member: [...fieldsRead.Member.filter((field) => field !== 'MemberOfficeName'), 'MemberBio'],
}
let server: ResoTestServer
let dir: string
let counter = 0
const sleeps: number[] = []

/** A closed sale modified at 2025-03-01 plus `minutes`, listed by one of this run's two Members (by Key). */
function listing(minutes: number, extra: ODataRecord = {}): ODataRecord {
  counter += 1
  const key = `${run}-${String(counter).padStart(4, '0')}`
  return {
    ListingKey: key,
    ListingId: `MLS${counter}`,
    StandardStatus: 'Closed',
    ListPrice: 400000 + counter * 1000,
    ClosePrice: 405000 + counter * 1000,
    CloseDate: '2025-02-15',
    ListingContractDate: '2025-01-10',
    DaysOnMarket: 12,
    StreetNumber: String(counter),
    StreetName: 'OData Way',
    City: 'Fixture City',
    StateOrProvince: 'CO',
    PostalCode: '00802',
    ListAgentKey: `MK-${run}-${counter % 2}`,
    // RESO's generated data puts placeholders here: never an agent's name
    ListAgentFullName: `Sample ListAgentFullName ${counter}`,
    PublicRemarks: 'Sunny corner unit.',
    ModificationTimestamp: new Date(Date.UTC(2025, 2, 1, 0, minutes)).toISOString(),
    ...extra,
  }
}

const members: ODataRecord[] = [0, 1].map((i) => ({
  MemberKey: `MK-${run}-${i}`,
  MemberMlsId: i === 0 ? `M-${run}-0` : undefined, // a Member keyed by MemberKey alone is valid
  MemberFullName: `Keyed Agent ${i}`,
  OfficeName: 'OData Realty',
  MemberBio: 'Twenty years in Fixture City.',
  ModificationTimestamp: '2025-01-01T00:00:00Z',
}))

function options(source: string, extra: Partial<ResoSyncOptions> = {}): ResoSyncOptions {
  return {
    databaseUrl: testEnv.databaseUrl,
    baseUrl: server.baseUrl,
    auth: staticToken(token),
    source,
    pageSize: 10,
    retryDelayMs: 1,
    maxRetries: 2,
    skipMetrics: true,
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    rejectsFile: path.join(dir, `${source}.rejects.csv`),
    ...extra,
  }
}

const stored = async (source: string) =>
  (await sql<{ n: number }>(`select count(*)::int as n from public.properties where source = $1`, [source]))[0]!.n
const state = async (source: string, resource = 'Property') =>
  (
    await sql<{
      high_water: string | null
      high_water_keys: string[]
      rejected_keys: string[]
      last_error: string | null
    }>(
      `select to_char(high_water at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as high_water, high_water_keys,
              rejected_keys, last_error
       from public.reso_sync_state where source = $1 and resource = $2`,
      [source, resource],
    )
  )[0]
const runs = (source: string) =>
  sql<Record<string, unknown>>(
    `select status, origin, file_name, file_sha256, rows_read, rows_inserted, rows_rejected, rejects_file, error
     from public.import_runs where source = $1 order by id`,
    [source],
  )
const dataRequests = (resource = 'Property') => server.requests.filter((request) => request.path === resource)

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reso-web-api-'))
  server = await startResoServer({
    staticTokens: [token],
    clients: { [clientId]: { secret: clientSecret, scopes: ['api'] } },
    maxPageSize: 10,
    fields: serverFields,
    now: clock.now,
    records: { Member: members },
  })
})

beforeEach(() => {
  server.requests.length = 0
  server.intercept = undefined
  sleeps.length = 0
  clock.offset = 0
})

afterAll(async () => {
  await server.close()
  await sql(`delete from public.properties where source like $1`, [`api-${run}%`])
  await sql(`delete from public.agents where member_key like $1 or mls_id like $1`, [`%${run}%`])
  await sql(`delete from public.reso_sync_state where source like $1`, [`api-${run}%`])
  await sql(`delete from public.import_runs where source like $1`, [`api-${run}%`])
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('paging as RESO servers page', () => {
  const source = `api-${run}-paging`

  it('asks for pages with Prefer: odata.maxpagesize and follows @odata.nextLink; $top, a cap on the whole result, is never sent', async () => {
    server.records.Property = Array.from({ length: 25 }, (_, i) => listing(i))
    // the client asks for 50 a page; this server sends at most 10
    const summary = await syncResoWebApi(options(source, { pageSize: 50 }))
    expect(summary).toMatchObject({ complete: true, pages: 3, read: 25, rejected: 0, inserted: 25, updated: 0 })
    const pages = dataRequests()
    expect(pages).toHaveLength(3)
    expect(pages.map((request) => request.prefer)).toEqual(Array(3).fill('odata.maxpagesize=50'))
    expect(pages.map((request) => request.query.$top)).toEqual([undefined, undefined, undefined])
    expect(pages[0]!.query.$orderby).toBe('ModificationTimestamp asc')
    expect(pages[0]!.query.$filter).toBeUndefined()
    expect(await stored(source)).toBe(25)
    expect(await state(source)).toMatchObject({ high_water: '2025-03-01T00:24:00Z', rejected_keys: [] })
    expect(await runs(source)).toEqual([
      {
        status: 'succeeded',
        origin: 'reso_web_api',
        file_name: `${server.baseUrl}/Property`,
        file_sha256: null,
        rows_read: 25,
        rows_inserted: 25,
        rows_rejected: 0,
        rejects_file: null,
        error: null,
      },
    ])
  })

  it('$selects only the fields it reads that the server has, and $expands the listing agents as Members linked by Key', async () => {
    const summary = await syncResoWebApi(options(source, { since: '2025-03-01T00:20:00Z' }))
    expect(summary).toMatchObject({ read: 5, inserted: 0, unchanged: 5, expandedMembers: 5, agentsInserted: 0 })
    const [page] = dataRequests()
    const selected = page!.query.$select!.split(',')
    expect(selected).toEqual(fieldsRead.Property.filter((field) => serverFields.Property.includes(field)))
    expect(selected).not.toContain('PublicRemarks')
    expect(selected).not.toContain('CoBuyerAgentKey')
    const memberSelect = fieldsRead.Member.filter((field) => serverFields.Member.includes(field)).join(',')
    expect(page!.query.$expand).toBe(
      ['ListAgent', 'CoListAgent', 'BuyerAgent'].map((name) => `${name}($select=${memberSelect})`).join(','),
    )
    expect(page!.query.$filter).toBe('ModificationTimestamp ge 2025-03-01T00:20:00.000Z')
    // the first sync created both Members from the expansion; every listing is linked by ListAgentKey
    expect(
      await sql(
        `select a.member_key, a.mls_id, a.name, a.brokerage, count(p.id)::int as listings
         from public.agents a join public.properties p on p.agent_id = a.id
         where p.source = $1 group by a.id order by a.member_key`,
        [source],
      ),
    ).toEqual([
      {
        member_key: `MK-${run}-0`,
        mls_id: `M-${run}-0`,
        name: 'Keyed Agent 0',
        brokerage: 'OData Realty',
        listings: 12,
      },
      { member_key: `MK-${run}-1`, mls_id: null, name: 'Keyed Agent 1', brokerage: 'OData Realty', listings: 13 },
    ])
    expect(await sql(`select 1 from public.agents where name like 'Sample ListAgentFullName%'`)).toEqual([])
  })
})

describe('equal ModificationTimestamps across a page and run boundary', () => {
  const source = `api-${run}-ties`

  it('resumes with ge on the high water and leaves out the keys already applied at it: none lost, none twice', async () => {
    const tie = 100
    // 8 records a minute apart, then 6 sharing one instant: pages of 5 split the tie after its second record
    server.records.Property = [
      ...Array.from({ length: 8 }, (_, i) => listing(90 + i)),
      ...Array.from({ length: 6 }, () => listing(tie)),
    ]
    const tied = server.records.Property.slice(8).map((record) => record.ListingKey as string)
    const first = await syncResoWebApi(options(source, { pageSize: 5, maxPages: 2 }))
    expect(first).toMatchObject({ complete: false, pages: 2, read: 10, inserted: 10 })
    expect(await state(source)).toMatchObject({
      high_water: '2025-03-01T01:40:00Z',
      high_water_keys: tied.slice(0, 2),
    })

    // one more record at the same instant, written after the first run read that page
    server.records.Property.push(listing(tie))
    server.requests.length = 0
    const second = await syncResoWebApi(options(source, { pageSize: 5 }))
    expect(dataRequests()[0]!.query.$filter).toBe('ModificationTimestamp ge 2025-03-01T01:40:00.000Z')
    expect(second).toMatchObject({ complete: true, alreadyApplied: 2, read: 5, inserted: 5, updated: 0 })
    expect(await stored(source)).toBe(15)
    expect((await state(source))!.high_water_keys.sort()).toEqual(
      [...tied, server.records.Property.at(-1)!.ListingKey].sort(),
    )

    const third = await syncResoWebApi(options(source, { pageSize: 5 }))
    expect(third).toMatchObject({ complete: true, alreadyApplied: 7, read: 0, inserted: 0 })
  })
})

describe('the file importer’s safety', () => {
  it('a run with more rejects than the limit changes nothing and is recorded as rejected, with its rejects file', async () => {
    const source = `api-${run}-rejected`
    server.records.Property = [
      ...Array.from({ length: 8 }, (_, i) => listing(300 + i)),
      listing(310, { PostalCode: '2176' }),
      listing(311, { ClosePrice: 7e11 }),
    ]
    const bad = server.records.Property.slice(8).map((record) => record.ListingKey)
    const attempt = syncResoWebApi(options(source))
    await expect(attempt).rejects.toThrow(ResoSyncRejectedError)
    await expect(attempt).rejects.toThrow(
      `2 of 10 records were rejected (20.0 %, over the 5.0 % allowed by --max-reject-rate; see ${path.join(dir, `${source}.rejects.csv`)}); nothing was imported`,
    )
    expect(await stored(source)).toBe(0)
    expect(await runs(source)).toMatchObject([
      {
        status: 'rejected',
        origin: 'reso_web_api',
        rows_read: 10,
        rows_inserted: 0,
        rows_rejected: 2,
        rejects_file: path.join(dir, `${source}.rejects.csv`),
      },
    ])
    expect(await state(source)).toMatchObject({ high_water: null, rejected_keys: [] })
    expect((await state(source))!.last_error).toMatch(/^2 of 10 records were rejected/)
    const rejects = parse(fs.readFileSync(path.join(dir, `${source}.rejects.csv`), 'utf8')) as string[][]
    expect(rejects[0]).toEqual(['key', 'reason', 'ModificationTimestamp', 'record'])
    expect(rejects.slice(1).map((columns) => columns.slice(0, 3))).toEqual([
      [bad[0], 'PostalCode: unknown ZIP format (expected 12345 or 12345-6789)', '2025-03-01T05:10:00.000Z'],
      [bad[1], 'ClosePrice: is above the plausible maximum of $500,000,000', '2025-03-01T05:11:00.000Z'],
    ])
    expect(JSON.parse(rejects[1]![3]!)).toMatchObject({ ListingKey: bad[0], PostalCode: '2176' })
  })

  it('keeps rejected keys and asks for them again on later runs, after the high water has passed them', async () => {
    const source = `api-${run}-retry`
    server.records.Property = [
      ...Array.from({ length: 20 }, (_, i) => listing(400 + i)),
      listing(405, { PostalCode: '2176' }),
      ...Array.from({ length: 20 }, (_, i) => listing(420 + i)),
      listing(406, { DaysOnMarket: 42687 }),
    ]
    const [fixable, stuck] = [server.records.Property[20]!, server.records.Property[41]!]
    const first = await syncResoWebApi(options(source))
    expect(first).toMatchObject({ read: 42, rejected: 2, inserted: 40 })
    expect((await state(source))!.rejected_keys.sort()).toEqual([fixable.ListingKey, stuck.ListingKey].sort())

    // the MLS corrects one record without a new ModificationTimestamp (or our rules change): only a retry finds it
    fixable.PostalCode = '02176'
    server.requests.length = 0
    const second = await syncResoWebApi(options(source))
    expect(second).toMatchObject({
      read: 0,
      alreadyApplied: 1,
      rejected: 0,
      retried: { asked: 2, fixed: 1, stillRejected: 1, gone: 0 },
      inserted: 1,
    })
    const retry = dataRequests().find((request) => request.query.$filter?.includes('ListingKey eq'))
    expect(retry!.query.$filter).toMatch(/^ListingKey eq '[^']+' or ListingKey eq '[^']+'$/)
    expect(await stored(source)).toBe(41)
    expect((await state(source))!.rejected_keys).toEqual([stuck.ListingKey])

    // a record the server no longer has is forgotten
    server.records.Property = server.records.Property.filter((record) => record !== stuck)
    const third = await syncResoWebApi(options(source))
    expect(third).toMatchObject({ retried: { asked: 1, fixed: 0, stillRejected: 0, gone: 1 } })
    expect((await state(source))!.rejected_keys).toEqual([])
  })
})

describe('OAuth2 client credentials', () => {
  const oauth = (
    extra: { scope?: string; secret?: string; method?: 'client_secret_basic' | 'client_secret_post' } = {},
  ) =>
    clientCredentialsToken(
      {
        kind: 'client_credentials',
        tokenUrl: server.tokenUrl,
        clientId,
        clientSecret: extra.secret ?? clientSecret,
        scope: extra.scope ?? 'api',
        method: extra.method ?? 'client_secret_basic',
      },
      { now: clock.now, sleep: async () => {} },
    )

  it('gets a token from the token endpoint and renews it before it expires', async () => {
    server.records.Property = Array.from({ length: 25 }, (_, i) => listing(500 + i))
    let pages = 0
    server.intercept = (request) => {
      // the first page takes 59 minutes 30 seconds: the hour-long token has 30 seconds left
      if (request.path === 'Property' && ++pages === 1) clock.offset += 3_570_000
      return undefined
    }
    const summary = await syncResoWebApi(options(`api-${run}-oauth`, { auth: oauth() }))
    expect(summary).toMatchObject({ complete: true, read: 25, inserted: 25 })
    expect(server.requests.map((request) => request.path)).toEqual([
      'oauth2/token',
      '$metadata',
      'Property',
      'oauth2/token',
      'Property',
      'Property',
    ])
    const tokenRequests = server.requests.filter((request) => request.path === 'oauth2/token')
    expect(tokenRequests.map((request) => request.form)).toEqual(
      Array(2).fill({ grant_type: 'client_credentials', scope: 'api' }),
    )
    expect(server.issued.slice(-2).map((entry) => [entry.clientId, entry.auth, entry.scope])).toEqual(
      Array(2).fill([clientId, 'basic', 'api']),
    )
    const [first, second] = server.issued.slice(-2).map((entry) => `Bearer ${entry.token}`)
    expect(dataRequests().map((request) => request.authorization)).toEqual([first, second, second])
  })

  it('asks for a new token once when the server refuses one, and can send the credentials in the form body', async () => {
    server.records.Property = Array.from({ length: 5 }, (_, i) => listing(600 + i))
    const auth = oauth({ method: 'client_secret_post' })
    let revoked = false
    server.intercept = (request) => {
      if (request.path === 'Property' && !revoked) {
        revoked = true
        server.revokeTokens()
      }
      return undefined
    }
    const summary = await syncResoWebApi(options(`api-${run}-oauth-401`, { auth }))
    expect(summary).toMatchObject({ complete: true, read: 5, inserted: 5 })
    expect(server.requests.map((request) => request.path)).toEqual([
      'oauth2/token',
      '$metadata',
      'Property',
      'oauth2/token',
      'Property',
    ])
    expect(server.requests[0]!.form).toEqual({
      grant_type: 'client_credentials',
      scope: 'api',
      client_id: clientId,
      client_secret: clientSecret,
    })
    expect(server.requests[0]!.authorization).toBeUndefined()
  })

  it('names the variables to check when the token endpoint refuses the client or the scope', async () => {
    await expect(
      syncResoWebApi(options(`api-${run}-bad-secret`, { auth: oauth({ secret: 'wrong' }) })),
    ).rejects.toThrow(
      `RESO_TOKEN_URL ${server.tokenUrl} refused the client credentials (401 invalid_client: unknown client or wrong secret): check RESO_CLIENT_ID and RESO_CLIENT_SECRET`,
    )
    await expect(syncResoWebApi(options(`api-${run}-bad-scope`, { auth: oauth({ scope: 'admin' }) }))).rejects.toThrow(
      `RESO_TOKEN_URL ${server.tokenUrl} refused the client credentials (400 invalid_scope: scope admin is not granted to ${clientId}): check RESO_SCOPE (the scope the MLS granted this client)`,
    )
    expect(await runs(`api-${run}-bad-secret`)).toMatchObject([{ status: 'failed', rows_read: 0 }])
  })
})

describe('401, 403 and 429', () => {
  it('401 with a static token: stops at once naming RESO_API_TOKEN', async () => {
    await expect(syncResoWebApi(options(`api-${run}-401`, { auth: staticToken('wrong') }))).rejects.toThrow(
      `RESO Web API refused the access token (401 Unauthorized) for ${server.baseUrl}/$metadata: check RESO_API_TOKEN (it may have expired or been revoked; the MLS issues a new one) (server: Invalid or missing bearer token)`,
    )
    expect(server.requests).toHaveLength(1)
  })

  it('403: names the resource problem rather than the token', async () => {
    server.intercept = (request) =>
      request.path === 'Property'
        ? { status: 403, body: JSON.stringify({ error: { code: '403', message: 'Not licensed for Property' } }) }
        : undefined
    await expect(syncResoWebApi(options(`api-${run}-403`))).rejects.toThrow(
      /^RESO Web API forbids this request \(403 Forbidden\) for http:\S+\/Property\?\S+: the token is valid but not allowed to read this resource; ask the MLS to grant it to your RESO_CLIENT_ID \(or token\), and check RESO_SCOPE \(server: Not licensed for Property\)$/,
    )
  })

  it('429: waits as long as Retry-After asks before trying again, and backs off on 5xx', async () => {
    const source = `api-${run}-429`
    server.records.Property = Array.from({ length: 5 }, (_, i) => listing(700 + i))
    let calls = 0
    server.intercept = (request) => {
      if (request.path !== 'Property') return undefined
      calls += 1
      if (calls === 1) return { status: 429, body: '{}', headers: { 'retry-after': '7' } }
      if (calls === 2) return { status: 503, body: 'down for maintenance' }
      return undefined
    }
    const summary = await syncResoWebApi(options(source))
    expect(summary).toMatchObject({ complete: true, read: 5, inserted: 5 })
    expect(sleeps).toEqual([7000, 2])
    expect(dataRequests()).toHaveLength(3)
  })

  it('429 with a Retry-After longer than a run waits: stops saying when to run again; nothing changed', async () => {
    const source = `api-${run}-429-long`
    server.records.Property = Array.from({ length: 5 }, (_, i) => listing(800 + i))
    server.intercept = (request) =>
      request.path === 'Property' ? { status: 429, body: '{}', headers: { 'retry-after': '3600' } } : undefined
    await expect(syncResoWebApi(options(source))).rejects.toThrow(
      /^RESO Web API rate limit \(429 Too Many Requests\) on \S+: the server asks to wait 3600 s \(Retry-After\), longer than the 300 s a run waits; run again after \d{4}-\d\d-\d\dT[\d:.]+Z$/,
    )
    expect(sleeps).toEqual([])
    expect(await stored(source)).toBe(0)
    expect(await runs(source)).toMatchObject([{ status: 'failed', rows_inserted: 0 }])
  })

  it('names the URL when the body is not JSON, or not an OData collection', async () => {
    server.intercept = (request) =>
      request.path === 'Property' ? { status: 200, body: '<html>login</html>' } : undefined
    await expect(syncResoWebApi(options(`api-${run}-json`))).rejects.toThrow(
      /returned invalid JSON from http:\/\/127\.0\.0\.1:\d+\/odata\/Property\?/,
    )
    server.intercept = (request) => (request.path === 'Property' ? { status: 200, body: '{"items": []}' } : undefined)
    await expect(syncResoWebApi(options(`api-${run}-json`))).rejects.toThrow(/not an OData collection.*value/)
  })
})

describe('Member resource', () => {
  it('syncs Members keyed by MemberKey, or by MemberMlsId where a feed has no keys', async () => {
    const source = `api-${run}-members`
    server.records.Member = [
      ...members,
      {
        MemberMlsId: `M-${run}-9`,
        MemberFirstName: 'Bo',
        MemberLastName: 'Api',
        ModificationTimestamp: '2025-04-02T00:00:00Z',
      },
    ]
    const summary = await syncResoWebApi(options(source, { resource: 'Member' }))
    expect(summary).toMatchObject({ resource: 'Member', complete: true, read: 3, rejected: 0 })
    expect(dataRequests('Member')[0]!.query.$select!.split(',')).toEqual(
      fieldsRead.Member.filter((field) => serverFields.Member.includes(field)),
    )
    expect(await sql(`select member_key, name from public.agents where mls_id = $1`, [`M-${run}-9`])).toEqual([
      { member_key: null, name: 'Bo Api' },
    ])
    expect((await state(source, 'Member'))!.high_water).toBe('2025-04-02T00:00:00Z')
  })
})

describe('npm run import -- --reso-web-api', () => {
  /** Runs the CLI with RESO_* from `env` (asynchronously: the test server answers in this process). */
  const cli = (env: Record<string, string>, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        path.join(rootDir, 'node_modules/.bin/tsx'),
        ['scripts/import.ts', '--reso-web-api', ...args],
        {
          cwd: rootDir,
          env: { ...process.env, DATABASE_URL: testEnv.databaseUrl, NO_COLOR: '1', ...env },
          timeout: 120_000,
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      )
    })
  const oauthEnv = () => ({
    RESO_API_URL: server.baseUrl,
    RESO_TOKEN_URL: server.tokenUrl,
    RESO_CLIENT_ID: clientId,
    RESO_CLIENT_SECRET: clientSecret,
    RESO_SCOPE: 'api',
  })

  it('syncs with OAuth2 client credentials from the environment and prints the run', async () => {
    const source = `api-${run}-cli`
    server.records.Property = Array.from({ length: 12 }, (_, i) => listing(900 + i))
    const result = await cli(oauthEnv(), '--source', source, '--page-size', '5')
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^RESO Web API Property sync: complete$/m)
    expect(result.stdout).toMatch(/^ {2}pages {7}3 \(4 requests\)$/m)
    expect(result.stdout).toMatch(/^ {2}inserted {4}12$/m)
    expect(result.stdout).toMatch(/^ {2}high water {2}2025-03-01T15:11:00\.000Z \(ModificationTimestamp\)$/m)
    expect(result.stdout).toMatch(/^Recorded as import run \d+ \(public\.import_runs\)$/m)
    expect(await stored(source)).toBe(12)
  })

  it('too many rejects: exit 1, the summary and the reason, nothing applied', async () => {
    const source = `api-${run}-cli-rejected`
    server.records.Property = [listing(950), listing(951, { ClosePrice: 7e11 })]
    const rejects = path.join(dir, 'cli.rejects.csv')
    const result = await cli(oauthEnv(), '--source', source, '--rejects', rejects)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('RESO Web API Property sync: nothing applied')
    expect(result.stderr).toMatch(
      /^1 of 2 records were rejected \(50\.0 %, over the 5\.0 % allowed by --max-reject-rate; see .*cli\.rejects\.csv\); nothing was imported$/m,
    )
    expect(await stored(source)).toBe(0)
    expect(fs.existsSync(rejects)).toBe(true)
  })

  it('names the missing variables', async () => {
    const result = await cli({ RESO_API_URL: server.baseUrl, RESO_TOKEN_URL: server.tokenUrl, RESO_API_TOKEN: '' })
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(
      'RESO Web API configuration: OAuth2 client credentials need RESO_TOKEN_URL, RESO_CLIENT_ID and RESO_CLIENT_SECRET; missing RESO_CLIENT_ID, RESO_CLIENT_SECRET',
    )
  })
})
