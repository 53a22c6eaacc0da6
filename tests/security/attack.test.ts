/**
 * The attack suite of the security issue: each numbered finding, reproduced the way it was found (plain HTTP with
 * the anon key, or as a signed-up visitor) against the local stack, now asserting the safe outcome. Finding 6 (5xx
 * on generated bodies) is tests/security/fuzz.test.ts; finding 10 (headers) and the admin MFA flow are Playwright
 * specs beside this file.
 */
import { describe, expect, it } from 'vitest'
import { EMAIL_LIMIT_PER_HOUR, IP_LIMIT_PER_HOUR, RATE_LIMIT_MESSAGE } from '@shared/report-request-contract.ts'
import {
  NEWSLETTER_CHECK_INBOX,
  NEWSLETTER_EMAIL_LIMIT_PER_HOUR,
  NEWSLETTER_RATE_LIMIT_MESSAGE,
} from '@shared/newsletter.ts'
import { PASSWORD_FAILURES_PER_MINUTE } from '../../supabase/local/auth-limits.ts'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import {
  anonClient,
  createConfirmedUser,
  mailTo,
  serviceClient,
  signedInClient,
  sql,
  TEST_PASSWORD,
  testEnv,
  uniqueEmail,
} from '../support/env.ts'

const json = { apikey: '', 'Content-Type': 'application/json' }
const anonHeaders = () => ({ ...json, apikey: testEnv.anonKey, Authorization: `Bearer ${testEnv.anonKey}` })

