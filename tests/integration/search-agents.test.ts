/**
 * The search-agents edge function through supabase-js `functions.invoke` with the anon key, against fixture agents
 * and closed sales in ZIPs 99961-99966 (no seed or other test uses them): fuzzy names, ZIP ranking by sides (99966
 * has buyer agents, co-agents and dual agency) with its sorts and filters, address
 * resolution, paging, bad input, CORS, the search log, the plain PostgREST reads the profile page makes, and the
 * per-(ZIP, agent) summary (agent_zip_sales) that refresh_agent_metrics() keeps for the ZIP and address searches.
 */
import { FunctionsHttpError } from '@supabase/supabase-js'
import pg from 'pg'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentSearchResult, SearchAgentsResponse } from '@shared/search-contract.ts'
import { searchAgentsLoggedAsServiceRole } from '@shared/search-sql.ts'
import { anonClient, sql, testEnv } from '../support/env.ts'
import { clientDb, insertAgents, insertSales, type SaleInput } from '../support/factories.ts'

const ZIPS = ['99961', '99962', '99963', '99964', '99965', '99966']
const NAMES = {
  A: 'Zebulon Quackenbush',
  B: 'Ximena Quackenbush',
  C: 'Zebulon Quackenbosh',
  D: 'Ophelia Wintergreen',
  E: 'Bartholomew Quenneville',
  F: 'Ignatius Farquharson',
  G: 'Gwendolyn Sidesworth',
  H: 'Horatio Sidesworth',
  I: 'Isadora Sidesworth',
  J: 'Jasper Sidesworth',
} as const
type Key = keyof typeof NAMES
const ids = {} as Record<Key, string>
const startedAt = new Date()

/** [agent, zip, sales, price USD, address prefix]; sales close 5..(5+n) days ago, inside any default window. */
const sales: [Key, string, number, number][] = [
  ['A', '99961', 6, 400_000],
  ['B', '99961', 6, 500_000],
  ['C', '99961', 3, 450_000],
  ['C', '99962', 5, 450_000],
  ['D', '99963', 8, 600_000],
  ['E', '99965', 2, 300_000],
  ['F', '99964', 4, 350_000],
]

async function search(body: unknown): Promise<{ status: number; body: SearchAgentsResponse & { error?: string } }> {
  const { data, error } = await anonClient().functions.invoke('search-agents', {
    body: body as Record<string, unknown>,
  })
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response
    return { status: response.status, body: await response.json() }
  }
  if (error) throw error
  return { status: 200, body: data }
}

const names = (agents: AgentSearchResult[]) => agents.map((agent) => agent.name)

beforeAll(async () => {
  await cleanUp()
  await sql(
    `insert into public.zip_market_benchmarks (zip_code, city, state, latitude, longitude, period_end, homes_sold) values
       ('99961', 'Quillhaven', 'WY', 43.0000, -107.0000, '2025-09-30', 40),
       ('99962', 'Quillhaven', 'WY', 43.0300, -107.0200, '2025-09-30', 30),
       ('99963', 'Marrowby', 'WY', 43.1000, -107.1000, '2025-09-30', 20),
       ('99964', 'Farwater', 'WY', 45.0000, -110.0000, '2025-09-30', 10)`,
  )
  const keys = Object.keys(NAMES) as Key[]
  const agentIds = await insertAgents(
    keys.map((key) => ({
      name: NAMES[key],
      brokerage: 'Search Fixture Realty',
      city: 'Quillhaven',
      state: 'WY',
      zip: '99961',
      mlsId: `search-fixture-${key}-${startedAt.getTime()}`,
    })),
  )
  keys.forEach((key, index) => (ids[key] = agentIds[index]!))
  const cities: Record<string, string> = {
    '99961': 'Quillhaven',
    '99962': 'Quillhaven',
    '99963': 'Marrowby',
    '99964': 'Farwater',
    '99965': 'Thistlecombe',
  }
  const rows: SaleInput[] = []
  let house = 100
  for (const [key, zip, count, price] of sales) {
    for (let i = 0; i < count; i += 1) {
      house += 1
      rows.push({
        agentId: ids[key],
        address: `${house} Fixture Loop`,
        city: cities[zip],
        state: 'WY',
        zip,
        listPrice: price,
        salePrice: price,
        daysAgo: 5 + i,
        daysOnMarket: 20,
      })
    }
  }
  // the address a visitor looks up, one sale outside any window (not counted) and one pending listing (not counted)
  const place = { state: 'WY', listPrice: 900000 }
  rows.push(
    {
      agentId: ids.D,
      address: '742 Evergreen Terrace',
      city: 'Marrowby',
      zip: '99963',
      ...place,
      listPrice: 650000,
      salePrice: 640000,
      daysAgo: 3,
      latitude: 43.1001,
      longitude: -107.1002,
    },
    {
      agentId: ids.E,
      address: '9 Old Mill Road',
      city: 'Quillhaven',
      zip: '99961',
      ...place,
      salePrice: 900000,
      daysAgo: 1500,
    },
    {
      agentId: ids.E,
      address: '11 Old Mill Road',
      city: 'Quillhaven',
      zip: '99961',
      ...place,
      standardStatus: 'Pending',
    },
  )
  // 99966: both sides. G lists S1-S3 (400,000, residential) with H as buyer agent; H lists S4-S5 (500,000) with I as
  // co-list agent; I is on both sides of S6 (200,000, condo); J lists S7-S11 alone (100,000 listed at 91,000, land)
  const mls = (key: Key) => `search-fixture-${key}-${startedAt.getTime()}`
  const side = (list: Key, price: number, listPrice: number, type: string, roles: { buyer?: Key; coList?: Key }) => {
    house += 1
    rows.push({
      agentId: ids[list],
      address: `${house} Sides Lane`,
      city: 'Sidesburg',
      state: 'WY',
      zip: '99966',
      listPrice,
      salePrice: price,
      daysAgo: 6,
      daysOnMarket: 15,
      propertyType: type,
      buyerAgentMlsId: roles.buyer ? mls(roles.buyer) : null,
      coListAgentMlsId: roles.coList ? mls(roles.coList) : null,
    })
  }
  for (let i = 0; i < 3; i += 1) side('G', 400_000, 400_000, 'Residential', { buyer: 'H' })
  for (let i = 0; i < 2; i += 1) side('H', 500_000, 500_000, 'Residential', { coList: 'I' })
  side('I', 200_000, 200_000, 'Condo', { buyer: 'I' })
  for (let i = 0; i < 5; i += 1) side('J', 91_000, 100_000, 'Land', {})
  await insertSales(rows)
  await sql(`select public.refresh_agent_metrics()`)
})

