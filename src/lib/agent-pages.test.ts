import { describe, expect, it, vi } from 'vitest'

// the pure helpers only: no API client (it wants the build's environment)
vi.mock('./supabase', () => ({ supabase: {} }))

import { MIN_SALES_TO_RANK } from '@shared/methodology.ts'
import {
  assembleCityPage,
  assembleZipPage,
  batch,
  cityPageCacheKey,
  groupCities,
  zipPageCacheKey,
  rankArea,
  readAhead,
  type CityPageRef,
  type CoverageRow,
  type RankedAgent,
  type ZipPage,
  type ZipPageRef,
  type ZipSalesRow,
} from './agent-pages'
import type { AgentRow, FiguresRow } from './agent-profile'
import { setRenderPlan } from './render-plan'
import { dataEntries } from './sitemap'

const zipRef = (zip: string, city: string | null, state: string | null, version = 1): ZipPageRef => ({
  zip,
  city,
  state,
  version,
  changedAt: '2026-11-26T00:00:00Z',
  cityVersion: version,
  cityChangedAt: '2026-11-26T00:00:00Z',
})

describe('page cache keys', () => {
  it("a city page's key follows its ZIPs' city versions, a ZIP page's key its own version", async () => {
    const [city] = groupCities([zipRef('05001', 'Keyton', 'VT', 10), zipRef('05002', 'Keyton', 'VT', 12)])
    const key = await cityPageCacheKey(city!)
    // an agent the ZIP page does not print changed a figure: the city version moves, the ZIP page's version stays
    const moved = { ...city!.zips[1]!, cityVersion: 13 }
    expect(await cityPageCacheKey({ ...city!, zips: [city!.zips[0]!, moved] })).not.toBe(key)
    expect(zipPageCacheKey(moved)).toBe(zipPageCacheKey(city!.zips[1]!))
    // the ZIP page's own version alone is not part of the city's key (it never moves without the city version)
    expect(await cityPageCacheKey({ ...city!, zips: [city!.zips[0]!, { ...city!.zips[1]!, version: 11 }] })).toBe(key)
  })

  it("a city page's sitemap lastmod is the newest city change of its ZIPs, a ZIP page's its own change", () => {
    const zips = [
      { ...zipRef('05001', 'Keyton', 'VT', 10), cityChangedAt: '2026-11-27T00:00:00Z' },
      {
        ...zipRef('05002', 'Keyton', 'VT', 12),
        changedAt: '2026-11-20T00:00:00Z',
        cityChangedAt: '2026-11-28T00:00:00Z',
      },
    ]
    const entries = dataEntries([], zips, groupCities(zips))
    expect(entries).toEqual([
      { path: '/agents/05001', lastmod: '2026-11-26T00:00:00Z' },
      { path: '/agents/05002', lastmod: '2026-11-20T00:00:00Z' },
      { path: '/agents/vt/keyton', lastmod: '2026-11-28T00:00:00Z' },
    ])
  })
})

describe('groupCities', () => {
  it('groups ZIP pages by state and city slug, named as the first ZIP spells it; ZIPs without a place have none', () => {
    const cities = groupCities([
      zipRef('85140', 'San Tan Valley', 'AZ'),
      zipRef('85143', 'San Tan valley', 'AZ'),
      zipRef('02139', 'Cambridge', 'MA'),
      zipRef('99999', null, 'MA'),
    ])
    expect(cities.map((city) => [city.stateSlug, city.citySlug, city.city, city.zips.map((zip) => zip.zip)])).toEqual([
      ['az', 'san-tan-valley', 'San Tan Valley', ['85140', '85143']],
      ['ma', 'cambridge', 'Cambridge', ['02139']],
    ])
  })
})

