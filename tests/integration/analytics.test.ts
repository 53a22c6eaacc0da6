/**
 * Cookie-free analytics: the track-pageview edge function (validation, bot filter, privacy of what is stored,
 * daily visitor hash, rate limit), the access rules on page_views and analytics_salts, and the admin aggregates
 * (analytics_summary, analytics_top_pages, analytics_sources, analytics_daily) on fixture rows placed in March 2001,
 * a period no other test writes to.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { anonClient, serviceClient, signedInClient, sql, testEnv } from '../support/env.ts'

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
/** The test stack starts functions with SITE_URL http://localhost:4321 (tests/support/test-stack.ts). */
const SITE_HOST = 'localhost:4321'

const run = `${Date.now().toString(36)}-${process.pid}`
/**
 * A loopback address no other test uses, so each test is its own visitor and its own rate-limit bucket; the
 * request connects from it and the gateway reports it to the function (tests/support/client-address.ts).
 */
const uniqueIp = () => freshLoopback()
/** The documented formula, computed independently of the function's code: hex SHA-256 of salt, IP, UA, site. */
const expectedHash = (salt: string, ip: string, ua: string, site: string) =>
  createHash('sha256').update([salt, ip, ua, site].join('\n')).digest('hex')
const userAgent = (label: string) => `${CHROME} analytics-test/${run}-${label}`