async function cleanUp() {
  await sql(`delete from public.properties where zip_code = any($1)`, [ZIPS])
  await sql(`delete from public.agents where name = any($1)`, [Object.values(NAMES)])
  await sql(`delete from public.zip_market_benchmarks where zip_code = any($1)`, [ZIPS])
}

afterAll(async () => {
  await cleanUp()
  await sql(
    `delete from public.search_queries where created_at >= $1 and (query like '%Quackenb%' or query like '9996%' or query like '%Evergreen%')`,
    [startedAt],
  )
})

describe('agent name search', () => {
  it('matches a partial name, best matches first', async () => {
    const { status, body } = await search({ query: 'Quackenbush' })
    expect(status).toBe(200)
    expect(new Set(names(body.agents.slice(0, 2)))).toEqual(new Set([NAMES.A, NAMES.B]))
    expect(body.agents[2]?.name).toBe(NAMES.C)
    expect(body.agents[0]!.match_score).toBe(1)
    expect(body.agents[2]!.match_score).toBeLessThan(1)
    expect(body.location).toBeNull()
    expect(body).toMatchObject({ limit: 20, offset: 0 })
    expect(body.totalResults).toBeGreaterThanOrEqual(3)
  })

  it('tolerates typos and ranks the closest name first', async () => {
    const { body } = await search({ query: 'Zebulon Quakenbush', type: 'agent' })
    expect(names(body.agents).slice(0, 2)).toEqual([NAMES.A, NAMES.C])
    const misspelt = await search({ query: 'ophelia wintergren' })
    expect(misspelt.body.agents[0]?.name).toBe(NAMES.D)
  })

  it('matches the start of a first name and returns the card fields', async () => {
    const { body } = await search({ query: 'Zebul' })
    expect(new Set(names(body.agents).filter((name) => name.startsWith('Zebulon')))).toEqual(
      new Set([NAMES.A, NAMES.C]),
    )
    const a = body.agents.find((agent) => agent.id === ids.A)!
    expect(a).toMatchObject({
      total_sales: 6,
      primary_zip_code: '99961',
      brokerage: 'Search Fixture Realty',
      sales_in_area: null,
    })
  })

  it('finds nothing for a name nobody has', async () => {
    const { status, body } = await search({ query: 'Qqxzv Wwpqj' })
    expect(status).toBe(200)
    expect(body).toMatchObject({ agents: [], totalResults: 0, location: null })
  })
})

