/**
 * The importer on RESO-named files: Property records (NDJSON and JSON array) create and link listing agents and
 * refresh their metrics; Member records (CSV) fill in the agents; the Redfin ZIP benchmark loader. The records are
 * written per run with unique keys, so nothing collides with other tests; afterAll removes them.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runImport } from '../../scripts/lib/import/run-import.ts'
import { loadZipBenchmarks } from '../../scripts/lib/import/zip-benchmarks.ts'
import { anonClient, serviceClient, sql, testEnv } from '../support/env.ts'

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const source = `reso-test-${run}`
const agentId = `AG-${run}`
let dir: string
// the small fixtures hold one reject on purpose (1 of 8, 1 of 3): above the default 5 % threshold
const lenient = {
  maxRejectRate: 0.5,
  get rejectsFile() {
    return path.join(dir, `rejects-${Math.random().toString(36).slice(2)}.csv`)
  },
}

/** Six closed sales by one agent (with a list price on five), one active listing and one bad row. */
function listings() {
  const closed = [
    [500000, 510000, 10],
    [400000, 400000, 20],
    [300000, 297000, 30],
    [200000, 210000, null],
    [600000, 600000, 40],
  ].map(([list, close, dom], i) => ({
    ListingKey: `${run}-${i}`,
    StandardStatus: 'Closed',
    ListPrice: list,
    ClosePrice: close,
    CloseDate: `2026-0${i + 1}-15`,
    ListingContractDate: `2025-12-0${i + 1}`,
    DaysOnMarket: dom,
    UnparsedAddress: `${i + 1} RESO Way`,
    City: 'Fixture City',
    StateOrProvince: 'CO',
    PostalCode: '00801',
    ListAgentMlsId: agentId,
    ListAgentFullName: 'Reso Fixture Agent',
    ListOfficeName: 'Fixture Realty',
  }))
  return [
    ...closed,
    { ...closed[0], ListingKey: `${run}-nolist`, ListPrice: null, ClosePrice: 450000 },
    { ...closed[0], ListingKey: `${run}-active`, StandardStatus: 'Active', ClosePrice: null, CloseDate: null },
    { ...closed[0], ListingKey: `${run}-bad`, CloseDate: '2025-11-01' },
  ]
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-reso-'))
})

