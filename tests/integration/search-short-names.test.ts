/**
 * Agent-name searches of one or two letters through the search-agents function (anon key): two letters list the
 * agents with a name word starting with them (an exact word first, then by total sales), several two-letter words
 * must each start a word of the name, and one letter answers with the message asking for more. Fixture agents are
 * named with the prefixes 'qx' and 'yv', which no seed or other test uses.
 */
import { FunctionsHttpError } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SearchAgentsResponse } from '@shared/search-contract.ts'
import { anonClient, sql } from '../support/env.ts'
import { makeSales, refreshAgentMetrics, testData } from '../support/factories.ts'

const BROKERAGE = 'Short Name Fixture Realty'

/** [name, total sales]; the sales decide the order of equal matches. */
const AGENTS: [string, number][] = [
  ['Qxandra Yvelle', 12],
  ['Marten Qxorn', 30],
  ['Qx Albright', 2],
  ['Tobin Qxley', 7],
  ['Yvonne Parrish', 50],
]

async function search(query: string, extra: Record<string, unknown> = {}) {
  const { data, error } = await anonClient().functions.invoke('search-agents', {
    body: { query, type: 'agent', ...extra },
  })
  if (error instanceof FunctionsHttpError) throw new Error(await (error.context as Response).text())
  if (error) throw error
  return data as SearchAgentsResponse
}

const data = testData('search-short-names')

beforeAll(async () => {
  // leftovers of an interrupted run of this file
  await sql(`delete from public.agents where brokerage = $1`, [BROKERAGE])
  const ids = await data.agents(AGENTS.map(([name, totalSales]) => ({ name, brokerage: BROKERAGE, totalSales })))
  // the totals rest on that many closed sales in the window, so a metrics refresh by another file running meanwhile
  // recomputes the same totals instead of zeroing them (the order of equal matches would then be by name)
  await data.sales(
    AGENTS.flatMap(([name, totalSales], index) =>
      makeSales(name.replace(/\W/g, ''), totalSales).map((sale) => ({
        ...sale,
        agentId: ids[index]!,
        standardStatus: 'Closed',
        status: 'sold',
      })),
    ),
  )
  // the order below is then the refreshed one
  await refreshAgentMetrics()
})

afterAll(() => data.cleanup())

describe('agent-name search of one or two letters', () => {
  it('lists the agents with a name word starting with two letters: an exact word first, then by sales', async () => {
    const answer = await search('Qx')
    expect(answer.agents.map((agent) => agent.name)).toEqual([
      'Qx Albright',
      'Marten Qxorn',
      'Qxandra Yvelle',
      'Tobin Qxley',
    ])
    expect(answer.totalResults).toBe(4)
    expect(answer.message).toBeUndefined()
    // case and surrounding spaces do not matter; paging works as for longer queries
    const second = await search('  qX ', { limit: 2, offset: 2 })
    expect(second.agents.map((agent) => agent.name)).toEqual(['Qxandra Yvelle', 'Tobin Qxley'])
    expect(second.totalResults).toBe(4)
  })

  it('matches a last name as well as a first name, and needs every two-letter word', async () => {
    expect((await search('Yv')).agents.map((agent) => agent.name)).toEqual(['Yvonne Parrish', 'Qxandra Yvelle'])
    expect((await search('Qx Yv')).agents.map((agent) => agent.name)).toEqual(['Qxandra Yvelle'])
    // a one-letter word beside a two-letter one is ignored, as beside longer words
    expect((await search('Yv P')).agents.map((agent) => agent.name)).toEqual(['Yvonne Parrish', 'Qxandra Yvelle'])
  })

  it('asks for more letters when no word has two', async () => {
    for (const query of ['Q', 'q y']) {
      const answer = await search(query)
      expect(answer).toMatchObject({
        agents: [],
        totalResults: 0,
        message: "Enter at least 2 letters of the agent's name.",
      })
    }
  })

  it('leaves queries of three letters or more to the usual matching', async () => {
    const answer = await search('Qxandra Yvelle')
    expect(answer.agents[0]?.name).toBe('Qxandra Yvelle')
    expect(answer.message).toBeUndefined()
  })
})