describe('agent name search over the token dictionary', () => {
  it('finds a name with swapped letters, the closest match first', async () => {
    const { body } = await search({ query: 'Zebulon Quackenbsuh' })
    expect(names(body.agents)[0]).toBe(NAMES.A)
    expect(body.agents[0]!.match_score).toBeLessThan(1)
    expect(names(body.agents)).not.toContain(NAMES.D)
  })

  it('finds every agent whose name has a token starting with the typed prefix', async () => {
    const { body } = await search({ query: 'Quacken' })
    expect(new Set(names(body.agents))).toEqual(new Set([NAMES.A, NAMES.B, NAMES.C]))
    expect(body.totalResults).toBe(3)
    expect(body.agents.every((agent) => agent.match_score! > 0.5 && agent.match_score! < 1)).toBe(true)
  })

  it('ranks equally good matches by closed sales', async () => {
    // A and C are both called Zebulon; C has 8 closed sales, A 6
    const { body } = await search({ query: 'Zebulon' })
    expect(names(body.agents).slice(0, 2)).toEqual([NAMES.C, NAMES.A])
    expect(body.agents.slice(0, 2).map((agent) => agent.total_sales)).toEqual([8, 6])
    expect(body.agents.slice(0, 2).map((agent) => agent.match_score)).toEqual([1, 1])
  })

  it('needs every word of a several-word query to match', async () => {
    const { status, body } = await search({ query: 'Zebulon Wintergreen' })
    expect(status).toBe(200)
    expect(body).toMatchObject({ agents: [], totalResults: 0 })
  })

  it('finds a renamed agent under the new name at once, and no longer under the old one', async () => {
    await inRolledBackTransaction(async (client) => {
      const byName = async (query: string) =>
        (
          await client.query<{ r: SearchAgentsResponse }>(`select public.search_agents($1, 'agent', 20, 0) as r`, [
            query,
          ])
        ).rows[0]!.r
      expect(names((await byName('Wintergreen')).agents)).toEqual([NAMES.D])
      await client.query(`update public.agents set name = 'Ophelia Snapdragonfly' where id = $1`, [ids.D])
      const renamed = await byName('Snapdragonfly')
      expect(names(renamed.agents)).toEqual(['Ophelia Snapdragonfly'])
      expect(renamed.agents[0]).toMatchObject({ id: ids.D, total_sales: 9, match_score: 1 })
      expect(await byName('Wintergreen')).toMatchObject({ agents: [], totalResults: 0 })
      // the old token left the dictionary with its last carrier
      const tokens = await client.query(
        `select token from public.agent_name_tokens where token in ('wintergreen', 'snapdragonfly')`,
      )
      expect(tokens.rows).toEqual([{ token: 'snapdragonfly' }])
    })
  })

  it('finds a two-letter typo whose trigram similarity is under 0.5 through the deletion index', async () => {
    // 'qoackenbash': two letters changed (allowed from six letters) in both 'quackenbosh' and 'quackenbush'; the
    // trigram similarity is too low for the trigram index's 0.5, so only agent_name_token_deletions offers them
    const pairs = await sql<{ similarity: number }>(
      `select extensions.similarity('qoackenbash', t) as similarity from unnest(array['quackenbosh', 'quackenbush']) t`,
    )
    for (const pair of pairs) expect(pair.similarity).toBeLessThan(0.5)
    const { body } = await search({ query: 'Zebulon Qoackenbash' })
    expect(new Set(names(body.agents))).toEqual(new Set([NAMES.A, NAMES.C]))
    expect(body.agents[0]!.match_score).toBeLessThan(1)
  })

  it('answers a several-word query whose words match more than 200 dictionary tokens (candidates from the postings)', async () => {
    await inRolledBackTransaction(async (client) => {
      // 250 agents 'Zebulon Zqx<letters>': 'zqx' is then a prefix of 250 tokens, past the bitmap AND's limit of 200
      const letters = (g: number) => String.fromCharCode(97 + Math.floor(g / 26), 97 + (g % 26))
      await insertAgents(
        [...Array.from({ length: 250 }, (_, g) => ({ name: `Zebulon Zqx${letters(g)}` })), { name: 'Ophelia Zqxzzz' }],
        clientDb(client),
      )
      const byName = async (query: string) =>
        (
          await client.query<{ r: SearchAgentsResponse }>(`select public.search_agents($1, 'agent', 20, 0) as r`, [
            query,
          ])
        ).rows[0]!.r
      const zebulons = await byName('Zebulon Zqx')
      expect(zebulons.totalResults).toBe(250)
      expect(zebulons.agents.every((agent) => /^Zebulon Zqx[a-z]{2}$/.test(agent.name))).toBe(true)
      const ophelia = await byName('Ophelia Zqx')
      expect(names(ophelia.agents)).toEqual(['Ophelia Zqxzzz'])
    })
  })

  it("keeps every dictionary token's deletion strings (at most two letters dropped) beside it, and drops them with it", async () => {
    const [deletions] = await sql<{ variants: string[] }>(
      `select public.search_name_token_deletions('anna', 1) as variants`,
    )
    expect([...deletions!.variants].sort()).toEqual(['ana', 'ann', 'anna', 'nna'])
    await inRolledBackTransaction(async (client) => {
      const variantsOf = async (token: string) =>
        (
          await client.query<{ variant: string }>(
            `select variant from public.agent_name_token_deletions where token = $1 order by variant`,
            [token],
          )
        ).rows.map((row) => row.variant)
      await client.query(`update public.agents set name = 'Ophelia Wxyz' where id = $1`, [ids.D])
      // 1 + 4 + 6 strings, none repeated
      expect(await variantsOf('wxyz')).toEqual(['wx', 'wxy', 'wxyz', 'wxz', 'wy', 'wyz', 'wz', 'xy', 'xyz', 'xz', 'yz'])
      // wintergreen had one carrier: its token and its deletion strings are gone
      expect(await variantsOf('wintergreen')).toEqual([])
      // a renamed token takes its strings along
      await client.query(`update public.agent_name_tokens set token = 'wxyq' where token = 'wxyz'`)
      expect(await variantsOf('wxyz')).toEqual([])
      expect(await variantsOf('wxyq')).toEqual(['wq', 'wx', 'wxq', 'wxy', 'wxyq', 'wy', 'wyq', 'xq', 'xy', 'xyq', 'yq'])
    })
  })

  it('follows closed sales after a metrics refresh', async () => {
    await inRolledBackTransaction(async (client) => {
      // A sells 3 more homes in 99961: 9 closed sales, one more than C
      await insertSales(
        Array.from({ length: 3 }, (_, index) => ({
          agentId: ids.A,
          address: `${index + 1} Ranking Row`,
          city: 'Quillhaven',
          state: 'WY',
          zip: '99961',
          listPrice: 100000,
          salePrice: 100000,
          daysAgo: 2,
        })),
        clientDb(client),
      )
      await client.query(`select public.refresh_agent_metrics()`)
      const result = (
        await client.query<{ r: SearchAgentsResponse }>(`select public.search_agents('Zebulon', 'agent', 20, 0) as r`)
      ).rows[0]!.r
      expect(names(result.agents).slice(0, 2)).toEqual([NAMES.A, NAMES.C])
      expect(result.agents[0]!.total_sales).toBe(9)
    })
  })
})

