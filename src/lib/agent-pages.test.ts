import { describe, expect, it, vi } from 'vitest'

// the pure helpers only: no API client (it wants the build's environment)
vi.mock('./supabase', () => ({ supabase: {} }))

import { assembleZipPage, batch, groupCities, type ZipPageRef } from './agent-pages'
import type { AgentRow } from './agent-profile'

const zipRef = (zip: string, city: string | null, state: string | null, version = 1): ZipPageRef => ({
  zip,
  city,
  state,
  version,
  changedAt: '2026-11-26T00:00:00Z',
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
  it("ranks the ZIP's listing agents by closed sales, volume, then name, leaving out agents not read (no sales in the window)", () => {
    const page = assembleZipPage(
      zipRef('02139', 'Cambridge', 'MA'),
      [
        { zip_code: '02139', agent_id: 'b', closed_sales: 3, sales_volume: 900_000 },
        { zip_code: '02139', agent_id: 'a', closed_sales: 3, sales_volume: 900_000 },
        { zip_code: '02139', agent_id: 'c', closed_sales: 5, sales_volume: 100_000 },
        { zip_code: '02139', agent_id: 'gone', closed_sales: 9, sales_volume: 100_000 },
        // buyer sides only in this ZIP: not ranked here
        { zip_code: '02139', agent_id: 'd', closed_sales: 0, sales_volume: 0 },
        { zip_code: '02140', agent_id: 'a', closed_sales: 1, sales_volume: 1 },
      ],
      [agent('a', 'Ann'), agent('b', 'Bob'), agent('c', 'Cy'), agent('d', 'Di')],
      [],
    )
    expect(page.agents.map((row) => [row.agent.id, row.closedSales])).toEqual([
      ['c', 5],
      ['a', 3],
      ['b', 3],
    ])
    expect(page.benchmark).toBeNull()
    expect([page.city, page.state]).toEqual(['Cambridge', 'MA'])
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
