import { describe, expect, it } from 'vitest'

import type { AgentProfile } from './agent-profile'
import { compareLeaders, parseCompareIds } from './compare'

const a = '11111111-1111-4111-8111-111111111111'
const b = '22222222-2222-4222-8222-222222222222'

const profile = (name: string, shrunk: number | null, dom: number | null, sales: number, n = 8) =>
  ({
    agent: { name },
    figures: {
      agent_id: a,
      sale_to_list_shrunk: shrunk,
      sale_to_list_n: n,
      days_on_market_median: dom,
      days_on_market_n: n,
      total_sales: sales,
    },
  }) as unknown as AgentProfile

describe('parseCompareIds', () => {
  it('keeps 2-4 distinct uuids in order', () => {
    expect(parseCompareIds(`?agents=${b},${a.toUpperCase()},${b}`)).toEqual({ ok: true, ids: [b, a] })
  })
  it('names the problem', () => {
    expect(parseCompareIds(`?agents=${a}`)).toEqual({ ok: false, message: 'Choose at least 2 agents to compare.' })
    expect(parseCompareIds('')).toEqual({ ok: false, message: 'Choose at least 2 agents to compare.' })
    expect(parseCompareIds(`?agents=${a},nope`)).toEqual({ ok: false, message: '"nope" is not an agent id.' })
    const five = Array.from({ length: 5 }, (_, i) => `${i}1111111-1111-4111-8111-111111111111`).join(',')
    expect(parseCompareIds(`?agents=${five}`)).toEqual({ ok: false, message: 'Compare at most 4 agents at a time.' })
  })
})

describe('compareLeaders', () => {
  it('names who leads on each measure and skips ties', () => {
    expect(compareLeaders([profile('Ann', 101.5, 20, 12), profile('Bob', 99, 12, 12)])).toEqual([
      'Ann gets the highest share of list price (101.5% sale-to-list, adjusted for sample size).',
      'Bob sells fastest (median 12 days on market).',
    ])
    expect(compareLeaders([profile('Ann', null, null, 3), profile('Bob', 99, null, 3)])).toEqual([])
    expect(compareLeaders([profile('Ann', 100, null, 3), profile('Bob', 99, null, 14)])).toEqual([
      'Ann gets the highest share of list price (100.0% sale-to-list, adjusted for sample size).',
      'Bob has the most closed sales, both sides (14).',
    ])
  })

  it('lets no rate on fewer than 5 sales lead', () => {
    expect(compareLeaders([profile('Ann', 104, 5, 4, 4), profile('Bob', 100, 30, 4, 9)])).toEqual([])
  })

  it('skips agents without figures', () => {
    const none = { agent: { name: 'Cy' }, figures: null } as unknown as AgentProfile
    expect(compareLeaders([none, profile('Bob', 100, 30, 9)])).toEqual([])
  })
})