describe('ZIP code search', () => {
  it('ranks agents by closed sales in the ZIP, ties by volume, and fills the location', async () => {
    const { status, body } = await search({ query: '99961', type: 'zipcode' })
    expect(status).toBe(200)
    // A and B both have 6 sales; B's volume is higher. E's only 99961 sale is outside the window.
    expect(names(body.agents)).toEqual([NAMES.B, NAMES.A, NAMES.C])
    expect(body.agents.map((agent) => agent.sales_in_area)).toEqual([6, 6, 3])
    expect(body.agents.map((agent) => agent.area_rank)).toEqual([1, 2, 3])
    expect(body.totalResults).toBe(3)
    expect(body.location).toEqual({ city: 'Quillhaven', state: 'WY', zipCode: '99961' })
  })

  it('fills the location from properties when the ZIP has no benchmark row', async () => {
    const { body } = await search({ query: '99965', type: 'zipcode' })
    expect(names(body.agents)).toEqual([NAMES.E])
    expect(body.location).toEqual({ city: 'Thistlecombe', state: 'WY', zipCode: '99965' })
  })

  it('pages through the ranking', async () => {
    const first = await search({ query: '99961', type: 'zipcode', limit: 2 })
    expect(names(first.body.agents)).toEqual([NAMES.B, NAMES.A])
    expect(first.body).toMatchObject({ totalResults: 3, limit: 2, offset: 0 })
    const second = await search({ query: '99961', type: 'zipcode', limit: 2, offset: 2 })
    expect(names(second.body.agents)).toEqual([NAMES.C])
    // the rank is the agent's place in the whole ZIP, not on the page
    expect(second.body.agents.map((agent) => [agent.area_rank, agent.sales_in_area])).toEqual([[3, 3]])
    expect(second.body).toMatchObject({ totalResults: 3, limit: 2, offset: 2 })
  })
})

describe('ranking by sides, sorts and filters (99966)', () => {
  const zip = async (extra: Record<string, unknown> = {}) => await search({ query: '99966', type: 'zipcode', ...extra })
  const order = (agents: AgentSearchResult[]) => agents.map((agent) => agent.name.split(' ')[0]!.charAt(0))

  it('ranks by sides in the ZIP, both sides counted and co-agents sharing, ties by volume', async () => {
    const { status, body } = await zip()
    expect(status).toBe(200)
    // J 5 sides; H 3 buyer + 2 x 0.5 listing = 4; G 3 (volume 1.2M) and I 0.5 x 2 + 2 (dual) = 3 (volume 0.9M)
    expect(order(body.agents)).toEqual(['J', 'H', 'G', 'I'])
    expect(body.agents.map((agent) => agent.area_rank)).toEqual([1, 2, 3, 4])
    expect(body.sort).toBe('sides')
    expect(body.agents.map((agent) => agent.area_figures)).toEqual([
      expect.objectContaining({ sales: 5, sides: 5, listing_sides: 5, buyer_sides: 0, volume: 455_000 }),
      expect.objectContaining({ sales: 5, sides: 4, listing_sides: 1, buyer_sides: 3, volume: 1_700_000 }),
      expect.objectContaining({ sales: 3, sides: 3, listing_sides: 3, buyer_sides: 0, volume: 1_200_000 }),
      expect.objectContaining({ sales: 3, sides: 3, listing_sides: 2, buyer_sides: 1, volume: 900_000 }),
    ])
    // a dual-agency sale counts once in the agent's sales there
    expect(body.agents.map((agent) => agent.sales_in_area)).toEqual([5, 5, 3, 3])
    // every result carries the agent's both-sides figures
    expect(body.agents.find((agent) => agent.id === ids.H)!.sides).toMatchObject({
      listing_sales: 2,
      listing_sides: 1,
      buyer_sales: 3,
      buyer_sides: 3,
      total_sides: 4,
    })
    expect(body.facets).toEqual({ propertyTypes: ['Condo', 'Land', 'Residential'] })
  })

  it.each([
    ['listing_sales', ['J', 'G', 'I', 'H']],
    ['buyer_sales', ['H', 'I', 'G', 'J']],
    ['volume', ['H', 'G', 'I', 'J']],
  ])('sorts by %s', async (sort, expected) => {
    const { body } = await zip({ sort })
    expect(order(body.agents)).toEqual(expected)
    expect(body.sort).toBe(sort)
  })

  it('sorts by sale-to-list with enough sales first: J at 91 % on 5 sales before agents with fewer', async () => {
    const { body } = await zip({ sort: 'sale_to_list' })
    expect(order(body.agents)[0]).toBe('J')
    expect(body.agents[0]!.area_figures).toMatchObject({ sale_to_list_mean: 91, sale_to_list_n: 5 })
    // fewer than 5 sales: shrunk toward the area's mean, so 100 % on 3 sales sits below the mean's pull of J's 91 %
    const g = body.agents.find((agent) => agent.id === ids.G)!.area_figures!
    expect(g.sale_to_list_n).toBe(3)
    expect(g.sale_to_list_shrunk!).toBeLessThan(100)
    expect(g.sale_to_list_shrunk!).toBeGreaterThan(91)
  })

  it('filters by side, price band and property type, like with like', async () => {
    const buyers = await zip({ side: 'buyer' })
    expect(order(buyers.body.agents)).toEqual(['H', 'I'])
    expect(buyers.body.totalResults).toBe(2)
    const band = await zip({ minPrice: 350_000, maxPrice: 600_000 })
    expect(order(band.body.agents)).toEqual(['H', 'G', 'I'])
    const condos = await zip({ propertyType: 'condo' })
    expect(order(condos.body.agents)).toEqual(['I'])
    expect(condos.body.agents[0]!.area_figures).toMatchObject({ sales: 1, sides: 2, listing_sides: 1, buyer_sides: 1 })
  })

  it.each([
    [{ query: 'Sidesworth', sort: 'volume' }, 'sort', 'Sorting and filters apply to ZIP code and address searches.'],
    [
      { query: '99966', type: 'zipcode', sort: 'best' },
      'sort',
      'Sort by sides, listing_sales, buyer_sales, volume or sale_to_list.',
    ],
    [{ query: '99966', type: 'zipcode', side: 'seller' }, 'side', 'side must be any, listing or buyer.'],
    [
      { query: '99966', type: 'zipcode', minPrice: 500_000, maxPrice: 100_000 },
      'minPrice',
      'The lowest price must not be above the highest price.',
    ],
    [
      { query: '99966', type: 'zipcode', maxPrice: -1 },
      'maxPrice',
      'maxPrice must be a whole number from 0 to 500000000.',
    ],
  ])('refuses %j with 400', async (body, _field, message) => {
    const { status, body: answer } = await search(body)
    expect(status).toBe(400)
    expect(answer.error).toBe(message)
  })
})

