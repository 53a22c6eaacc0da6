/**
 * The request-report edge function over HTTP: field-level validation, the honeypot, the per-email and per-IP hourly
 * limits (stored as hashes only) and the pending report_requests row it writes with the service role, with the lead's
 * source (page and UTM parameters).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { EMAIL_LIMIT_PER_HOUR, IP_LIMIT_PER_HOUR, RATE_LIMIT_MESSAGE } from '@shared/report-request-contract.ts'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { sql, testEnv, uniqueEmail } from '../support/env.ts'
import { testData } from '../support/factories.ts'

/** A fresh loopback address per test so the IP limit of one test never trips another. */
const freshIp = () => freshLoopback()

function post(body: unknown, ip = freshIp()): Promise<Response> {
  // anon key only, as the browser sends it; each "client" connects from its own loopback address, which the
  // gateway reports to the function (a forged X-Forwarded-For would not count)
  return fetchFrom(ip, `${testEnv.url}/functions/v1/request-report`, {
    method: 'POST',
    headers: {
      apikey: testEnv.anonKey,
      Authorization: `Bearer ${testEnv.anonKey}`,
      'Content-Type': 'application/json',
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

const data = testData('request-report')
const emails: string[] = []
function email(prefix: string): string {
  const address = uniqueEmail(prefix)
  emails.push(address)
  return address
}

afterAll(async () => {
  await sql(`delete from public.report_requests where email = any($1)`, [emails])
  await data.cleanup()
})

describe('request-report', () => {
  it('stores a pending row with the form fields and the agent', async () => {
    const agentId = await data.agent({ name: 'Report Fixture Agent' })
    const address = email('lead')
    const response = await post({
      full_name: '  Pat Buyer ',
      email: address,
      phone: '(617) 555-0100',
      property_address: '12 Elm St, Cambridge, MA',
      agent_id: agentId,
      agent_name: 'Report Fixture Agent',
      agent_location: 'Cambridge, MA',
      website: '',
    })
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ ok: true, delivery: 'confirmation' })
    const rows = await sql(
      `select full_name, phone, property_address, agent_id, agent_name, agent_location, status, notes from public.report_requests where email = $1`,
      [address],
    )
    expect(rows).toEqual([
      {
        full_name: 'Pat Buyer',
        phone: '(617) 555-0100',
        property_address: '12 Elm St, Cambridge, MA',
        agent_id: agentId,
        agent_name: 'Report Fixture Agent',
        agent_location: 'Cambridge, MA',
        status: 'pending',
        notes: null,
      },
    ])
    await sql(`delete from public.report_requests where email = $1`, [address])
  })

  it('stores the lead source: the page and the five UTM parameters of the visit', async () => {
    const address = email('source')
    const response = await post({
      full_name: 'Sam Source',
      email: address,
      source_page: '/agents/jane-roe',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'fall-2026',
      utm_term: 'austin agents',
      utm_content: 'header-link',
    })
    expect(response.status).toBe(201)
    const rows = await sql(
      `select source_page, utm_source, utm_medium, utm_campaign, utm_term, utm_content from public.report_requests where email = $1`,
      [address],
    )
    expect(rows).toEqual([
      {
        source_page: '/agents/jane-roe',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'fall-2026',
        utm_term: 'austin agents',
        utm_content: 'header-link',
      },
    ])
  })

  it('answers 400 naming an over-long UTM value or a source page that is not a path, and stores nothing', async () => {
    const address = email('long-utm')
    const response = await post({
      full_name: 'Long Utm',
      email: address,
      utm_source: 'x'.repeat(101),
      source_page: 'https://evil.example/',
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: 'source_page must be a site path starting with /',
      errors: {
        utm_source: 'utm_source must be 100 characters or fewer',
        source_page: 'source_page must be a site path starting with /',
      },
    })
    expect(await sql(`select 1 from public.report_requests where email = $1`, [address])).toEqual([])
  })

  it('answers 400 with one message per bad field and stores nothing', async () => {
    const response = await post({ full_name: '   ', email: 'not-an-email', phone: 'call me', agent_id: 'x' })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: 'Please enter your full name',
      errors: {
        full_name: 'Please enter your full name',
        email: 'Please enter a valid email address',
        phone: 'Please enter a valid phone number',
        agent_id: 'Unknown agent',
      },
    })
    expect(await sql(`select 1 from public.report_requests where email = 'not-an-email'`)).toEqual([])
  })

  it('names missing fields and refuses a body that is not JSON', async () => {
    const missing = await post({})
    expect(missing.status).toBe(400)
    expect((await missing.json()).errors).toEqual({
      full_name: 'Please enter your full name',
      email: 'Please enter a valid email address',
    })
    const garbage = await post('not json')
    expect(garbage.status).toBe(400)
    expect(await garbage.json()).toEqual({ error: 'The request body must be a JSON object' })
  })

  it('accepts and drops a submission with the honeypot filled', async () => {
    const address = email('bot')
    const response = await post({ full_name: 'Bot', email: address, website: 'http://spam.example' })
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ ok: true, delivery: 'confirmation' })
    expect(await sql(`select 1 from public.report_requests where email = $1`, [address])).toEqual([])
  })

  it(`allows ${EMAIL_LIMIT_PER_HOUR} requests per email per hour, then answers 429`, async () => {
    const address = email('repeat')
    for (let i = 0; i < EMAIL_LIMIT_PER_HOUR; i += 1)
      expect((await post({ full_name: 'Repeat', email: address })).status).toBe(201)
    // a different spelling of the same mailbox and a different IP: still the same email bucket
    const refused = await post({ full_name: 'Repeat', email: address.toUpperCase() })
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({ error: RATE_LIMIT_MESSAGE })
    expect(await sql(`select 1 from public.report_requests where lower(email) = $1`, [address])).toHaveLength(
      EMAIL_LIMIT_PER_HOUR,
    )
  })

  it(`allows ${IP_LIMIT_PER_HOUR} requests per client IP per hour, then answers 429`, async () => {
    const ip = freshIp()
    for (let i = 0; i < IP_LIMIT_PER_HOUR; i += 1)
      expect((await post({ full_name: 'Office', email: email('office') }, ip)).status).toBe(201)
    const address = email('office')
    const refused = await post({ full_name: 'Office', email: address }, ip)
    expect(refused.status).toBe(429)
    expect(await sql(`select 1 from public.report_requests where email = $1`, [address])).toEqual([])
    // another address is not affected
    expect((await post({ full_name: 'Elsewhere', email: email('elsewhere') })).status).toBe(201)
  })

  it('stores only hashes in the rate-limit table', async () => {
    const ip = freshIp()
    const address = email('hashed')
    expect((await post({ full_name: 'Hashed', email: address }, ip)).status).toBe(201)
    const leaks = await sql(
      `select 1 from public.rate_limit_hits where key_hash like '%' || $1 || '%' or key_hash like '%' || $2 || '%'`,
      [address, ip],
    )
    expect(leaks).toEqual([])
    const [row] = await sql<{ all_hex: boolean }>(
      `select bool_and(key_hash ~ '^[0-9a-f]{64}$') as all_hex from public.rate_limit_hits`,
    )
    expect(row!.all_hex).toBe(true)
  })

  it('answers the CORS preflight', async () => {
    const response = await fetch(`${testEnv.url}/functions/v1/request-report`, { method: 'OPTIONS' })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-headers')).toContain('apikey')
  })
})