describe('assembleZipPage', () => {
  const agent = (id: string, name: string) => ({ id, name }) as AgentRow
  const figures = (agentId: string) => ({ agent_id: agentId, sale_to_list_mean: 101.5 }) as FiguresRow
  const row = (
    zip: string,
    agentId: string,
    listing: number,
    buyer: number,
    total: number,
    sides: number,
    volume: number,
  ): ZipSalesRow => ({
    zip_code: zip,
    agent_id: agentId,
    closed_sales: listing,
    buyer_sales: buyer,
    total_sales: total,
    sides,
    volume,
  })
  it('lists every agent with a side in the ZIP, ranked by sides then volume, those with too few sales after them', () => {
    const page = assembleZipPage(
      zipRef('02139', 'Cambridge', 'MA'),
      [
        // equal sides and volume: equal rank, in name order
        row('02139', 'b', 3, 3, 6, 5.5, 900_000),
        row('02139', 'a', 6, 0, 6, 5.5, 900_000),
        // most sides, though fewer listing sales than 'a'
        row('02139', 'c', 1, 6, 7, 7, 100_000),
        // the same sides as 'a' and 'b', less volume
        row('02139', 'e', 5, 0, 5, 5.5, 800_000),
        // buyer sides only there: listed, not ranked (4 sales, fewer than the 5 needed)
        row('02139', 'd', 0, 4, 4, 4, 2_000_000),
        // an agent not read (deleted meanwhile) and another ZIP's row are left out
        row('02139', 'gone', 9, 0, 9, 9, 100_000),
        row('02140', 'a', 1, 0, 1, 1, 1),
        // no counted sale there
        row('02139', 'f', 0, 0, 0, 0, 0),
      ],
      [agent('a', 'Ann'), agent('b', 'Bob'), agent('c', 'Cy'), agent('d', 'Di'), agent('e', 'Ed'), agent('f', 'Fay')],
      [figures('a'), figures('c')],
      [],
      [
        {
          zip_code: '02139',
          closed_sales: 31,
          first_close_date: '2025-01-02',
          last_close_date: '2026-10-30',
        } as CoverageRow,
      ],
    )
    expect(page.agents.map((agent) => [agent.agent.id, agent.rank, agent.sales, agent.sides])).toEqual([
      ['c', 1, 7, 7],
      ['a', 2, 6, 5.5],
      ['b', 2, 6, 5.5],
      ['e', 4, 5, 5.5],
      ['d', null, 4, 4],
    ])
    expect(page.agents[2]).toMatchObject({ listingSales: 3, buyerSales: 3, volume: 900_000, figures: null })
    expect(page.agents[1]!.figures?.sale_to_list_mean).toBe(101.5)
    expect(page.coverage?.closed_sales).toBe(31)
    expect(page.benchmark).toBeNull()
    expect([page.city, page.state]).toEqual(['Cambridge', 'MA'])
  })
})

describe('rankArea', () => {
  const ranked = (id: string, sales: number, sides: number, volume: number): RankedAgent => ({
    agent: { id, name: id.toUpperCase() } as AgentRow,
    figures: null,
    rank: 99,
    sales,
    listingSales: sales,
    buyerSales: 0,
    sides,
    volume,
  })
  it(`ranks only agents with ${MIN_SALES_TO_RANK} or more sales there; equal sides and volume share a rank`, () => {
    const order = rankArea([
      ranked('few', MIN_SALES_TO_RANK - 1, 40, 9_000_000),
      ranked('x', MIN_SALES_TO_RANK, 5, 500_000),
      ranked('y', 8, 7.5, 100_000),
      ranked('z', 6, 5, 500_000),
      ranked('w', 6, 5, 400_000),
    ])
    expect(order.map((row) => [row.agent.id, row.rank])).toEqual([
      ['y', 1],
      ['x', 2],
      ['z', 2],
      ['w', 4],
      ['few', null],
    ])
  })
})

describe('assembleCityPage', () => {
  const cityRef: CityPageRef = {
    state: 'MA',
    city: 'Cambridge',
    stateSlug: 'ma',
    citySlug: 'cambridge',
    zips: [zipRef('02139', 'Cambridge', 'MA'), zipRef('02140', 'Cambridge', 'MA')],
  }
  const agent = (id: string, name: string) => ({ id, name }) as AgentRow
  const zipPage = (zip: string, rows: [string, number, number, number][]): ZipPage =>
    assembleZipPage(
      zipRef(zip, 'Cambridge', 'MA'),
      rows.map(([agentId, listing, buyer, volume]) => ({
        zip_code: zip,
        agent_id: agentId,
        closed_sales: listing,
        buyer_sales: buyer,
        total_sales: listing + buyer,
        sides: listing + buyer,
        volume,
      })),
      [agent('a', 'Ann'), agent('b', 'Bob')],
      [],
      [],
      [],
    )
  it("sums each agent's sales, sides and volume over the city's ZIPs and ranks the sums", () => {
    // in each ZIP alone Ann has too few sales to rank; in the city she has 6
    const first = zipPage('02139', [
      ['a', 3, 0, 300_000],
      ['b', 4, 1, 900_000],
    ])
    const second = zipPage('02140', [['a', 1, 2, 400_000]])
    expect(first.agents.map((row) => [row.agent.id, row.rank])).toEqual([
      ['b', 1],
      ['a', null],
    ])
    const page = assembleCityPage(cityRef, [first, second])
    expect(
      page.agents.map((row) => [row.agent.id, row.rank, row.sales, row.listingSales, row.buyerSales, row.volume]),
    ).toEqual([
      ['a', 1, 6, 4, 2, 700_000],
      ['b', 2, 5, 4, 1, 900_000],
    ])
    // the ZIP pages keep their own figures
    expect(first.agents.find((row) => row.agent.id === 'a')).toMatchObject({ sales: 3, rank: null })
    expect(page.zips).toEqual([first, second])
  })
})

