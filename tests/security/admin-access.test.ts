/**
 * A stolen admin password is not enough: every administrator works at aal2 (password and an authenticator code), in
 * the database (public.is_admin() behind every admin policy and admin SQL function), in the local Auth (which, like
 * hosted GoTrue, lets an aal1 session enroll no second factor once one is verified and rate-limits factor
 * verification) and at the admin-only functions' CORS. Each case is named after the rule it guards.
 */
import { describe, expect, it } from 'vitest'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { anonClient, signedInClient, sql, TEST_PASSWORD, testEnv } from '../support/env.ts'
import { enrollTotp, totpCode } from '../support/totp.ts'

/** A lead only the service role and aal2 admins may read. */
async function leadFixture(): Promise<string> {
  const [lead] = await sql<{ id: string }>(
    `insert into public.report_requests (full_name, email) values ('Admin Access Lead', 'admin-access@example.com') returning id`,
  )
  return lead!.id
}

describe('every administrator works at aal2', () => {
  it('an aal1 admin session without a factor reads no row of report_requests, changes nothing and runs no admin function', async () => {
    const leadId = await leadFixture()
    try {
      const { client } = await signedInClient({ admin: true, aal1: true })
      expect((await client.rpc('is_admin')).data).toBe(false)
      const leads = await client.from('report_requests').select('id').eq('id', leadId)
      expect(leads.error).toBeNull()
      expect(leads.data).toEqual([])
      const update = await client.from('report_requests').update({ status: 'contacted' }).eq('id', leadId).select('id')
      expect(update.data).toEqual([])
      for (const rpc of ['dashboard_overview', 'list_admins'] as const) {
        const { error } = await (rpc === 'dashboard_overview' ? client.rpc(rpc, { period_days: 30 }) : client.rpc(rpc))
        expect(error, rpc).not.toBeNull()
      }
      expect(await sql(`select status from public.report_requests where id = $1`, [leadId])).toEqual([
        { status: 'pending' },
      ])
    } finally {
      await sql('delete from public.report_requests where id = $1', [leadId])
    }
  })

  it('the password alone of an admin with an authenticator app opens nothing; the code does', async () => {
    const leadId = await leadFixture()
    try {
      const { email, totpSecret } = await signedInClient({ admin: true })
      const passwordOnly = anonClient()
      expect((await passwordOnly.auth.signInWithPassword({ email, password: TEST_PASSWORD })).error).toBeNull()
      expect((await passwordOnly.from('report_requests').select('id').eq('id', leadId)).data).toEqual([])
      expect((await passwordOnly.rpc('is_admin')).data).toBe(false)

      const { data: factors } = await passwordOnly.auth.mfa.listFactors()
      const stepped = await passwordOnly.auth.mfa.challengeAndVerify({
        factorId: factors!.totp[0]!.id,
        code: totpCode(totpSecret!),
      })
      expect(stepped.error).toBeNull()
      expect((await passwordOnly.rpc('is_admin')).data).toBe(true)
      expect((await passwordOnly.from('report_requests').select('id').eq('id', leadId)).data).toEqual([{ id: leadId }])
    } finally {
      await sql('delete from public.report_requests where id = $1', [leadId])
    }
  })

  it('a signed-in visitor without the admin role gets nothing at aal2 either', async () => {
    const { client } = await signedInClient()
    await enrollTotp(client)
    expect((await client.rpc('is_admin')).data).toBe(false)
    expect((await client.from('report_requests').select('id').limit(1)).data).toEqual([])
  })
})

describe('the local Auth follows hosted GoTrue on factors', () => {
  it('enrolling another factor needs aal2 once one is verified', async () => {
    const { email } = await signedInClient({ admin: true })
    const passwordOnly = anonClient()
    await passwordOnly.auth.signInWithPassword({ email, password: TEST_PASSWORD })
    const refused = await passwordOnly.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Thief phone' })
    expect(refused.error).toMatchObject({
      status: 403,
      code: 'insufficient_aal',
      message: 'AAL2 required to enroll a new factor',
    })
    const [{ factors }] = await sql<{ factors: number }>(
      `select count(*)::int as factors from auth.mfa_factors f join auth.users u on u.id = f.user_id where u.email = $1`,
      [email],
    )
    expect(factors).toBe(1)
  })

  it('an administrator at aal2 may add a second authenticator app', async () => {
    const { client } = await signedInClient({ admin: true })
    const second = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Backup phone' })
    expect(second.error).toBeNull()
    const verified = await client.auth.mfa.challengeAndVerify({
      factorId: second.data!.id,
      code: totpCode(second.data!.totp.secret),
    })
    expect(verified.error).toBeNull()
  })

  it('factor verification is rate-limited per client IP: wrong codes at speed get 429 with Retry-After', async () => {
    const { client } = await signedInClient({ admin: true })
    const { data: session } = await client.auth.getSession()
    const { data: factors } = await client.auth.mfa.listFactors()
    const factorId = factors!.totp[0]!.id
    const from = freshLoopback()
    const call = (path: string, body: unknown) =>
      fetchFrom(from, `${testEnv.url}/auth/v1/factors/${factorId}/${path}`, {
        method: 'POST',
        headers: {
          apikey: testEnv.anonKey,
          Authorization: `Bearer ${session.session!.access_token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      })
    const challenge = (await (await call('challenge', {})).json()) as { id: string }
    let wrong = 0
    let limited: Response | null = null
    // 40 at a time, as a script guessing codes would: one at a time on a busy machine can be slower than the bucket
    // refills (10 a second under the test stack's 600 a minute), and then never meets the limit
    for (let attempt = 0; attempt < 400 && !limited; attempt += 40) {
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, offset) =>
          call('verify', { challenge_id: challenge.id, code: String(100000 + attempt + offset) }),
        ),
      )
      for (const response of responses) {
        if (response.status === 429) limited ??= response
        else {
          expect(response.status).toBe(422)
          expect(await response.json()).toMatchObject({ error_code: 'mfa_verification_failed' })
          wrong += 1
        }
      }
    }
    expect(limited, 'a 429 after the burst').not.toBeNull()
    expect(wrong).toBeGreaterThanOrEqual(30)
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await limited!.json()).toEqual({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    })
  })
})

describe('admin-only functions answer CORS only to the site', () => {
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
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull()
    expect((await preflight('http://localhost:4321')).headers.get('access-control-allow-origin')).toBe(
      'http://localhost:4321',
    )
    // public functions stay callable from anywhere (anon key only, no cookies)
    const publicFunction = await fetch(`${testEnv.url}/functions/v1/search-agents`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example' },
    })
    expect(publicFunction.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('an aal1 admin token gets 403 from the admin-only functions', async () => {
    const { client } = await signedInClient({ admin: true, aal1: true })
    const { data } = await client.auth.getSession()
    const response = await fetch(`${testEnv.url}/functions/v1/discover-trending-topics`, {
      method: 'POST',
      headers: {
        apikey: testEnv.anonKey,
        Authorization: `Bearer ${data.session!.access_token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ action: 'status' }),
    })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ error: 'Administrator access required' })
  })
})
