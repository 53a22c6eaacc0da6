/**
 * The RESO Web API (OData) sync against a local OData server (tests/fixtures/odata/server.ts): bearer auth, paging
 * by @odata.nextLink, incremental $filter on ModificationTimestamp, resume of an interrupted sync from the stored
 * page, retries, clear errors, idempotency. Rows use a per-run source and key prefix; afterAll removes them.
 * Metrics are not refreshed here (skipMetrics) so that parallel test files' agent figures are left alone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { resoApiConfig, syncResoWebApi, type ResoSyncOptions } from '../../scripts/lib/import/reso-web-api.ts'
import { startODataServer, type ODataRecord, type ODataTestServer } from '../fixtures/odata/server.ts'
import { sql, testEnv } from '../support/env.ts'

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const token = `token-${run}`
let server: ODataTestServer
let counter = 0

/** A closed sale modified at 2025-03-01 plus `minutes`, by one of two agents of this run. */
function listing(minutes: number, extra: Partial<ODataRecord> = {}): ODataRecord {
  counter += 1
  return {
    '@odata.id': `Property('${run}-${counter}')`,
    ListingKey: `${run}-${counter}`,
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
    ListAgentMlsId: `API-${run}-${counter % 2}`,
    ListAgentFullName: `Api Agent ${counter % 2}`,
    ModificationTimestamp: new Date(Date.UTC(2025, 2, 1, 0, minutes)).toISOString(),
    ...extra,
  }
}

function options(source: string, extra: Partial<ResoSyncOptions> = {}): ResoSyncOptions {
  return {
    databaseUrl: testEnv.databaseUrl,
    baseUrl: server.baseUrl,
    token,
    source,
    pageSize: 10,
    retryDelayMs: 1,
    maxRetries: 2,
    skipMetrics: true,
    ...extra,
  }
}

const stored = async (source: string) =>
  (await sql<{ n: number }>(`select count(*)::int as n from public.properties where source = $1`, [source]))[0]!.n
const state = async (source: string, resource = 'Property') =>
  (
    await sql<{ high_water: string | null; next_link: string | null; last_error: string | null }>(
      `select to_char(high_water at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as high_water, next_link, last_error
     from public.reso_sync_state where source = $1 and resource = $2`,
      [source, resource],
    )
  )[0]

beforeAll(async () => {
  server = await startODataServer({ token, maxPageSize: 10 })
})

beforeEach(() => {
  server.requests.length = 0
  server.intercept = undefined
})

afterAll(async () => {
  await server.close()
  await sql(`delete from public.properties where source like $1`, [`api-${run}%`])
  await sql(`delete from public.agents where mls_id like $1`, [`%${run}%`])
  await sql(`delete from public.reso_sync_state where source like $1`, [`api-${run}%`])
})

describe('RESO Web API sync', () => {
  const source = `api-${run}-main`

  it('pages through @odata.nextLink with the bearer token, ordered by ModificationTimestamp, and stores the high water', async () => {
    server.records.Property = [
      ...Array.from({ length: 24 }, (_, i) => listing(i)),
      listing(24, { PostalCode: '2176' }), // rejected: a ZIP that lost its leading zero
    ]
    const summary = await syncResoWebApi(options(source))
    expect(summary).toMatchObject({
      resumed: false,
      complete: true,
      pages: 3,
      read: 25,
      rejected: 1,
      inserted: 24,
      updated: 0,
      agentsInserted: 2,
    })
    expect(summary.rejects).toEqual([
      { key: `${run}-25`, reason: 'PostalCode: unknown ZIP format (expected 12345 or 12345-6789)' },
    ])
    expect(server.requests.map((request) => request.authorization)).toEqual(Array(3).fill(`Bearer ${token}`))
    expect(server.requests[0]!.query).toEqual({ $orderby: 'ModificationTimestamp', $top: '10' })
    expect(server.requests.map((request) => request.query.$skip)).toEqual([undefined, '10', '20'])
    expect(await stored(source)).toBe(24)
    expect(await state(source)).toEqual({ high_water: '2025-03-01T00:24:00Z', next_link: null, last_error: null })
    const [agent] = await sql(
      `select a.name, count(p.id)::int as listings from public.agents a join public.properties p on p.agent_id = a.id
                               where a.mls_id = $1 group by a.name`,
      [`API-${run}-1`],
    )
    expect(agent).toEqual({ name: 'Api Agent 1', listings: 12 })
  })

  it('asks only for records modified after the high water, and a sync with nothing new changes nothing', async () => {
    const summary = await syncResoWebApi(options(source))
    expect(summary).toMatchObject({ complete: true, pages: 1, read: 0, inserted: 0, updated: 0 })
    expect(server.requests[0]!.query.$filter).toBe('ModificationTimestamp gt 2025-03-01T00:24:00.000Z')
  })

  it('brings new and changed records incrementally', async () => {
    const changed: ODataRecord = {
      ...server.records.Property![3]!,
      ClosePrice: 999000,
      ModificationTimestamp: '2025-03-02T00:00:00.000Z',
    }
    server.records.Property = [
      ...server.records.Property!.filter((record) => record.ListingKey !== changed.ListingKey),
      changed,
      listing(2000),
      listing(2001),
    ]
    const summary = await syncResoWebApi(options(source))
    expect(summary).toMatchObject({ complete: true, read: 3, inserted: 2, updated: 1, unchanged: 0 })
    expect(server.requests[0]!.query.$filter).toBe('ModificationTimestamp gt 2025-03-01T00:24:00.000Z')
    expect(
      await sql(
        `select sale_price::float8 as price from public.properties where source = $1 and source_record_id = $2`,
        [source, changed.ListingKey],
      ),
    ).toEqual([{ price: 999000 }])
    expect((await state(source))!.high_water).toBe('2025-03-02T09:21:00Z')
  })

  it('is idempotent: re-reading everything with --since changes nothing', async () => {
    const summary = await syncResoWebApi(options(source, { since: '2020-01-01T00:00:00Z' }))
    expect(summary).toMatchObject({
      complete: true,
      pages: 3,
      read: 27,
      rejected: 1,
      inserted: 0,
      updated: 0,
      unchanged: 26,
      agentsInserted: 0,
      agentsUpdated: 0,
    })
    expect(server.requests[0]!.query.$filter).toBe('ModificationTimestamp gt 2020-01-01T00:00:00.000Z')
    expect(await stored(source)).toBe(26)
  })
})