describe('batch', () => {
  it('joins the calls made together into one read of up to `max` keys, and fails only the calls of a failed read', async () => {
    const reads: string[][] = []
    const load = batch(async (keys: string[]) => {
      reads.push(keys)
      if (keys.includes('bad')) throw new Error('read failed')
      return new Map(keys.map((key) => [key, key.toUpperCase()]))
    }, 2)
    const results = await Promise.allSettled(['a', 'b', 'a', 'bad', 'c'].map((key) => load(key)))
    expect(reads).toEqual([['a', 'b'], ['a', 'bad'], ['c']])
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : 'failed'))).toEqual([
      'A',
      'B',
      'failed',
      'failed',
      'C',
    ])
    // nothing is cached: a later call reads again
    expect(await load('a')).toBe('A')
    expect(reads.at(-1)).toEqual(['a'])
  })
})

describe('readAhead', () => {
  /** A loader over the plan `/page/a`.. with groups of 2, recording its reads. */
  const loader = (planned: string[]) => {
    setRenderPlan(new Map([['/page/[id]', planned.map((id) => `/page/${id}`)]]))
    const reads: string[][] = []
    const fallbacks: string[] = []
    const load = readAhead({
      route: '/page/[id]',
      nameOf: (pathname) => pathname.split('/')[2]!,
      name: (id: string) => id,
      keysOf: async (ids) => ids,
      fetchMany: async (ids: string[]) => {
        reads.push(ids)
        if (ids.includes('bad')) throw new Error('read failed')
        return new Map(ids.map((id) => [id, id.toUpperCase()]))
      },
      fallback: async (id) => {
        fallbacks.push(id)
        return `${id.toUpperCase()} alone`
      },
      size: 2,
    })
    return { load, reads, fallbacks }
  }

  it("reads the planned pages a group at a time in plan order, the next group with the first page's render", async () => {
    const { load, reads, fallbacks } = loader(['a', 'b', 'c', 'd', 'e'])
    expect(await load('a')).toBe('A')
    // the group of 'a' and the one after it: 'c' and 'd' are read before their renders ask
    expect(reads).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
    expect(await Promise.all(['b', 'c', 'd', 'e'].map((id) => load(id)))).toEqual(['B', 'C', 'D', 'E'])
    expect(reads).toEqual([['a', 'b'], ['c', 'd'], ['e']])
    expect(fallbacks).toEqual([])
  })

  it('reads a page outside the plan through the fallback, and never reads an unplanned page with the planned ones', async () => {
    const { load, reads, fallbacks } = loader(['a', 'b'])
    expect(await load('x')).toBe('X alone')
    expect(await load('b')).toBe('B')
    expect(reads).toEqual([['a', 'b']])
    expect(fallbacks).toEqual(['x'])
    // a planned page asked again (taken already) is read on its own
    expect(await load('b')).toBe('B alone')
  })

  it('reads along a widened plan from the next call on', async () => {
    const { load, reads } = loader(['b'])
    expect(await load('b')).toBe('B')
    setRenderPlan(new Map([['/page/[id]', ['/page/a', '/page/b', '/page/c']]]))
    expect(await load('c')).toBe('C')
    expect(reads).toEqual([['b'], ['c']])
  })

  it('fails the renders of a group whose read failed, also when it was read ahead, and no other', async () => {
    const { load } = loader(['a', 'b', 'bad', 'c'])
    expect(await load('a')).toBe('A')
    await expect(load('c')).rejects.toThrow('read failed')
    await expect(load('bad')).rejects.toThrow('read failed')
    expect(await load('b')).toBe('B')
  })
})
