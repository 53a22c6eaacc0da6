/**
 * The database groups ZIP pages into city pages by the path it computes (private.city_page_path: the state
 * lower-case and the city's slug), and keeps each city page's printed agents by it; the site groups them by the slug
 * rule of supabase/functions/_shared/slug.ts. The two must agree on every city name, or a city page's version would not
 * follow the agents it prints. A city page's printed agents are ranked after the refresh that recomputed its ZIPs
 * (private.rank_stale_city_pages), and a city marked stale again while that ranking runs stays stale. Without pg_cron's
 * job that ranks them, the next refresh ranks them before it starts.
 */
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { sql } from '../support/env.ts'
import { createAgents, makeSales, refreshAgentMetrics, unusedZip } from '../support/factories.ts'
import { slugify } from '@shared/slug.ts'

/** Real and awkward city names: accents, apostrophes, dots, hyphens, runs of punctuation, non-Latin letters, lengths. */
const CITIES = [
  'Boston',
  'San Tan Valley',
  'San Tan valley',
  "Coeur d'Alene",
  'Cañon City',
  'St. Louis',
  'Winston-Salem',
  'Ste. Genevieve',
  'Mañana   Heights',
  ' --Leading and trailing-- ',
  'Española',
  'Lā‘ie',
  'Hagåtña',
  'Ærø Ø',
  'München',
  'İstanbul',
  'Straße',
  'Twentynine Palms',
  '29 Palms',
  'ＦＵＬＬＷＩＤＴＨ Town',
  'Ⅻ Oaks',
  'Llanfair pwllgwyngyll gogery chwyrn drobwll llan tysilio gogo goch and then some more words here',
  'a'.repeat(100),
  `${'b'.repeat(79)} tail`,
  `${'c'.repeat(80)}-d`,
  '東京',
  '!!!',
  '',
]

describe('city page paths', () => {
  it('are the state lower-case and the site slug of the city, for every name; none without a slug', async () => {
    const rows = await sql<{ city: string; path: string | null }>(
      `select c.city, private.city_page_path('VT', c.city) as path from unnest($1::text[]) as c (city)`,
      [CITIES],
    )
    expect(rows.map((row) => [row.city, row.path])).toEqual(
      CITIES.map((city) => [city, slugify(city) ? `vt/${slugify(city)}` : null]),
    )
  })

  it('are null without a state or a city', async () => {
    const [row] = await sql<{ no_state: string | null; no_city: string | null }>(
      `select private.city_page_path(null, 'Boston') as no_state, private.city_page_path('MA', null) as no_city`,
    )
    expect(row).toEqual({ no_state: null, no_city: null })
  })

  it("are written with each ZIP page's place, and rank the city's agents", async () => {
    const zip = await unusedZip()
    const fixture = await createAgents(
      zip,
      [
        { name: 'Path Ranked', sales: makeSales('PathRanked', 5) },
        { name: 'Path Unranked', sales: makeSales('PathUnranked', 2) },
      ],
      'Cañon  City',
      'CO',
    )
    try {
      await refreshAgentMetrics()
      const rows = await sql<{ zip_code: string; city: string | null; state: string | null; path: string | null }>(
        `select zip_code, city, state, city_page_path as path from public.zip_page_versions`,
      )
      expect(rows.find((row) => row.zip_code === zip)).toEqual({
        zip_code: zip,
        city: 'Cañon  City',
        state: 'CO',
        path: 'co/canon-city',
      })
      for (const row of rows) {
        const slug = row.city ? slugify(row.city) : ''
        const expected = /^\d{5}$/.test(row.zip_code) && row.state && slug ? `${row.state.toLowerCase()}/${slug}` : null
        expect([row.zip_code, row.path]).toEqual([row.zip_code, expected])
      }
      // the city page prints its ranked agents (5 or more sales in the city) only, ranked after the refresh
      await sql(`select private.rank_stale_city_pages(wait => true)`)
      const top = await sql<{ agent_id: string }>(
        `select agent_id from private.city_top_agents where city_page_path = 'co/canon-city'`,
      )
      expect(top.map((row) => row.agent_id)).toEqual([fixture.agents[0]!.id])
    } finally {
      await fixture.remove()
    }
  })

  it('stay stale when marked again while their ranking runs, which never waits on the marking transaction', async () => {
    const path = `vt/stale-${Math.random().toString(36).slice(2, 8)}`
    const other = `${path}-other`
    const stale = () =>
      sql<{ city_page_path: string }>(
        `select city_page_path from private.city_pages_stale where city_page_path = any($1) order by 1`,
        [[path, other]],
      )
    await sql(`select private.mark_city_pages_stale($1)`, [[path, other]])
    const marker = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    await marker.connect()
    try {
      // a refresh in flight marks the city again (its row held until it commits)
      await marker.query('begin')
      await marker.query(`select private.mark_city_pages_stale(array[$1])`, [path])
      await sql(`select private.rank_stale_city_pages(wait => true)`)
      await marker.query('commit')
    } finally {
      await marker.end()
    }
    expect(await stale()).toEqual([{ city_page_path: path }])
    await sql(`select private.rank_stale_city_pages(wait => true)`)
    expect(await stale()).toEqual([])
  })

  it("are ranked by the next refresh when pg_cron's job does not rank them", async () => {
    const path = `vt/unranked-${Math.random().toString(36).slice(2, 8)}`
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    await client.connect()
    const marks = async () =>
      Number(
        (
          await client.query<{ n: number }>(
            `select count(*)::integer as n from private.city_pages_stale where city_page_path = $1`,
            [path],
          )
        ).rows[0]!.n,
      )
    const scheduled = async () =>
      (await client.query<{ scheduled: boolean }>(`select private.city_ranking_scheduled() as scheduled`)).rows[0]!
        .scheduled
    try {
      // one transaction, rolled back: no other connection sees the mark or the job go
      await client.query('begin')
      await client.query(`select private.mark_city_pages_stale(array[$1])`, [path])
      // the job scheduled (the local stand-in's pg_cron): the refresh leaves the ranking to it
      expect(await scheduled()).toBe(true)
      await client.query('select public.refresh_agent_metrics()')
      expect(await marks()).toBe(1)
      await client.query(`update cron.job set active = false where jobname = 'rank-stale-city-pages'`)
      expect(await scheduled()).toBe(false)
      await client.query('select public.refresh_agent_metrics()')
      expect(await marks()).toBe(0)
    } finally {
      await client.query('rollback')
      await client.end()
    }
  })
})