describe('address search', () => {
  it('resolves a known property (abbreviations, a typo) and ranks its ZIP and the nearest ones', async () => {
    for (const query of ['742 Evergreen Ter', '742 Evergren Terrace, Marrowby, WY']) {
      const { status, body } = await search({ query, type: 'address' })
      expect(status).toBe(200)
      expect(body.location).toEqual({ city: 'Marrowby', state: 'WY', zipCode: '99963' })
      expect(body.message).toBeUndefined()
      // 99963 plus 99961 and 99962 (within 20 miles); 99964 (about 200 miles away) is left out
      expect(new Set(names(body.agents))).toEqual(new Set([NAMES.A, NAMES.B, NAMES.C, NAMES.D]))
      expect(body.agents.find((agent) => agent.id === ids.D)!.sales_in_area).toBe(9)
      expect(body.agents[0]!.name).toBe(NAMES.D)
    }
  })

  it("finds the closest street among the sales of the ZIP named in the text, and no other ZIP's", async () => {
    const resolve = async (query: string) =>
      (
        await sql<{ resolved_by: string; zip_code: string | null }>(
          `select resolved_by, zip_code from public.search_resolve_address($1)`,
          [query],
        )
      )[0]
    // a typo of a sale in 99963, with its ZIP: the property (not only the ZIP) is found
    expect(await resolve('742 Evergren Terrace, WY 99963')).toEqual({ resolved_by: 'property', zip_code: '99963' })
    // the same typo with another known ZIP: that ZIP, as no sale there is close
    expect(await resolve('742 Evergren Terrace, WY 99962')).toEqual({ resolved_by: 'zip', zip_code: '99962' })
  })

  it('finds a sale whose address holds its house number in capitals and a unit after it, by a typo and its ZIP', async () => {
    // (rolled back: the sale is seen by this transaction only)
    const client = new pg.Client({ connectionString: testEnv.databaseUrl })
    await client.connect()
    try {
      await client.query('begin')
      await client.query(
        `insert into public.properties (agent_id, address, city, state, zip_code, list_price, sale_price, sale_date,
                                        standard_status, status)
         select id, '12B Evergreen Terrace, Unit 4', 'Marrowby', 'WY', '99963', 500000, 500000, current_date - 4,
                'Closed', 'sold'
           from public.agents where name = $1`,
        [NAMES.D],
      )
      const resolve = async (query: string) =>
        (
          await client.query<{ resolved_by: string; zip_code: string | null }>(
            `select resolved_by, zip_code from public.search_resolve_address($1)`,
            [query],
          )
        ).rows[0]
      // the ZIP's sales are narrowed to those holding the house number before their streets are compared: "12b" is
      // in "12B Evergreen Terrace, Unit 4" once lower-cased
      expect(await resolve('12b Evergren Terrace, WY 99963')).toEqual({ resolved_by: 'property', zip_code: '99963' })
      // no sale in the ZIP holds the number: the ZIP
      expect(await resolve('13b Evergren Terrace, WY 99963')).toEqual({ resolved_by: 'zip', zip_code: '99963' })
    } finally {
      await client.query('rollback')
      await client.end()
    }
  })

  it("finds the closest street among the sales of the city (or state) named in the text, and no other's", async () => {
    const resolve = async (query: string) =>
      (
        await sql<{ resolved_by: string; zip_code: string | null; city: string | null }>(
          `select resolved_by, zip_code, city from public.search_resolve_address($1)`,
          [query],
        )
      )[0]
    // a typo of a sale in Marrowby, with its city and state: the property is found
    expect(await resolve('742 Evergren Terrace, Marrowby, WY')).toEqual({
      resolved_by: 'property',
      zip_code: '99963',
      city: 'Marrowby',
    })
    // the same typo in another city of the state: that city, as none of its sales is on a close street
    expect(await resolve('742 Evergren Terrace, Quillhaven, WY')).toMatchObject({
      resolved_by: 'city',
      city: 'Quillhaven',
    })
    // with a state alone: that state's sales, and no other state's
    expect(await resolve('742 Evergren Terrace, WY')).toMatchObject({ resolved_by: 'property', zip_code: '99963' })
    expect(await resolve('742 Evergren Terrace, MT')).toBeUndefined()
  })

  it('resolves a ZIP inside the text', async () => {
    const { body } = await search({ query: '1 Nowhere Lane, Quillhaven, WY 99962', type: 'address' })
    expect(body.location).toEqual({ city: 'Quillhaven', state: 'WY', zipCode: '99962' })
    expect(names(body.agents)[0]).toBe(NAMES.D)
    expect(body.agents.find((agent) => agent.id === ids.C)!.sales_in_area).toBe(8)
    expect(body.totalResults).toBe(4)
  })

  it("pages through the ranking across ZIPs, with each agent's place in the whole area", async () => {
    const query = '1 Nowhere Lane, Quillhaven, WY 99962'
    const whole = await search({ query, type: 'address' })
    expect(whole.body.agents.map((agent) => agent.area_rank)).toEqual([1, 2, 3, 4])
    const second = await search({ query, type: 'address', limit: 2, offset: 2 })
    expect(second.body).toMatchObject({ totalResults: 4, limit: 2, offset: 2 })
    expect(second.body.agents.map((agent) => [agent.name, agent.area_rank, agent.sales_in_area])).toEqual(
      whole.body.agents.slice(2).map((agent) => [agent.name, agent.area_rank, agent.sales_in_area]),
    )
  })

  it('resolves "City, ST" to the city\'s ZIPs', async () => {
    const { body } = await search({ query: 'quillhaven, wy', type: 'address' })
    expect(body.location).toEqual({ city: 'Quillhaven', state: 'WY', zipCode: null })
    expect(names(body.agents)).toEqual([NAMES.C, NAMES.B, NAMES.A])
  })

  it('answers an address it cannot resolve with a message and no agents', async () => {
    const { status, body } = await search({ query: '1 Nonexistent Road, Nowhereville, QQ', type: 'address' })
    expect(status).toBe(200)
    expect(body).toMatchObject({ agents: [], totalResults: 0, location: null })
    expect(body.message).toBe(
      'We could not find that address. Check the spelling, or search by ZIP code or "City, ST".',
    )
  })
})

