/**
 * Sign-in and sessions resist the usual abuse: password guessing is locked per address, a reused refresh token
 * revokes its session, and sign-up, sign-in and recovery answer alike for known and unknown addresses. Each case is
 * named after the rule it guards (the local Auth enforces supabase/config.toml's [auth] settings as GoTrue does).
 */
import { createClient } from '@supabase/supabase-js'
import { describe, expect, it } from 'vitest'
import { PASSWORD_FAILURES_PER_MINUTE } from '../../supabase/local/auth-limits.ts'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { anonClient, createConfirmedUser, mailTo, sql, TEST_PASSWORD, testEnv, uniqueEmail } from '../support/env.ts'

const anonHeaders = () => ({
  apikey: testEnv.anonKey,
  Authorization: `Bearer ${testEnv.anonKey}`,
  'Content-Type': 'application/json',
})

function auth(path: string, body: unknown, from = freshLoopback()): Promise<Response> {
  return fetchFrom(from, `${testEnv.url}/auth/v1${path}`, {
    method: 'POST',
    headers: anonHeaders(),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

describe('password guessing is locked per address', () => {
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

describe('a reused refresh token revokes its session', () => {
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

describe('sign-up and recovery reveal nothing', () => {
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

describe('email links carry no session (PKCE)', () => {
  it('a confirmation link brings back a one-time code that only the browser holding the verifier can exchange', async () => {
    const email = uniqueEmail('pkce')
    const storage = new Map<string, string>()
    const browser = createClient(testEnv.url, testEnv.anonKey, {
      auth: {
        flowType: 'pkce',
        autoRefreshToken: false,
        detectSessionInUrl: false,
        storage: {
          getItem: (key) => storage.get(key) ?? null,
          setItem: (key, value) => void storage.set(key, value),
          removeItem: (key) => void storage.delete(key),
        },
      },
    })
    const signUp = await browser.auth.signUp({
      email,
      password: TEST_PASSWORD,
      options: { emailRedirectTo: 'http://localhost:4321/' },
    })
    expect(signUp.error).toBeNull()
    const verifier = [...storage].find(([key]) => key.endsWith('-code-verifier'))?.[1]
    expect(verifier).toBeTruthy()

    const [mail] = await mailTo(email)
    const link = /https?:\/\/[^\s"'<>]+\/auth\/v1\/verify\?[^\s"'<>]+/.exec(mail!.text_body ?? '')![0]
    const verify = await fetch(link, { redirect: 'manual' })
    const target = new URL(verify.headers.get('location')!)
    expect(target.hash).toBe('')
    expect(target.toString()).not.toContain('access_token')
    const code = target.searchParams.get('code')!
    expect(code).toMatch(/^[0-9a-f-]{36}$/)

    const exchange = (codeVerifier: string) =>
      auth('/token?grant_type=pkce', { auth_code: code, code_verifier: codeVerifier })
    const stranger = await exchange('x'.repeat(43))
    expect(stranger.status).toBe(400)
    expect(await stranger.json()).toMatchObject({ error_code: 'bad_code_verifier' })

    const exchanged = await browser.auth.exchangeCodeForSession(code)
    expect(exchanged.error).toBeNull()
    expect(exchanged.data.session?.user.email).toBe(email)
    // once: the code is spent
    expect((await exchange(verifier!)).status).toBe(404)
  })

  it('refuses a malformed code challenge before anything is mailed', async () => {
    const email = uniqueEmail('pkce-bad')
    const response = await auth('/signup', {
      email,
      password: TEST_PASSWORD,
      code_challenge: 'short',
      code_challenge_method: 's256',
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      error_code: 'validation_failed',
      msg: 'code challenge has to be between 43 and 128 characters',
    })
    expect(await mailTo(email)).toEqual([])
  })
})