afterAll(async () => {
  await sql(`delete from public.properties where source like $1`, [`${source}%`])
  await sql(`delete from public.agents where mls_id like $1 or member_key like $1`, [`%${run}%`])
  await sql(`delete from public.import_runs where source = $1 or file_name like $2`, [source, `${dir}/%`])
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('RESO Property import', () => {
  it('creates the listing agent, links the listings and computes the agent metrics', async () => {
    const file = path.join(dir, 'listings.ndjson')
    fs.writeFileSync(
      file,
      listings()
        .map((record) => JSON.stringify(record))
        .join('\n'),
    )
    const summary = await runImport({ file, source, databaseUrl: testEnv.databaseUrl, ...lenient })
    expect(summary).toMatchObject({ resource: 'Property', read: 8, rejected: 1, inserted: 7, agentsInserted: 1 })
    expect(fs.readFileSync(summary.rejectsFile!, 'utf8')).toContain(
      '8,CloseDate: is before ListingContractDate (2025-12-01)',
    )

    const [agent] = await sql(
      `select a.name, a.brokerage, a.total_sales, a.average_sale_to_list_ratio::float8 as avg_ratio, a.sale_to_list_sample_size,
              a.median_days_on_market::float8 as median_dom, a.days_on_market_sample_size, a.price_range_min::float8 as price_min,
              a.primary_zip_code, a.local_ranking, a.total_agents_in_area, a.market_share::float8 as market_share,
              (select count(*)::int from public.properties p where p.agent_id = a.id) as linked
       from public.agents a where a.mls_id = $1`,
      [agentId],
    )
    // ratios 102, 100, 99, 105, 100 -> 101.2; the sale without a list price counts as a sale but not in the ratio
    expect(agent).toEqual({
      name: 'Reso Fixture Agent',
      brokerage: 'Fixture Realty',
      total_sales: 6,
      avg_ratio: 101.2,
      sale_to_list_sample_size: 5,
      median_dom: 20,
      days_on_market_sample_size: 5,
      price_min: 210000,
      primary_zip_code: '00801',
      local_ranking: 1,
      total_agents_in_area: 1,
      market_share: 100,
      linked: 7,
    })
  })

  it('reads a JSON array as well, and a second import changes nothing', async () => {
    const file = path.join(dir, 'listings.json')
    fs.writeFileSync(file, JSON.stringify(listings()))
    expect(await runImport({ file, source, databaseUrl: testEnv.databaseUrl, ...lenient })).toMatchObject({
      read: 8,
      rejected: 1,
      inserted: 0,
      updated: 0,
      unchanged: 7,
      agentsInserted: 0,
      agentsUpdated: 0,
    })
  })
})

describe('RESO Member import', () => {
  it('fills in agents by MemberMlsId and rejects records without a name', async () => {
    const file = path.join(dir, 'members.csv')
    fs.writeFileSync(
      file,
      [
        'MemberMlsId,MemberFirstName,MemberLastName,MemberStateLicense,MemberEmail,MemberOfficeName',
        `${agentId},Rita,Fixture,LIC-${run},rita@example.com,`,
        `NEW-${run},Nova,Agent,,,Other Realty`,
        `NONAME-${run},,,,,`,
      ].join('\n'),
    )
    const summary = await runImport({ file, databaseUrl: testEnv.databaseUrl, skipMetrics: true, ...lenient })
    expect(summary).toMatchObject({ resource: 'Member', read: 3, rejected: 1, inserted: 1, updated: 1 })
    expect(
      await sql(`select name, license_number, email, brokerage from public.agents where mls_id = $1`, [agentId]),
    ).toEqual([
      { name: 'Rita Fixture', license_number: `LIC-${run}`, email: 'rita@example.com', brokerage: 'Fixture Realty' },
    ])
    expect(fs.readFileSync(summary.rejectsFile!, 'utf8')).toContain(
      '4,MemberFullName: is required (or MemberFirstName/MemberLastName)',
    )
  })

  it('refuses a file that is neither Property nor Member records', async () => {
    const file = path.join(dir, 'other.csv')
    fs.writeFileSync(file, 'price,zip\n1,00801\n')
    await expect(runImport({ file, databaseUrl: testEnv.databaseUrl })).rejects.toThrow(
      /neither ListingKey \(Property\) nor MemberKey or MemberMlsId \(Member\)/,
    )
  })
})

describe('agent roles by Key', () => {
  const keyed = `${source}-keys`
  const key = (name: string) => `MK-${run}-${name}`
  const sale = (n: number, roles: Record<string, string>) => ({
    ListingKey: `${run}-k${n}`,
    StandardStatus: 'Closed',
    ListPrice: 500000,
    ClosePrice: 510000,
    CloseDate: '2026-02-15',
    UnparsedAddress: `${n} Key Street`,
    City: 'Fixture City',
    StateOrProvince: 'CO',
    PostalCode: '00802',
    ...roles,
  })
  const sidesOf = (listingKey: string) =>
    sql<{ role: string; agent: string | null; agent_key: string | null }>(
      `select s.role, a.name as agent, s.agent_key from public.transaction_sides s
       join public.properties p on p.id = s.property_id left join public.agents a on a.id = s.agent_id
       where p.source = $1 and p.source_record_id = $2 order by s.role`,
      [keyed, listingKey],
    )

  it('links every role by its Key, creates no agent from a placeholder name, and links late Members', async () => {
    const members = path.join(dir, 'members-keyed.ndjson')
    // Members keyed by MemberKey alone (no MemberMlsId), as the Data Dictionary allows
    fs.writeFileSync(
      members,
      ['Lee List', 'Cora Colist', 'Ben Buyer']
        .map((name, i) => JSON.stringify({ MemberKey: key(['L', 'C', 'B'][i]!), MemberFullName: name }))
        .join('\n'),
    )
    expect(await runImport({ file: members, databaseUrl: testEnv.databaseUrl, skipMetrics: true })).toMatchObject({
      resource: 'Member',
      read: 3,
      rejected: 0,
      inserted: 3,
    })
    const listings = path.join(dir, 'listings-keyed.ndjson')
    fs.writeFileSync(
      listings,
      [
        sale(1, {
          ListAgentKey: key('L'),
          ListAgentMlsId: 'placeholder-1',
          ListAgentFullName: 'Sample ListAgentFullName 9',
          CoListAgentKey: key('C'),
          BuyerAgentKey: key('B'),
          CoBuyerAgentKey: key('LATE'),
          CoBuyerAgentMlsId: 'placeholder-2',
          CoBuyerAgentFullName: 'Sample CoBuyerAgentFullName 3',
        }),
        sale(2, { ListAgentKey: key('LATE'), ListAgentFullName: 'Sample ListAgentFullName 4' }),
      ]
        .map((record) => JSON.stringify(record))
        .join('\n'),
    )
    const summary = await runImport({ file: listings, source: keyed, databaseUrl: testEnv.databaseUrl })
    expect(summary).toMatchObject({ read: 2, rejected: 0, inserted: 2, agentsInserted: 0 })
    expect(await sql(`select count(*)::int as n from public.agents where name like 'Sample %'`)).toEqual([{ n: 0 }])
    expect(await sidesOf(`${run}-k1`)).toEqual([
      { role: 'buyer', agent: 'Ben Buyer', agent_key: key('B') },
      { role: 'co_buyer', agent: null, agent_key: key('LATE') },
      { role: 'co_list', agent: 'Cora Colist', agent_key: key('C') },
      { role: 'list', agent: 'Lee List', agent_key: key('L') },
    ])
    expect(await sidesOf(`${run}-k2`)).toEqual([{ role: 'list', agent: null, agent_key: key('LATE') }])

    // the Member the two sales were waiting for arrives: both of its roles are linked
    fs.writeFileSync(members, JSON.stringify({ MemberKey: key('LATE'), MemberFullName: 'Lou Late' }))
    await runImport({ file: members, databaseUrl: testEnv.databaseUrl, skipMetrics: true })
    expect((await sidesOf(`${run}-k1`)).find((side) => side.role === 'co_buyer')!.agent).toBe('Lou Late')
    expect(await sidesOf(`${run}-k2`)).toEqual([{ role: 'list', agent: 'Lou Late', agent_key: key('LATE') }])
    const [late] = await sql(
      `select (select count(*)::int from public.properties p where p.agent_id = a.id) as listings from public.agents a where a.member_key = $1`,
      [key('LATE')],
    )
    expect(late).toEqual({ listings: 1 })
  })

  it('creates agents named by an MLS id alone for every role, as the feed names them', async () => {
    const file = path.join(dir, 'listings-mls.ndjson')
    fs.writeFileSync(
      file,
      JSON.stringify(
        sale(3, {
          ListAgentMlsId: `MLS-${run}-L`,
          ListAgentFullName: 'Mia List',
          BuyerAgentMlsId: `MLS-${run}-B`,
          BuyerAgentFullName: 'Bo Buyer',
          BuyerOfficeName: 'Buyer Side Realty',
        }),
      ),
    )
    expect(await runImport({ file, source: keyed, databaseUrl: testEnv.databaseUrl })).toMatchObject({
      inserted: 1,
      agentsInserted: 2,
    })
    expect(await sidesOf(`${run}-k3`)).toEqual([
      { role: 'buyer', agent: 'Bo Buyer', agent_key: null },
      { role: 'list', agent: 'Mia List', agent_key: null },
    ])
    expect(await sql(`select brokerage from public.agents where mls_id = $1`, [`MLS-${run}-B`])).toEqual([
      { brokerage: 'Buyer Side Realty' },
    ])
  })
})

describe('ZIP benchmark loader', () => {
  const file = path.resolve(import.meta.dirname, '../../supabase/data/redfin-zip-subset.csv')

  it('loads the shipped Redfin subset, converting state names, and a reload changes nothing', async () => {
    const client = new pg.Client({ connectionString: testEnv.databaseUrl })
    await client.connect()
    try {
      // other files never write this table, so the counts are ours
      const first = await loadZipBenchmarks(client, file)
      expect(first).toMatchObject({ read: 366, rejected: 0 })
      expect(first.inserted + first.updated + first.unchanged).toBe(366)
      expect(await loadZipBenchmarks(client, file)).toMatchObject({ inserted: 0, updated: 0, unchanged: 366 })
    } finally {
      await client.end()
    }
    const { data, error } = await anonClient()
      .from('zip_market_benchmarks')
      .select('state, metro, avg_sale_to_list_fraction, avg_sale_to_list_percent, attribution')
      .eq('zip_code', '02176')
      .single()
    expect(error).toBeNull()
    expect(data).toMatchObject({
      state: 'MA',
      metro: 'Boston, MA',
      attribution: 'Source: Redfin, a national real estate brokerage (redfin.com/news/data-center)',
    })
    expect(data!.avg_sale_to_list_percent).toBeCloseTo(data!.avg_sale_to_list_fraction! * 100, 2)
  })

  it('is readable by anyone but written only by service_role', async () => {
    const row = { zip_code: '00000', period_end: '2025-09-30' }
    expect((await anonClient().from('zip_market_benchmarks').insert(row)).error?.code).toBe('42501')
    const { error } = await serviceClient().from('zip_market_benchmarks').insert(row)
    expect(error).toBeNull()
    await sql(`delete from public.zip_market_benchmarks where zip_code = '00000'`)
  })
})