/**
 * Runs `work` in a transaction on its own connection as the superuser and rolls it back. `repeatableRead`: one
 * snapshot for every statement, so rows other test files commit meanwhile (integration files run two at a time)
 * stay invisible; a serialization failure (40001, a concurrent update of a row `work` updates) retries, up to 3 times.
 */
async function inRolledBackTransaction<T>(
  work: (client: pg.Client) => Promise<T>,
  options: { repeatableRead?: boolean } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const client = new pg.Client({ connectionString: testEnv.databaseUrl })
    await client.connect()
    try {
      await client.query(options.repeatableRead ? 'begin isolation level repeatable read' : 'begin')
      return await work(client)
    } catch (error) {
      if (!(options.repeatableRead && (error as { code?: string }).code === '40001' && attempt < 3)) throw error
    } finally {
      await client.query('rollback').catch(() => undefined)
      await client.end()
    }
  }
}

interface SummaryRow {
  agent_id: string
  closed_sales: number
  sales_volume: number
  last_close_date: string
}

const summaryOf = async (client: pg.Client | null, zip: string): Promise<SummaryRow[]> => {
  const text = `select agent_id, closed_sales, sales_volume::float8 as sales_volume, (current_date - last_close_date) || ' days ago' as last_close_date
                from public.agent_zip_sales where zip_code = $1 order by closed_sales desc, sales_volume desc`
  return client ? (await client.query<SummaryRow>(text, [zip])).rows : sql<SummaryRow>(text, [zip])
}