async function track(body: unknown, options: { ip?: string; ua?: string; origin?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = {
    apikey: testEnv.anonKey,
    'Content-Type': 'application/json',
    'User-Agent': options.ua ?? userAgent('default'),
  }
  if (options.origin) headers.Origin = options.origin
  return fetchFrom(options.ip ?? '127.0.0.1', `${testEnv.url}/functions/v1/track-pageview`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

interface StoredView {
  path: string
  referrer_host: string | null
  utm_source: string | null
  device_class: string
  visitor_hash: string
  created_at: Date
}

const viewsAt = (path: string) =>
  sql<StoredView & Record<string, unknown>>(`select * from public.page_views where path = $1 order by id`, [path])

afterAll(async () => {
  await sql(`delete from public.page_views where path like $1`, [`/it-analytics-${run}%`])
})

describe('track-pageview', () => {
  it('answers the CORS preflight', async () => {
    const response = await fetch(`${testEnv.url}/functions/v1/track-pageview`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.com' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-headers')).toContain('apikey')
  })

  it('stores a valid view with only path, referrer host, source, device class and the hash: no IP, no user agent', async () => {
    const ip = uniqueIp()
    const ua = userAgent('stored')
    const path = `/it-analytics-${run}/stored`
    const response = await track(
      {
        path: `${path}/`,
        referrer: 'https://www.Google.com/search?q=realtor',
        utm_source: 'Spring_Mail',
        device_class: 'tablet',
      },
      { ip, ua },
    )
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ recorded: true })

    const rows = await viewsAt(path)
    expect(rows).toHaveLength(1)
    const row = rows[0]!
    expect(Object.keys(row).sort()).toEqual([
      'created_at',
      'device_class',
      'id',
      'path',
      'referrer_host',
      'utm_source',
      'visitor_hash',
    ])
    expect(row).toMatchObject({ path, referrer_host: 'google.com', utm_source: 'spring_mail', device_class: 'tablet' })
    const stored = JSON.stringify(row)
    expect(stored).not.toContain(ip)
    expect(stored).not.toContain(run + '-stored')

    // visitor_hash = SHA-256(today's salt, IP, user agent, site); past salts are gone (rows for future days may
    // exist: the RLS matrix writes some)
    const salts = await sql<{ day: string; salt: string }>(
      `select day::text, salt from public.analytics_salts where day <= (now() at time zone 'utc')::date`,
    )
    expect(salts).toHaveLength(1)
    expect(row.visitor_hash).toBe(expectedHash(salts[0]!.salt, ip, ua, SITE_HOST))
  })

  it('answers 400 naming the problem for a bad body, and stores nothing', async () => {
    const notJson = await track('path=/x')
    expect(notJson.status).toBe(400)
    expect(await notJson.json()).toEqual({ error: 'Body must be a JSON object with a path' })

    const noSlash = await track({ path: `it-analytics-${run}/bad` })
    expect(noSlash.status).toBe(400)
    expect(await noSlash.json()).toEqual({
      error: 'path must start with /',
      errors: { path: 'path must start with /' },
    })

    const badDevice = await track({ path: `/it-analytics-${run}/bad`, device_class: 'watch' })
    expect(badDevice.status).toBe(400)
    expect((await badDevice.json()).error).toBe('device_class must be mobile, tablet or desktop')

    expect(await viewsAt(`/it-analytics-${run}/bad`)).toHaveLength(0)
  })

  it('answers a bot but does not store its view', async () => {
    const path = `/it-analytics-${run}/bot`
    const response = await track(
      { path },
      { ip: uniqueIp(), ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ recorded: false, reason: 'bot' })
    expect(await viewsAt(path)).toHaveLength(0)
  })

  it('gives the same visitor the same hash on the same day, a different visitor another, and keeps only external referrer hosts', async () => {
    const ip = uniqueIp()
    const ua = userAgent('same-day')
    const first = `/it-analytics-${run}/same-1`
    const second = `/it-analytics-${run}/same-2`
    const other = `/it-analytics-${run}/same-other`
    expect((await track({ path: first, referrer: 'https://news.example.org/a/b?c=d#e' }, { ip, ua })).status).toBe(201)
    // same-site referrer: navigation inside the site (its Origin) is not a source
    expect(
      (
        await track(
          { path: second, referrer: 'https://agents.example.net/blog' },
          { ip, ua, origin: 'https://agents.example.net' },
        )
      ).status,
    ).toBe(201)
    expect((await track({ path: other, referrer: 'http://localhost:4321/about' }, { ip: uniqueIp(), ua })).status).toBe(
      201,
    )

    const [a] = await viewsAt(first)
    const [b] = await viewsAt(second)
    const [c] = await viewsAt(other)
    expect(a!.visitor_hash).toBe(b!.visitor_hash)
    expect(c!.visitor_hash).not.toBe(a!.visitor_hash)
    expect(a!.referrer_host).toBe('news.example.org')
    expect(b!.referrer_host).toBeNull()
    expect(c!.referrer_host).toBeNull()
  })

  it('drops views past 30 per visitor per minute with 429', async () => {
    const ip = uniqueIp()
    const ua = userAgent('rate')
    const path = `/it-analytics-${run}/rate`
    const statuses: number[] = []
    for (let i = 0; i < 30; i += 1) statuses.push((await track({ path }, { ip, ua })).status)
    expect(statuses.every((status) => status === 201)).toBe(true)

    const limited = await track({ path }, { ip, ua })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('60')
    expect((await limited.json()).error).toBe(
      'Too many page views: at most 30 per minute per visitor and 300 per network',
    )
    expect(await viewsAt(path)).toHaveLength(30)

    // another visitor is not affected
    expect((await track({ path }, { ip: uniqueIp(), ua })).status).toBe(201)
  })

  it("keeps only today's salt", async () => {
    await sql(
      `insert into public.analytics_salts (day, salt) values ('2000-01-01', repeat('a', 64)) on conflict do nothing`,
    )
    const { data, error } = await serviceClient().rpc('analytics_daily_salt')
    expect(error).toBeNull()
    const today = new Date().toISOString().slice(0, 10)
    expect(data!.map((row) => row.day)).toEqual([today])
    expect(await sql(`select day::text from public.analytics_salts where day < $1::date`, [today])).toEqual([])
  })
})