function callFunction(
  slug: string,
  body: unknown,
  from = freshLoopback(),
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetchFrom(from, `${testEnv.url}/functions/v1/${slug}`, {
    method: 'POST',
    headers: { ...anonHeaders(), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

function auth(path: string, body: unknown, from = freshLoopback()): Promise<Response> {
  return fetchFrom(from, `${testEnv.url}/auth/v1${path}`, {
    method: 'POST',
    headers: anonHeaders(),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

describe('1. lead form bypass', () => {
  it('refuses a direct REST insert into report_requests for anon and signed-in visitors', async () => {
    const row = { full_name: 'Direct', email: uniqueEmail('direct') }
    const anon = await anonClient().from('report_requests').insert(row)
    expect(anon.error).toMatchObject({ code: '42501', message: 'permission denied for table report_requests' })
    const { client } = await signedInClient()
    const user = await client.from('report_requests').insert(row)
    expect(user.error).toMatchObject({ code: '42501', message: 'permission denied for table report_requests' })
    expect(await sql('select 1 from public.report_requests where email = $1', [row.email])).toEqual([])
  })
})

describe('2. password guessing', () => {
  it(`answers the ${PASSWORD_FAILURES_PER_MINUTE + 1}th wrong password in a minute with 429 and Retry-After, even for the right password`, async () => {
    const email = uniqueEmail('guess')
    await createConfirmedUser(email)
    for (let attempt = 1; attempt <= PASSWORD_FAILURES_PER_MINUTE; attempt += 1) {
      const wrong = await auth('/token?grant_type=password', { email, password: `wrong-guess-${attempt}` })
      expect(wrong.status).toBe(400)
      expect(await wrong.json()).toMatchObject({ error_code: 'invalid_credentials', msg: 'Invalid login credentials' })
    }
    const locked = await auth('/token?grant_type=password', { email, password: 'wrong-guess-6' })
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await locked.json()).toMatchObject({ code: 429, error_code: 'over_request_rate_limit' })
    expect((await auth('/token?grant_type=password', { email, password: TEST_PASSWORD })).status).toBe(429)
  })
})

describe('3. spoofable client IP and +tag', () => {
  it('does not reset a spent request-report IP bucket with a new forged X-Forwarded-For', async () => {
    const from = freshLoopback()
    for (let index = 0; index < IP_LIMIT_PER_HOUR; index += 1) {
      const response = await callFunction('request-report', { full_name: 'Spoof', email: uniqueEmail('spoof') }, from, {
        'X-Forwarded-For': `203.0.113.${index}`,
      })
      expect(response.status).toBe(201)
    }
    const spoofed = await callFunction('request-report', { full_name: 'Spoof', email: uniqueEmail('spoof') }, from, {
      'X-Forwarded-For': '198.51.100.77',
    })
    expect(spoofed.status).toBe(429)
    expect(await spoofed.json()).toEqual({ error: RATE_LIMIT_MESSAGE })
  })

  it('does not reset a spent page-view bucket with a forged X-Forwarded-For', async () => {
    const from = freshLoopback()
    const ua = `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 security-test-${Date.now()}`
    const view = (fake: string) =>
      callFunction('track-pageview', { path: '/security-spoof' }, from, { 'User-Agent': ua, 'X-Forwarded-For': fake })
    for (let index = 0; index < 30; index += 1) expect((await view(`203.0.113.${index}`)).status).toBe(201)
    const spoofed = await view('198.51.100.99')
    expect(spoofed.status).toBe(429)
  })

  it('counts +tags and case as one mailbox for the per-email limit', async () => {
    const base = `tagged-${Date.now()}`
    for (let index = 0; index < EMAIL_LIMIT_PER_HOUR; index += 1) {
      expect(
        (await callFunction('request-report', { full_name: 'Tag', email: `${base}+${index}@Example.com` })).status,
      ).toBe(201)
    }
    const tagged = await callFunction('request-report', {
      full_name: 'Tag',
      email: `${base.toUpperCase()}+new@example.com`,
    })
    expect(tagged.status).toBe(429)
  })
})

describe('4. unbounded bodies and internal RPCs', () => {
  it('answers 413 to a body one byte over 64 KB', async () => {
    const filler = 'x'.repeat(64 * 1024)
    const body = JSON.stringify({ full_name: filler, email: 'big@example.com' }).slice(0, 64 * 1024 + 1)
    expect(Buffer.byteLength(body)).toBe(64 * 1024 + 1)
    const response = await callFunction('request-report', body)
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ error: 'The request body must be at most 65536 bytes' })
  })

  it('refuses internal search RPCs to anon and signed-in callers', async () => {
    const normalize = await anonClient().rpc('search_normalize_address', { address: '1 Main St' })
    expect(normalize.error).toMatchObject({
      code: '42501',
      message: 'permission denied for function search_normalize_address',
    })
    const { client } = await signedInClient()
    for (const caller of [anonClient(), client]) {
      const byName = await caller.rpc('search_agents_by_name', {
        search_query: 'a',
        result_limit: 1_000_000,
        result_offset: 0,
      })
      expect(byName.error).toMatchObject({ code: '42501' })
      const search = await caller.rpc('search_agents', {
        search_query: 'a',
        search_type: 'agent',
        result_limit: 20,
        result_offset: 0,
      })
      expect(search.error).toMatchObject({ code: '42501' })
    }
  })

  it('caps result_limit inside the SQL at 50 rows', async () => {
    const agents = Array.from({ length: 60 }, (_, index) => `Capped Agentname ${index}`)
    await sql(
      `insert into public.agents (name) select n from unnest($1::text[]) n where not exists (select 1 from public.agents a where a.name = n)`,
      [agents],
    )
    const [row] = await sql<{ result: { agents: unknown[]; totalResults: number } }>(
      `select public.search_agents_by_name('Capped Agentname', 1000000, 0) as result`,
    )
    expect(row!.result.totalResults).toBeGreaterThanOrEqual(60)
    expect(row!.result.agents).toHaveLength(50)
  })
})

describe('5. refresh-token reuse', () => {
  it('revokes the whole session when a rotated refresh token is used again after the reuse interval', async () => {
    const email = uniqueEmail('reuse')
    await createConfirmedUser(email)
    const client = anonClient()
    const { data } = await client.auth.signInWithPassword({ email, password: TEST_PASSWORD })
    const first = data.session!.refresh_token
    const rotated = await client.auth.refreshSession()
    const second = rotated.data.session!.refresh_token
    // "15 s after rotation": the interval in supabase/config.toml is 10 s
    await sql(`update auth.refresh_tokens set updated_at = now() - interval '15 seconds' where token = $1`, [first])

    const reuse = await auth('/token?grant_type=refresh_token', { refresh_token: first })
    expect(reuse.status).toBe(400)
    expect(await reuse.json()).toEqual({
      code: 400,
      error_code: 'refresh_token_already_used',
      msg: 'Invalid Refresh Token: Already Used',
    })
    // the family is gone: the newest token of the session no longer works either
    const current = await auth('/token?grant_type=refresh_token', { refresh_token: second })
    expect(current.status).toBe(400)
  })

  it('still accepts the parent token inside the reuse interval (concurrent tabs)', async () => {
    const email = uniqueEmail('reuse-ok')
    await createConfirmedUser(email)
    const client = anonClient()
    const { data } = await client.auth.signInWithPassword({ email, password: TEST_PASSWORD })
    await client.auth.refreshSession()
    expect((await auth('/token?grant_type=refresh_token', { refresh_token: data.session!.refresh_token })).status).toBe(
      200,
    )
  })
})

describe('6. server errors on bad input', () => {
  it('answers 400 naming the field for U+0000 in every public function', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'request-report',
        { full_name: 'A\u0000B', email: 'nul@example.com' },
        'full_name must not contain control characters',
      ],
      ['search-agents', { query: 'Jane\u0000' }, 'query must not contain control characters'],
      ['track-pageview', { path: '/a\u0000' }, 'path must not contain control characters'],
      ['newsletter-subscribe', { email: 'nul\u0000@example.com' }, 'email must not contain control characters'],
    ]
    for (const [slug, body, message] of cases) {
      const response = await callFunction(slug, body)
      expect(response.status, slug).toBe(400)
      expect((await response.json()).error, slug).toBe(message)
    }
  })

  it('answers auth signup/token/recover with 400 for a non-string email, a null body and a 10 KB email', async () => {
    for (const path of ['/signup', '/token?grant_type=password', '/recover']) {
      const numeric = await auth(path, { email: 42, password: 'x' })
      expect(numeric.status, path).toBe(400)
      expect(await numeric.json(), path).toMatchObject({
        error_code: 'validation_failed',
        msg: 'email must be a string',
      })
      const nullBody = await auth(path, 'null')
      expect(nullBody.status, path).toBe(400)
      expect(await nullBody.json(), path).toMatchObject({
        error_code: 'bad_json',
        msg: 'Request body must be a JSON object',
      })
      const huge = await auth(path, { email: `${'a'.repeat(10 * 1024)}@example.com`, password: 'x' })
      expect(huge.status, path).toBe(400)
      expect(await huge.json(), path).toMatchObject({
        error_code: 'validation_failed',
        msg: 'email must be at most 320 characters',
      })
    }
  })
})

describe('7. analytics link injection', () => {
  it('rejects a backslash path and stores a protocol-relative one as a path on this site', async () => {
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

describe('8. newsletter', () => {
  it('refuses direct inserts, single or bulk', async () => {
    const one = await anonClient()
      .from('newsletter_subscriptions')
      .insert({ email: uniqueEmail('direct') })
    expect(one.error).toMatchObject({ code: '42501', message: 'permission denied for table newsletter_subscriptions' })
    const bulk = await anonClient()
      .from('newsletter_subscriptions')
      .insert(Array.from({ length: 1000 }, (_, index) => ({ email: `bulk-${Date.now()}-${index}@example.com` })))
    expect(bulk.error).toMatchObject({ code: '42501' })
  })

  it('rate-limits the function per mailbox and keeps new rows unconfirmed, off the mailing list', async () => {
    const base = `news-${Date.now()}`
    for (let index = 0; index < NEWSLETTER_EMAIL_LIMIT_PER_HOUR; index += 1) {
      const response = await callFunction('newsletter-subscribe', { email: `${base}+${index}@example.com` })
      expect(response.status).toBe(202)
      expect(await response.json()).toEqual({ message: NEWSLETTER_CHECK_INBOX })
    }
    const limited = await callFunction('newsletter-subscribe', { email: `${base}+more@example.com` })
    expect(limited.status).toBe(429)
    expect(await limited.json()).toEqual({ error: NEWSLETTER_RATE_LIMIT_MESSAGE })
    const rows = await sql<{ confirmed_at: Date | null }>(
      `select confirmed_at from public.newsletter_subscriptions where email like $1`,
      [`${base}%`],
    )
    expect(rows.length).toBe(NEWSLETTER_EMAIL_LIMIT_PER_HOUR)
    expect(rows.every((row) => row.confirmed_at === null)).toBe(true)
    expect(await sql(`select 1 from public.newsletter_recipients where email like $1`, [`${base}%`])).toEqual([])
  })
})

describe('9. sign-up and recovery', () => {
  it('refuses a weak password with the policy of supabase/config.toml', async () => {
    for (const password of ['123456', 'abcdefghijkl', '1234567890123']) {
      const response = await auth('/signup', { email: uniqueEmail('weak'), password })
      expect(response.status, password).toBe(422)
      expect((await response.json()).error_code, password).toBe('weak_password')
    }
  })

  it('answers sign-up, sign-in and recovery the same for a known and an unknown address', async () => {
    const known = uniqueEmail('known')
    await createConfirmedUser(known)
    const unknown = uniqueEmail('unknown')

    const signUps = await Promise.all(
      [known, unknown].map((email) => auth('/signup', { email, password: 'Another-pass-2026' })),
    )
    const signUpBodies = await Promise.all(signUps.map((response) => response.json()))
    expect(signUps.map((response) => response.status)).toEqual([200, 200])
    for (const body of signUpBodies) expect(Object.keys(body).sort()).toEqual(Object.keys(signUpBodies[1]).sort())
    expect(signUpBodies[0].identities).toEqual([])

    const signIns = await Promise.all(
      [known, unknown].map((email) => auth('/token?grant_type=password', { email, password: 'Not-the-password-1' })),
    )
    expect(signIns.map((response) => response.status)).toEqual([400, 400])
    expect(await signIns[0]!.json()).toEqual(await signIns[1]!.json())

    const recoveries = await Promise.all([known, unknown].map((email) => auth('/recover', { email })))
    expect(recoveries.map((response) => response.status)).toEqual([200, 200])
    expect(await recoveries[0]!.json()).toEqual(await recoveries[1]!.json())
    // a second recovery email within [auth.email] max_frequency is refused, for both addresses alike
    const again = await Promise.all([known, unknown].map((email) => auth('/recover', { email })))
    expect(again.map((response) => response.status)).toEqual([429, 429])
    expect(
      (await mailTo(known)).filter((message) => message.subject === 'Reset your Agent Insight password'),
    ).toHaveLength(1)
  })

  it('keeps an unconfirmed account out, with the same error as a wrong password when the password is wrong', async () => {
    const email = uniqueEmail('unconfirmed')
    expect((await auth('/signup', { email, password: TEST_PASSWORD })).status).toBe(200)
    const right = await auth('/token?grant_type=password', { email, password: TEST_PASSWORD })
    expect(right.status).toBe(400)
    expect(await right.json()).toMatchObject({ error_code: 'email_not_confirmed', msg: 'Email not confirmed' })
    const wrong = await auth('/token?grant_type=password', { email, password: 'Wrong-password-9' })
    expect(await wrong.json()).toMatchObject({ error_code: 'invalid_credentials', msg: 'Invalid login credentials' })
  })
})

describe('10. CORS on admin-only functions', () => {
  it('gives a foreign origin no Access-Control-Allow-Origin, and the site its own origin', async () => {
    const preflight = (origin: string) =>
      fetch(`${testEnv.url}/functions/v1/generate-blog-content`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      })
    const evil = await preflight('https://evil.example')
    expect(evil.headers.get('access-control-allow-origin')).toBeNull()
    const site = await preflight('http://localhost:4321')
    expect(site.headers.get('access-control-allow-origin')).toBe('http://localhost:4321')
    // public functions stay callable from anywhere (anon key only, no cookies)
    const publicFunction = await fetch(`${testEnv.url}/functions/v1/search-agents`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example' },
    })
    expect(publicFunction.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('admin MFA in the database', () => {
  it('refuses blog_posts updates to an aal1 session of an admin with a verified factor', async () => {
    const { client, userId } = await signedInClient({ admin: true })
    const [post] = await sql<{ id: string; title: string }>(
      `select id, title from public.blog_posts order by created_at limit 1`,
    )
    const before = await client.from('blog_posts').update({ title: post!.title }).eq('id', post!.id).select('id')
    expect(before.data).toHaveLength(1)

    await sql(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret) values (gen_random_uuid(), $1, 'Phone', 'totp', 'verified', 'JBSWY3DPEHPK3PXP')`,
      [userId],
    )
    const aal1 = await client
      .from('blog_posts')
      .update({ title: `${post!.title} (aal1)` })
      .eq('id', post!.id)
      .select('id')
    expect(aal1.error).toBeNull()
    expect(aal1.data).toEqual([])
    expect((await client.rpc('is_admin')).data).toBe(false)
    const [stored] = await sql<{ title: string }>('select title from public.blog_posts where id = $1', [post!.id])
    expect(stored!.title).toBe(post!.title)
    await serviceClient().from('user_roles').delete().eq('user_id', userId)
  })
})