describe('closed-sales summary (agent_zip_sales)', () => {
  it("holds the window's closed sales per ZIP and agent after a refresh, out-of-window sales left out", async () => {
    expect(await summaryOf(null, '99961')).toEqual([
      { agent_id: ids.B, closed_sales: 6, sales_volume: 3_000_000, last_close_date: '5 days ago' },
      { agent_id: ids.A, closed_sales: 6, sales_volume: 2_400_000, last_close_date: '5 days ago' },
      { agent_id: ids.C, closed_sales: 3, sales_volume: 1_350_000, last_close_date: '5 days ago' },
    ])
    expect(await summaryOf(null, '99963')).toEqual([
      { agent_id: ids.D, closed_sales: 9, sales_volume: 8 * 600_000 + 640_000, last_close_date: '3 days ago' },
    ])
  })

  it('is read by anyone, like the sales it sums', async () => {
    const { data, error } = await anonClient()
      .from('agent_zip_sales')
      .select('agent_id, closed_sales')
      .eq('zip_code', '99963')
    expect(error).toBeNull()
    expect(data).toEqual([{ agent_id: ids.D, closed_sales: 9 }])
  })

  it('follows new and removed sales at the next refresh, and the ZIP search ranks from it', async () => {
    await inRolledBackTransaction(async (client) => {
      const zipSearch = async () =>
        (await client.query<{ r: SearchAgentsResponse }>(`select public.search_agents('99961', 'zipcode', 20, 0) as r`))
          .rows[0]!.r
      // F sells 7 homes in 99961: not counted until the importer refreshes
      await insertSales(
        Array.from({ length: 7 }, (_, index) => ({
          agentId: ids.F,
          address: `${index + 1} Summary Row`,
          city: 'Quillhaven',
          state: 'WY',
          zip: '99961',
          listPrice: 100000,
          salePrice: 100000,
          daysAgo: 2,
        })),
        clientDb(client),
      )
      expect(names((await zipSearch()).agents)).toEqual([NAMES.B, NAMES.A, NAMES.C])

      await client.query(`select public.refresh_agent_metrics()`)
      expect((await summaryOf(client, '99961'))[0]).toEqual({
        agent_id: ids.F,
        closed_sales: 7,
        sales_volume: 700_000,
        last_close_date: '2 days ago',
      })
      const after = await zipSearch()
      expect(names(after.agents)).toEqual([NAMES.F, NAMES.B, NAMES.A, NAMES.C])
      expect(after.agents[0]).toMatchObject({ sales_in_area: 7, area_rank: 1 })
      expect(after.totalResults).toBe(4)

      // the sales go away again: the pair is deleted at the next refresh
      await client.query(`delete from public.properties where address like '% Summary Row' and zip_code = '99961'`)
      await client.query(`select public.refresh_agent_metrics()`)
      expect((await summaryOf(client, '99961')).map((row) => row.agent_id)).toEqual([ids.B, ids.A, ids.C])
    })
  })

  it('is not needed before the first refresh: the search then counts the closed sales itself', async () => {
    // repeatable read: one snapshot, so "no agent refreshed yet" and the closed-sales window hold for the whole
    // transaction. Under read committed, CI once got no agents here: a file running alongside that commits refreshed
    // agents (an import) in between sends the search down the summary path, whose 99961 rows this transaction deleted.
    await inRolledBackTransaction(
      async (client) => {
        await client.query(
          `update public.agents set metrics_refreshed_at = null where metrics_refreshed_at is not null`,
        )
        await client.query(`delete from public.agent_zip_sales where zip_code = '99961'`)
        const result = (
          await client.query<{ r: SearchAgentsResponse }>(`select public.search_agents('99961', 'zipcode', 20, 0) as r`)
        ).rows[0]!.r
        expect(names(result.agents)).toEqual([NAMES.B, NAMES.A, NAMES.C])
        expect(result.agents.map((agent) => agent.sales_in_area)).toEqual([6, 6, 3])
      },
      { repeatableRead: true },
    )
  })
})

describe('bad input', () => {
  it.each([
    [{ query: '   ' }, 'query', 'Enter a name, ZIP code or address to search for.'],
    [{}, 'query', 'Enter a name, ZIP code or address to search for.'],
    [{ query: 'x'.repeat(201) }, 'query', 'Your search is too long: use at most 200 characters.'],
    [{ query: 'Quackenbush', type: 'city' }, 'type', 'The search type must be agent, zipcode or address.'],
    [{ query: 'Quackenbush', limit: 51 }, 'limit', 'limit must be a whole number from 1 to 50.'],
    [{ query: 'Quackenbush', limit: 0 }, 'limit', 'limit must be a whole number from 1 to 50.'],
    [{ query: 'Quackenbush', offset: -1 }, 'offset', 'offset must be a whole number from 0 to 10000.'],
    [{ query: 'Quackenbush', offset: 1.5 }, 'offset', 'offset must be a whole number from 0 to 10000.'],
    [{ query: 'Cambridge', type: 'zipcode' }, 'query', 'Enter a 5-digit ZIP code, for example 02139.'],
  ])('refuses %j with 400 naming the field', async (body, field, message) => {
    const result = await search(body)
    expect(result.status).toBe(400)
    expect(result.body).toEqual({ error: message, errors: { [field]: message } })
  })

  it('accepts a query of exactly 200 characters after trimming', async () => {
    const result = await search({ query: `  ${'q'.repeat(200)}  ` })
    expect(result.status).toBe(200)
  })

  it('refuses a body that is not JSON', async () => {
    const response = await fetch(`${testEnv.url}/functions/v1/search-agents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${testEnv.anonKey}`, 'Content-Type': 'application/json' },
      body: '{query: nope',
    })
    expect(response.status).toBe(400)
    expect((await response.json()).error).toMatch(/^The request body must be a JSON object/)
  })
})