describe('an interrupted sync', () => {
  const source = `api-${run}-resume`

  it('keeps the written pages and the pending nextLink, then resumes there', async () => {
    server.records.Property = Array.from({ length: 30 }, (_, i) => listing(5000 + i))
    // the server goes down after the first page: every request for the second page fails
    server.intercept = (request) =>
      request.query.$skip === '10' ? { status: 503, body: 'down for maintenance' } : undefined
    await expect(syncResoWebApi(options(source))).rejects.toThrow(/answered 503 Service Unavailable after 3 attempts/)
    expect(server.requests.filter((request) => request.query.$skip === '10')).toHaveLength(3)
    expect(await stored(source)).toBe(10)
    const interrupted = await state(source)
    expect(interrupted!.high_water).toBeNull()
    expect(interrupted!.last_error).toMatch(/503/)
    expect(new URL(interrupted!.next_link!).searchParams.get('$skip')).toBe('10')

    server.intercept = undefined
    server.requests.length = 0
    const summary = await syncResoWebApi(options(source))
    expect(summary).toMatchObject({ resumed: true, complete: true, pages: 2, read: 20, inserted: 20 })
    expect(server.requests.map((request) => request.query.$skip)).toEqual(['10', '20'])
    expect(await stored(source)).toBe(30)
    expect(await state(source)).toEqual({
      high_water: new Date(Date.UTC(2025, 2, 1, 0, 5029)).toISOString().replace('.000Z', 'Z'),
      next_link: null,
      last_error: null,
    })
  })

  it('retries 429 (honouring Retry-After) and 5xx, then carries on', async () => {
    const source2 = `api-${run}-retry`
    server.records.Property = Array.from({ length: 5 }, (_, i) => listing(7000 + i))
    let calls = 0
    server.intercept = () => {
      calls += 1
      if (calls === 1) return { status: 429, body: '{}', headers: { 'retry-after': '0' } }
      if (calls === 2) return { status: 502, body: 'bad gateway' }
      return undefined
    }
    const summary = await syncResoWebApi(options(source2))
    expect(summary).toMatchObject({ complete: true, read: 5, inserted: 5 })
    expect(server.requests).toHaveLength(3)
  })
})

describe('errors', () => {
  it('names RESO_API_TOKEN on 401 and does not retry', async () => {
    await expect(syncResoWebApi({ ...options(`api-${run}-auth`), token: 'wrong' })).rejects.toThrow(
      /refused the bearer token \(401 Unauthorized\).*check RESO_API_TOKEN/,
    )
    expect(server.requests).toHaveLength(1)
  })

  it('names the URL when the body is not JSON, or not an OData collection', async () => {
    server.intercept = () => ({ status: 200, body: '<html>login</html>' })
    await expect(syncResoWebApi(options(`api-${run}-json`))).rejects.toThrow(
      /returned invalid JSON from http:\/\/127\.0\.0\.1:\d+\/odata\/Property\?/,
    )
    server.intercept = () => ({ status: 200, body: '{"items": []}' })
    await expect(syncResoWebApi(options(`api-${run}-json`))).rejects.toThrow(/not an OData collection.*value/)
  })

  it('refuses missing configuration with the variable names', () => {
    expect(() => resoApiConfig({})).toThrow(/RESO_API_URL.*RESO_API_TOKEN/)
    expect(resoApiConfig({ RESO_API_URL: 'https://mls.example.com/odata', RESO_API_TOKEN: 'abc' })).toEqual({
      baseUrl: 'https://mls.example.com/odata',
      token: 'abc',
    })
  })
})

describe('Member resource', () => {
  it('fills in agents from Member records', async () => {
    const source = `api-${run}-members`
    server.records.Member = [
      {
        MemberMlsId: `API-${run}-0`,
        MemberFullName: 'Ada Api',
        MemberEmail: 'ada@example.com',
        OfficeName: 'OData Realty',
        ModificationTimestamp: '2025-04-01T00:00:00Z',
      },
      {
        MemberMlsId: `API-${run}-9`,
        MemberFirstName: 'Bo',
        MemberLastName: 'Api',
        ModificationTimestamp: '2025-04-02T00:00:00Z',
      },
    ]
    const summary = await syncResoWebApi(options(source, { resource: 'Member' }))
    expect(summary).toMatchObject({ resource: 'Member', complete: true, read: 2, inserted: 1, updated: 1 })
    expect(server.requests[0]!.resource).toBe('Member')
    expect(await sql(`select name, email, brokerage from public.agents where mls_id = $1`, [`API-${run}-0`])).toEqual([
      { name: 'Ada Api', email: 'ada@example.com', brokerage: 'OData Realty' },
    ])
    expect((await state(source, 'Member'))!.high_water).toBe('2025-04-02T00:00:00Z')
  })
})