describe('access', () => {
  let viewId = 0
  beforeAll(async () => {
    const [row] = await sql<{ id: string }>(
      `insert into public.page_views (path, device_class, visitor_hash) values ($1, 'desktop', repeat('b', 64)) returning id`,
      [`/it-analytics-${run}/access`],
    )
    viewId = Number(row!.id)
  })

  it('hides page views and salts from visitors and signed-in non-admins, shows page views to admins', async () => {
    const user = (await signedInClient()).client
    const admin = (await signedInClient({ admin: true })).client
    for (const client of [anonClient(), user]) {
      const { data } = await client.from('page_views').select('id').eq('id', viewId)
      expect(data ?? []).toEqual([])
    }
    const { data, error } = await admin.from('page_views').select('id, path').eq('id', viewId)
    expect(error).toBeNull()
    expect(data).toEqual([{ id: viewId, path: `/it-analytics-${run}/access` }])

    for (const client of [anonClient(), user, admin]) {
      const { data: salts } = await client.from('analytics_salts').select('salt')
      expect(salts ?? []).toEqual([])
    }
  })

  it('refuses writes to page_views from the API roles but service_role', async () => {
    const admin = (await signedInClient({ admin: true })).client
    const row = { path: `/it-analytics-${run}/forged`, device_class: 'desktop', visitor_hash: 'c'.repeat(64) }
    for (const client of [anonClient(), admin]) {
      const { error } = await client.from('page_views').insert(row)
      expect(error).toMatchObject({ code: '42501', message: 'permission denied for table page_views' })
    }
    expect(await viewsAt(row.path)).toHaveLength(0)
  })

  it('lets only admins run the aggregates', async () => {
    const period = { period_start: '2001-03-01T00:00:00Z', period_end: '2001-03-04T00:00:00Z' }
    const anon = await anonClient().rpc('analytics_summary', period)
    expect(anon.error).toMatchObject({ code: '42501', message: 'permission denied for function analytics_summary' })
    const user = await (await signedInClient()).client.rpc('analytics_top_pages', period)
    expect(user.error?.message).toBe('Analytics are available to administrators only')
    const visitorWrite = await anonClient().rpc('record_page_view', {
      path: '/x',
      referrer_host: '',
      utm_source: '',
      device_class: 'desktop',
      visitor_hash: 'd'.repeat(64),
      max_per_minute: 10,
      ip_key_hash: 'e'.repeat(64),
      max_per_ip_per_minute: 10,
    })
    expect(visitorWrite.error).toMatchObject({
      code: '42501',
      message: 'permission denied for function record_page_view',
    })
  })
})

describe('aggregates on fixture data (March 2001, UTC)', () => {
  const hashA = 'a1'.repeat(32)
  const hashB = 'b2'.repeat(32)
  const hashC = 'c3'.repeat(32)
  const leadEmail = `analytics-${run}@example.com`
  const period = { period_start: '2001-03-01T00:00:00Z', period_end: '2001-03-04T00:00:00Z' }
  let admin: Awaited<ReturnType<typeof signedInClient>>['client']

  beforeAll(async () => {
    admin = (await signedInClient({ admin: true })).client
    // day 1: A views /a twice and /b (direct), B views /a from a newsletter; day 2: C views /c twice from Google;
    // outside the period: one view on 2001-03-04 00:00 (the end is exclusive) and one on 2001-02-28 23:59
    await sql(
      `insert into public.page_views (path, referrer_host, utm_source, device_class, visitor_hash, created_at) values
        ('/a', null, null, 'desktop', $1, '2001-03-01T08:00:00Z'),
        ('/a', null, null, 'desktop', $1, '2001-03-01T08:05:00Z'),
        ('/b', null, null, 'desktop', $1, '2001-03-01T08:10:00Z'),
        ('/a', 'mail.example.com', 'newsletter', 'mobile', $2, '2001-03-01T23:59:59Z'),
        ('/c', 'google.com', null, 'tablet', $3, '2001-03-02T12:00:00Z'),
        ('/c', 'google.com', null, 'tablet', $3, '2001-03-02T12:01:00Z'),
        ('/outside', null, null, 'desktop', $3, '2001-03-04T00:00:00Z'),
        ('/outside', null, null, 'desktop', $3, '2001-02-28T23:59:00Z')`,
      [hashA, hashB, hashC],
    )
    await sql(
      `insert into public.report_requests (full_name, email, created_at) values
        ('Fixture Lead 1', $1, '2001-03-01T10:00:00Z'),
        ('Fixture Lead 2', $1, '2001-03-03T23:00:00Z'),
        ('Fixture Lead outside', $1, '2001-03-04T00:00:01Z')`,
      [leadEmail],
    )
    // a contact-form message is a lead in the CRM but not a report request: never counted as one
    await sql(
      `insert into public.report_requests (full_name, email, created_at, lead_type, message) values
        ('Fixture Contact', $1, '2001-03-02T09:00:00Z', 'contact', 'Do you cover Austin?')`,
      [leadEmail],
    )
  })

  afterAll(async () => {
    await sql(`delete from public.page_views where visitor_hash = any($1)`, [[hashA, hashB, hashC]])
    await sql(`delete from public.report_requests where email = $1`, [leadEmail])
  })

  it('summary: 3 visitors, 6 page views, 2 report requests (the contact message is not one), conversion 2/3', async () => {
    const { data, error } = await admin.rpc('analytics_summary', period).single()
    expect(error).toBeNull()
    expect(data).toEqual({ visitors: 3, page_views: 6, report_requests: 2, conversion_rate: 2 / 3 })
  })

  it('summary of an empty period has no conversion rate', async () => {
    const { data, error } = await admin
      .rpc('analytics_summary', { period_start: '2001-01-01T00:00:00Z', period_end: '2001-01-02T00:00:00Z' })
      .single()
    expect(error).toBeNull()
    expect(data).toEqual({ visitors: 0, page_views: 0, report_requests: 0, conversion_rate: null })
  })

  it('top pages by views, then path', async () => {
    const { data, error } = await admin.rpc('analytics_top_pages', { ...period, max_rows: 2 })
    expect(error).toBeNull()
    expect(data).toEqual([
      { path: '/a', page_views: 3, visitors: 2 },
      { path: '/c', page_views: 2, visitors: 1 },
    ])
  })

  it('sources: utm_source over referrer host over Direct', async () => {
    const { data, error } = await admin.rpc('analytics_sources', period)
    expect(error).toBeNull()
    expect(data).toEqual([
      { source: 'Direct', kind: 'direct', page_views: 3, visitors: 1 },
      { source: 'google.com', kind: 'referral', page_views: 2, visitors: 1 },
      { source: 'newsletter', kind: 'campaign', page_views: 1, visitors: 1 },
    ])
  })

  it('daily series covers every UTC day of the period, quiet days as zero', async () => {
    const { data, error } = await admin.rpc('analytics_daily', period)
    expect(error).toBeNull()
    expect(data).toEqual([
      { day: '2001-03-01', page_views: 4, visitors: 2 },
      { day: '2001-03-02', page_views: 2, visitors: 1 },
      { day: '2001-03-03', page_views: 0, visitors: 0 },
    ])
  })

  it('refuses a reversed period with a message naming it', async () => {
    const { error } = await admin.rpc('analytics_summary', {
      period_start: period.period_end,
      period_end: period.period_start,
    })
    expect(error?.message).toMatch(/^Analytics period_start \(.+\) must be before period_end/)
  })
})