describe('browser access', () => {
  it('answers the CORS preflight and sends CORS headers', async () => {
    const preflight = await fetch(`${testEnv.url}/functions/v1/search-agents`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:4321',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization')
    const response = await fetch(`${testEnv.url}/functions/v1/search-agents`, {
      method: 'POST',
      headers: { Origin: 'http://localhost:4321', 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '99961', type: 'zipcode' }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })

  it("lets anon read an agent by id and their 10 most recent sales (the agent page's bounded function)", async () => {
    const anon = anonClient()
    const agent = await anon.from('agents').select('id, name, total_sales, local_ranking').eq('id', ids.D).single()
    expect(agent.error).toBeNull()
    expect(agent.data).toMatchObject({ name: NAMES.D, total_sales: 9, local_ranking: 1 })
    const recent = await anon.rpc('agent_page_sales', { agent_ids: [ids.D], max_per_agent: 10 })
    expect(recent.error).toBeNull()
    expect(recent.data).toHaveLength(9)
    expect(recent.data![0]!.address).toBe('742 Evergreen Terrace')
  })
})

describe('search log', () => {
  it('logs each valid search without personal data, and not the refused ones', async () => {
    await search({ query: '99961', type: 'zipcode' })
    await search({ query: '742 Evergreen Ter', type: 'address' })
    expect((await search({ query: 'Refused Quackenbush', limit: 99 })).status).toBe(400)
    const rows = await sql<{
      query: string
      search_type: string
      resolved_zip_code: string | null
      resolved_city: string | null
      resolved_state: string | null
      results_count: number
    }>(
      `select query, search_type, resolved_zip_code, resolved_city, resolved_state, results_count
       from public.search_queries where created_at >= $1 order by created_at`,
      [startedAt],
    )
    expect(rows).toContainEqual({
      query: '99961',
      search_type: 'zipcode',
      resolved_zip_code: '99961',
      resolved_city: 'Quillhaven',
      resolved_state: 'WY',
      results_count: 3,
    })
    // the house number of a looked-up address is not stored
    expect(rows).toContainEqual({
      query: '# Evergreen Ter',
      search_type: 'address',
      resolved_zip_code: '99963',
      resolved_city: 'Marrowby',
      resolved_state: 'WY',
      results_count: 4,
    })
    expect(rows.some((row) => row.query.includes('742'))).toBe(false)
    expect(
      rows
        .filter((row) => row.query === 'Quackenbush')
        .every((row) => row.search_type === 'agent' && row.resolved_zip_code === null),
    ).toBe(true)
    expect(rows.some((row) => row.query === 'Refused Quackenbush')).toBe(false)
  })
})

describe('database path (searchAgentsLoggedAsServiceRole, what search-agents runs when SUPABASE_DB_URL is set)', () => {
  const args = { search_query: '99961', search_type: 'zipcode', result_limit: 20, result_offset: 0, log_query: '99961' }
  let db: postgres.Sql
  beforeAll(() => {
    // one connection, so the role check after the search reads the same session
    db = postgres(testEnv.databaseUrl, { max: 1, prepare: false, onnotice: () => {} })
  })
  afterAll(async () => {
    await db.end()
  })

  it('answers what search_agents() answers, logs the search, and leaves the session as it found it', async () => {
    const before = (
      await sql<{ n: number }>(
        `select count(*)::integer as n from public.search_queries where query = '99961' and created_at >= $1`,
        [startedAt],
      )
    )[0]!.n
    const result = await searchAgentsLoggedAsServiceRole(db, args)
    const expected = (await sql<{ r: unknown }>(`select public.search_agents('99961', 'zipcode', 20, 0) as r`))[0]!.r
    expect(result).toEqual(expected)
    expect((result as { totalResults: number }).totalResults).toBe(3)
    const after = (
      await sql<{ n: number }>(
        `select count(*)::integer as n from public.search_queries where query = '99961' and created_at >= $1`,
        [startedAt],
      )
    )[0]!.n
    expect(after).toBe(before + 1)
    // set_config(..., true) ended with the statement's implicit transaction
    expect((await db`select current_user as role`)[0]!.role).toBe('postgres')
  })

  it('runs the search as service_role: with service_role unable to execute search_agents() it fails, as the RPC path would', async () => {
    // inside a transaction that is rolled back, so no other test sees the revoke
    const failure = await db
      .begin(async (tx) => {
        await tx`revoke execute on function public.search_agents(text, text, integer, integer, jsonb) from service_role`
        await searchAgentsLoggedAsServiceRole(tx, args)
        throw new Error('the search ran with more than service_role may do')
      })
      .catch((error: unknown) => error as { code?: string; message: string })
    expect(failure.code).toBe('42501')
    expect(failure.message).toBe('permission denied for function search_agents')
    expect(
      (
        await db`select has_function_privilege('service_role', 'public.search_agents(text, text, integer, integer, jsonb)', 'execute') as ok`
      )[0]!.ok,
    ).toBe(true)
  })
})
