/**
 * Public writes and reads stay bounded: what an anonymous caller (anon key, or a signed-up visitor) can make the
 * stack store, and what it can read of the listing data. Each case is named after the rule it guards and drives it
 * over plain HTTP from its own loopback address (the gateway's hop, which a header cannot forge).
 */
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import {
  PAGE_VIEW_IP_LIMIT_VARIABLE,
  SEARCH_IP_LIMIT_VARIABLE,
  SEARCH_RATE_LIMIT_MESSAGE,
} from '@shared/public-limits.ts'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { anonClient, signedInClient, sql, testEnv, uniqueEmail } from '../support/env.ts'
import { testData } from '../support/factories.ts'
import { TEST_FUNCTION_LIMITS } from '../support/test-stack.ts'

const data = testData('public-writes')
afterAll(() => data.cleanup())

const searchLimit = TEST_FUNCTION_LIMITS[SEARCH_IP_LIMIT_VARIABLE as keyof typeof TEST_FUNCTION_LIMITS]
const pageViewIpLimit = TEST_FUNCTION_LIMITS[PAGE_VIEW_IP_LIMIT_VARIABLE as keyof typeof TEST_FUNCTION_LIMITS]

function callFunction(slug: string, body: unknown, from: string, headers: Record<string, string> = {}) {
  return fetchFrom(from, `${testEnv.url}/functions/v1/${slug}`, {
    method: 'POST',
    headers: {
      apikey: testEnv.anonKey,
      Authorization: `Bearer ${testEnv.anonKey}`,
      'Content-Type': 'application/json',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** Fixed one-minute windows (since the epoch) a run from `start` to `end` (ms) touched. */
const minuteWindows = (start: number, end: number) => Math.floor(end / 60_000) - Math.floor(start / 60_000) + 1

describe('visitors write only through the functions', () => {
  it('refuses a direct REST insert into report_requests and newsletter_subscriptions, single or bulk', async () => {
    const row = { full_name: 'Direct', email: uniqueEmail('direct') }
    const { client } = await signedInClient()
    for (const caller of [anonClient(), client]) {
      const lead = await caller.from('report_requests').insert(row)
      expect(lead.error).toMatchObject({ code: '42501', message: 'permission denied for table report_requests' })
    }
    const bulk = await anonClient()
      .from('newsletter_subscriptions')
      .insert(Array.from({ length: 1000 }, (_, index) => ({ email: `bulk-${Date.now()}-${index}@example.com` })))
    expect(bulk.error).toMatchObject({ code: '42501', message: 'permission denied for table newsletter_subscriptions' })
    expect(await sql('select 1 from public.report_requests where email = $1', [row.email])).toEqual([])
  })
})

describe('per-IP limits that headers cannot reset', () => {
  it(
    `search-agents cuts one client IP off after ${searchLimit} searches a minute, whatever X-Forwarded-For and User-Agent it sends`,
    {
      timeout: 120_000,
    },
    async () => {
      const from = freshLoopback()
      const started = Date.now()
      let allowed = 0
      let refused: Response | null = null
      for (let index = 0; index < searchLimit * 3 && !refused; index += 1) {
        const response = await callFunction('search-agents', { query: `Limit Probe ${index % 7}` }, from, {
          'X-Forwarded-For': `203.0.113.${index % 250}`,
          'User-Agent': `Mozilla/5.0 probe-${index}`,
        })
        if (response.status === 429) refused = response
        else {
          expect(response.status).toBe(200)
          allowed += 1
        }
      }
      expect(refused, 'a 429 after the limit').not.toBeNull()
      expect(allowed).toBeGreaterThanOrEqual(searchLimit)
      expect(allowed).toBeLessThanOrEqual(searchLimit * minuteWindows(started, Date.now()))
      expect(refused!.headers.get('retry-after')).toBe('60')
      expect(await refused!.json()).toEqual({ error: SEARCH_RATE_LIMIT_MESSAGE })
      // another address is not affected
      expect((await callFunction('search-agents', { query: 'Limit Probe' }, freshLoopback())).status).toBe(200)
    },
  )

  it(
    `track-pageview stores at most ${pageViewIpLimit} of 1,000 views a minute from one IP with rotating User-Agents`,
    {
      timeout: 240_000,
    },
    async () => {
      const from = freshLoopback()
      const path = `/security-rotating-ua-${Date.now()}`
      const started = Date.now()
      const statuses = new Map<number, number>()
      const others: string[] = []
      // twenty at a time, as a script hammering the endpoint would; the bound below allows for every minute it spans
      for (let batch = 0; batch < 1000; batch += 20) {
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, offset) =>
            callFunction('track-pageview', { path }, from, {
              'User-Agent': `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 rotating-${batch + offset}`,
              'X-Forwarded-For': `198.51.100.${(batch + offset) % 250}`,
            }),
          ),
        )
        for (const response of responses) {
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          if (response.status !== 201 && response.status !== 429)
            others.push(`${response.status} ${await response.text()}`)
        }
      }
      const windows = minuteWindows(started, Date.now())
      const [{ stored }] = await sql<{ stored: number }>(
        'select count(*)::int as stored from public.page_views where path = $1',
        [path],
      )
      // every answer is stored (201) or refused (429); anything else is named in the failure
      expect(others).toEqual([])
      expect(Object.fromEntries(statuses)).toEqual({ 201: stored, 429: 1000 - stored })
      expect(stored).toBeGreaterThanOrEqual(pageViewIpLimit)
      expect(stored).toBeLessThanOrEqual(pageViewIpLimit * windows)
    },
  )

  it('a forged X-Forwarded-For does not reset a spent page-view bucket', async () => {
    const from = freshLoopback()
    const ua = `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 security-spoof-${Date.now()}`
    const view = (fake: string) =>
      callFunction('track-pageview', { path: '/security-spoof' }, from, { 'User-Agent': ua, 'X-Forwarded-For': fake })
    for (let index = 0; index < 30; index += 1) expect((await view(`203.0.113.${index}`)).status).toBe(201)
    expect((await view('198.51.100.99')).status).toBe(429)
  })
})

describe('raw events are kept only as long as something reads them', () => {
  it('rolls raw searches and page views into daily totals, then deletes searches after 90 days and views after 200', async () => {
    // inside a transaction that is rolled back: the roll-up and the deletes touch every test file's rows
    const client = new pg.Client({ connectionString: testEnv.databaseUrl })
    await client.connect()
    try {
      await client.query('begin')
      const marker = `retention-${Date.now()}`
      const at = (days: number) => `now() - interval '${days} days'`
      await client.query(
        `insert into public.search_queries (query, search_type, resolved_city, results_count, created_at) values
           ($1, 'agent', $1, 1, ${at(95)}), ($1, 'agent', $1, 1, ${at(95)}), ($1, 'agent', $1, 1, ${at(5)})`,
        [marker],
      )
      await client.query(
        `insert into public.page_views (path, device_class, visitor_hash, created_at) values
           ($1, 'desktop', repeat('a', 64), ${at(205)}), ($1, 'desktop', repeat('b', 64), ${at(205)}),
           ($1, 'desktop', repeat('a', 64), ${at(205)}), ($1, 'mobile', repeat('c', 64), ${at(150)})`,
        [`/${marker}`],
      )
      await client.query(`select private.prune_raw_events()`)

      const searches = await client.query(
        `select (now()::date - day) as age, searches from public.search_days where resolved_city = $1 order by age`,
        [marker],
      )
      expect(searches.rows.map((row) => [Number(row.age) >= 94 && Number(row.age) <= 96, row.searches])).toEqual([
        [false, 1],
        [true, 2],
      ])
      const rawSearches = await client.query(`select count(*)::int as n from public.search_queries where query = $1`, [
        marker,
      ])
      expect(rawSearches.rows[0].n).toBe(1)

      const views = await client.query(
        `select device_class, views, visitors from public.page_view_days where path = $1 order by day`,
        [`/${marker}`],
      )
      expect(views.rows).toEqual([
        { device_class: 'desktop', views: 3, visitors: 2 },
        { device_class: 'mobile', views: 1, visitors: 1 },
      ])
      const rawViews = await client.query(`select device_class from public.page_views where path = $1`, [`/${marker}`])
      expect(rawViews.rows).toEqual([{ device_class: 'mobile' }])

      // hosted: the migration schedules the job when pg_cron is enabled (the test stack unschedules it)
      await client.query(`select private.schedule_raw_event_retention()`)
      const job = await client.query(`select schedule, command from cron.job where jobname = 'prune-raw-events'`)
      expect(job.rows).toEqual([{ schedule: '*/30 * * * *', command: 'select private.prune_raw_events()' }])
    } finally {
      await client.query('rollback')
      await client.end()
    }
  })
})

describe('listing data is read per agent, bounded, with the columns a page prints', () => {
  it('anon cannot read properties beyond one agent page; signed-in visitors see no rows', async () => {
    const agentId = await data.agent({ name: 'Bounded Reads Agent' })
    try {
      await data.sales(
        Array.from({ length: 12 }, (_, index) => index + 1).map((g) => ({
          agentId,
          address: `${g} Bounded Way`,
          salePrice: 400000 + g,
          listPrice: 400000,
          daysAgo: g,
          latitude: 42.1,
          longitude: -71.1,
          listingContractDate: new Date(Date.now() - (g + 30) * 86_400_000).toISOString().slice(0, 10),
        })),
      )
      const whole = await anonClient().from('properties').select('id, latitude, listing_contract_date').limit(1)
      expect(whole.error).toMatchObject({ code: '42501', message: 'permission denied for table properties' })
      const { client } = await signedInClient()
      expect((await client.from('properties').select('id').eq('agent_id', agentId)).data).toEqual([])

      const page = await anonClient().rpc('agent_page_sales', { agent_ids: [agentId], max_per_agent: 10 })
      expect(page.error).toBeNull()
      expect(page.data).toHaveLength(10)
      expect(Object.keys(page.data![0]!).sort()).toEqual([
        'address',
        'agent_id',
        'city',
        'close_date',
        'close_price',
        'days_on_market',
        'id',
        'list_price',
        'role',
        'side',
        'source',
        'state',
        'zip_code',
      ])
      const tooMany = await anonClient().rpc('agent_page_sales', {
        agent_ids: Array.from({ length: 101 }, () => agentId),
        max_per_agent: 10,
      })
      expect(tooMany.error).toMatchObject({ code: '22023', message: 'agent_ids must name at most 100 agents' })
      const tooDeep = await anonClient().rpc('agent_page_sales', { agent_ids: [agentId], max_per_agent: 50 })
      expect(tooDeep.error).toMatchObject({ code: '22023', message: 'max_per_agent must be 1 to 10' })
      const quarters = await anonClient().rpc('agent_page_quarters', {
        agent_ids: Array.from({ length: 101 }, () => agentId),
      })
      expect(quarters.error).toMatchObject({ code: '22023' })
    } finally {
      await data.cleanup()
    }
  })

  it('whole-table functions are closed to anon and signed-in callers', async () => {
    const { client } = await signedInClient()
    for (const caller of [anonClient(), client]) {
      const calls = [
        ['agent_pages_fingerprint', caller.rpc('agent_pages_fingerprint')],
        ['agent_recent_sales', caller.rpc('agent_recent_sales', { max_per_agent: 10 })],
        ['agent_quarterly_sales', caller.rpc('agent_quarterly_sales', {})],
        ['search_normalize_address', anonClient().rpc('search_normalize_address', { address: '1 Main St' })],
        [
          'search_agents_by_name',
          caller.rpc('search_agents_by_name', { search_query: 'a', result_limit: 1e6, result_offset: 0 }),
        ],
        [
          'search_agents',
          caller.rpc('search_agents', { search_query: 'a', search_type: 'agent', result_limit: 20, result_offset: 0 }),
        ],
      ] as const
      for (const [name, call] of calls) {
        const { error } = await call
        expect(error, name).toMatchObject({ code: '42501', message: `permission denied for function ${name}` })
      }
    }
  })

  it('caps result_limit inside the search SQL at 50 rows', async () => {
    const agents = Array.from({ length: 60 }, (_, index) => `Capped Agentname ${index}`)
    await data.agents(agents.map((name) => ({ name })))
    const [row] = await sql<{ result: { agents: unknown[]; totalResults: number } }>(
      `select public.search_agents_by_name('Capped Agentname', 1000000, 0) as result`,
    )
    expect(row!.result.totalResults).toBeGreaterThanOrEqual(60)
    expect(row!.result.agents).toHaveLength(50)
  })
})

describe('page-view paths and referrers', () => {
  it('refuses a backslash path and stores a protocol-relative one as a path on this site', async () => {
    const ua = `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 security-path-${Date.now()}`
    const backslash = await callFunction('track-pageview', { path: '/\\evil.example/phish' }, freshLoopback(), {
      'User-Agent': ua,
    })
    expect(backslash.status).toBe(400)
    expect((await backslash.json()).error).toBe(
      'path must be a same-origin path: no backslashes, spaces or control characters',
    )
    const marker = `phish-${Date.now()}`
    const doubled = await callFunction('track-pageview', { path: `//evil.example/${marker}` }, freshLoopback(), {
      'User-Agent': ua,
    })
    expect(doubled.status).toBe(201)
    expect(await sql('select path from public.page_views where path like $1', [`%${marker}`])).toEqual([
      { path: `/evil.example/${marker}` },
    ])
  })

  it('stores the referrer as a host only', async () => {
    const marker = `/security-referrer-${Date.now()}`
    const ua = `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 security-ref-${Date.now()}`
    await callFunction(
      'track-pageview',
      { path: marker, referrer: 'https://news.example.org/story?id=1#x' },
      freshLoopback(),
      { 'User-Agent': ua },
    )
    expect(await sql('select referrer_host from public.page_views where path = $1', [marker])).toEqual([
      { referrer_host: 'news.example.org' },
    ])
  })
})