describe('filters, previous period and goals (April 2001, UTC)', () => {
  const hashD = 'd4'.repeat(32)
  const hashE = 'e5'.repeat(32)
  const leadEmail = `analytics-goals-${run}@example.com`
  const subscriber = (n: number) => `analytics-news-${n}-${run}@example.com`
  const period = { period_start: '2001-04-08T00:00:00Z', period_end: '2001-04-15T00:00:00Z' }
  const before = { period_start: '2001-04-01T00:00:00Z', period_end: '2001-04-08T00:00:00Z' }
  let admin: Awaited<ReturnType<typeof signedInClient>>['client']

  beforeAll(async () => {
    admin = (await signedInClient({ admin: true })).client
    // this week: D reads /blog/x from Google and /agent/1 directly, E reads /blog/x and /blog/y from a newsletter
    // campaign; the week before: D reads /blog/x once
    await sql(
      `insert into public.page_views (path, referrer_host, utm_source, device_class, visitor_hash, created_at) values
        ('/blog/x', 'google.com', null, 'desktop', $1, '2001-04-09T08:00:00Z'),
        ('/agent/1', null, null, 'desktop', $1, '2001-04-09T08:05:00Z'),
        ('/blog/x', null, 'newsletter', 'mobile', $2, '2001-04-10T09:00:00Z'),
        ('/blog/y', null, 'newsletter', 'mobile', $2, '2001-04-10T09:02:00Z'),
        ('/blog/x', null, null, 'desktop', $1, '2001-04-02T08:00:00Z')`,
      [hashD, hashE],
    )
    // leads: one from /agent/1 (direct), one from /blog/x with utm_source newsletter, one the week before
    await sql(
      `insert into public.report_requests (full_name, email, source_page, utm_source, created_at) values
        ('Goal Lead 1', $1, '/agent/1', null, '2001-04-09T08:06:00Z'),
        ('Goal Lead 2', $1, '/blog/x', 'newsletter', '2001-04-10T09:05:00Z'),
        ('Goal Lead before', $1, '/blog/x', null, '2001-04-02T08:01:00Z')`,
      [leadEmail],
    )
    await sql(
      `insert into public.report_requests (full_name, email, source_page, created_at, lead_type, message) values
        ('Goal Contact', $1, '/agent/1', '2001-04-09T08:07:00Z', 'contact', 'A question')`,
      [leadEmail],
    )
    await sql(
      `insert into public.newsletter_subscriptions (email, created_at, confirmed_at) values
        ($1, '2001-04-09T00:00:00Z', '2001-04-09T01:00:00Z'),
        ($2, '2001-04-01T00:00:00Z', '2001-04-01T01:00:00Z'),
        ($3, '2001-04-12T00:00:00Z', null)`,
      [subscriber(1), subscriber(2), subscriber(3)],
    )
  })

  afterAll(async () => {
    await sql(`delete from public.page_views where visitor_hash = any($1)`, [[hashD, hashE]])
    await sql(`delete from public.report_requests where email = $1`, [leadEmail])
    await sql(`delete from public.newsletter_subscriptions where email = any($1)`, [
      [subscriber(1), subscriber(2), subscriber(3)],
    ])
  })

  it('the previous period is a period like any other: 1 visitor, 1 view, 1 lead', async () => {
    expect((await admin.rpc('analytics_summary', before).single()).data).toEqual({
      visitors: 1,
      page_views: 1,
      report_requests: 1,
      conversion_rate: 1,
    })
    expect((await admin.rpc('analytics_summary', period).single()).data).toEqual({
      visitors: 2,
      page_views: 4,
      report_requests: 2,
      conversion_rate: 1,
    })
  })

  it('a page filter counts that path and the leads sent from it', async () => {
    const { data, error } = await admin.rpc('analytics_summary', { ...period, page_path: '/blog/x' }).single()
    expect(error).toBeNull()
    expect(data).toEqual({ visitors: 2, page_views: 2, report_requests: 1, conversion_rate: 0.5 })
    const top = await admin.rpc('analytics_top_pages', { ...period, page_path: '/blog/x' })
    expect(top.data).toEqual([{ path: '/blog/x', page_views: 2, visitors: 2 }])
  })

  it('a source filter keeps that source; leads match by utm_source', async () => {
    const campaign = await admin.rpc('analytics_summary', { ...period, traffic_source: 'newsletter' }).single()
    expect(campaign.data).toEqual({ visitors: 1, page_views: 2, report_requests: 1, conversion_rate: 1 })
    const referral = await admin.rpc('analytics_sources', { ...period, traffic_source: 'google.com' })
    expect(referral.data).toEqual([{ source: 'google.com', kind: 'referral', page_views: 1, visitors: 1 }])
    const direct = await admin.rpc('analytics_daily', { ...period, traffic_source: 'Direct' })
    expect((direct.data as { page_views: number }[]).map((day) => day.page_views)).toEqual([0, 1, 0, 0, 0, 0, 0])
  })

  it('an excluded prefix drops its views and the leads sent from it', async () => {
    const { data } = await admin.rpc('analytics_summary', { ...period, exclude_path: '/blog' }).single()
    expect(data).toEqual({ visitors: 1, page_views: 1, report_requests: 1, conversion_rate: 1 })
  })

  it('goals: report requests and newsletter confirmations with their rate; newsletter not attributable under a page filter', async () => {
    const all = await admin.rpc('analytics_goals', period)
    expect(all.error).toBeNull()
    expect(all.data).toEqual([
      { goal: 'report_request', completions: 2, conversion_rate: 1 },
      { goal: 'newsletter_confirm', completions: 1, conversion_rate: 0.5 },
    ])
    const page = await admin.rpc('analytics_goals', { ...period, page_path: '/agent/1' })
    expect(page.data).toEqual([
      { goal: 'report_request', completions: 1, conversion_rate: 1 },
      { goal: 'newsletter_confirm', completions: null, conversion_rate: null },
    ])
  })

  it('refuses filters that are not paths, naming the argument, and non-admins', async () => {
    const page = await admin.rpc('analytics_summary', { ...period, page_path: 'blog' })
    expect(page.error).toMatchObject({
      code: '22023',
      message: 'Analytics page_path must be a path starting with / (at most 300 characters)',
    })
    const exclude = await admin.rpc('analytics_goals', { ...period, exclude_path: '/' })
    expect(exclude.error).toMatchObject({
      code: '22023',
      message:
        'Analytics exclude_path must be a path prefix starting with / and longer than / itself (at most 300 characters)',
    })
    const user = await (await signedInClient()).client.rpc('analytics_goals', period)
    expect(user.error?.message).toBe('Analytics are available to administrators only')
  })
})
