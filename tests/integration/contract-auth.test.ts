/**
 * Contract suite, GoTrue part: sign-up with email confirmation, password sign-in, refresh rotation, sign-out, auth
 * events, the access token's claims, password-reset mail in the local mailbox, and the TOTP factor endpoints.
 */
import type { AuthChangeEvent } from '@supabase/supabase-js'
import { describe, expect, it } from 'vitest'
import { decodeJwtPayload } from '../../supabase/local/jwt.ts'
import * as OTPAuth from 'otpauth'
import {
  anonClient,
  createConfirmedUser,
  mailTo,
  TEST_PASSWORD as password,
  testEnv,
  uniqueEmail,
} from '../support/env.ts'

/** Signs a new confirmed user in; returns the client and the sign-in answer. */
async function signedIn(email = uniqueEmail(), metadata: Record<string, unknown> = {}) {
  await createConfirmedUser(email, password, metadata)
  const client = anonClient()
  const result = await client.auth.signInWithPassword({ email, password })
  if (result.error) throw result.error
  return { client, data: result.data, email }
}

describe('auth', () => {
  it('signs up with metadata, asks for the email confirmation, and refuses to sign in until confirmed', async () => {
    const email = uniqueEmail('confirm')
    const { data, error } = await anonClient().auth.signUp({
      email,
      password,
      options: { data: { full_name: 'Ada Lovelace' } },
    })
    expect(error).toBeNull()
    expect(data.session).toBeNull()
    expect(data.user!.user_metadata.full_name).toBe('Ada Lovelace')
    const messages = await mailTo(email)
    expect(messages).toHaveLength(1)
    const blocked = await anonClient().auth.signInWithPassword({ email, password })
    expect(blocked.error!.message).toBe('Email not confirmed')
    const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(messages[0]!.text_body ?? '')![0]
    const verified = await fetch(link, { redirect: 'manual' })
    expect(verified.status).toBe(303)
    expect(verified.headers.get('location')).toContain('access_token=')
    expect((await anonClient().auth.signInWithPassword({ email, password })).error).toBeNull()
  })

  it('issues the full GoTrue claim set (gap 2)', async () => {
    const { data, email } = await signedIn(uniqueEmail(), { full_name: 'Ada Lovelace' })
    const claims = decodeJwtPayload(data.session!.access_token)
    expect(claims).toMatchObject({
      iss: `${testEnv.url}/auth/v1`,
      aud: 'authenticated',
      sub: data.user!.id,
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: expect.objectContaining({ full_name: 'Ada Lovelace' }),
    })
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }])
    expect(typeof claims.session_id).toBe('string')
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600)
  })

  it('signs in with a password, and refuses a wrong one with "Invalid login credentials"', async () => {
    const email = uniqueEmail()
    await createConfirmedUser(email)
    const good = await anonClient().auth.signInWithPassword({ email, password })
    expect(good.error).toBeNull()
    expect(good.data.user!.email).toBe(email)
    const bad = await anonClient().auth.signInWithPassword({ email, password: 'wrong-password-123' })
    expect(bad.error!.message).toBe('Invalid login credentials')
    expect(bad.error!.status).toBe(400)
  })

  it('rotates refresh tokens and rejects a used one', async () => {
    const { client, data } = await signedIn()
    const first = data.session!.refresh_token
    const refreshed = await client.auth.refreshSession()
    expect(refreshed.error).toBeNull()
    expect(refreshed.data.session!.refresh_token).not.toBe(first)
    expect(decodeJwtPayload(refreshed.data.session!.access_token).iss).toBe(`${testEnv.url}/auth/v1`)
    const reuse = await anonClient().auth.refreshSession({ refresh_token: first })
    // GoTrue allows a short reuse interval; after it the old token is revoked. Either way the new one works.
    if (reuse.error) expect(reuse.error.status).toBeGreaterThanOrEqual(400)
    const next = await anonClient().auth.refreshSession({ refresh_token: refreshed.data.session!.refresh_token })
    expect(next.error).toBeNull()
  })

  it('emits auth events and signs out', async () => {
    const client = anonClient()
    const events: AuthChangeEvent[] = []
    client.auth.onAuthStateChange((event) => {
      events.push(event)
    })
    const email = uniqueEmail()
    await createConfirmedUser(email)
    await client.auth.signInWithPassword({ email, password })
    await client.auth.signOut()
    await client.auth.signInWithPassword({ email, password })
    expect(events).toEqual(expect.arrayContaining(['INITIAL_SESSION', 'SIGNED_IN', 'SIGNED_OUT']))
    const { data } = await client.auth.getUser()
    expect(data.user!.email).toBe(email)
    const { error } = await client.auth.signOut()
    expect(error).toBeNull()
    expect((await client.auth.getSession()).data.session).toBeNull()
  })

  it("delivers the password-reset email, linking to the site's reset page, to the local mailbox", async () => {
    const email = uniqueEmail('reset')
    await createConfirmedUser(email)
    const { error } = await anonClient().auth.resetPasswordForEmail(email, {
      redirectTo: 'http://localhost:4321/auth/reset-password',
    })
    expect(error).toBeNull()
    const messages = await mailTo(email)
    expect(messages).toHaveLength(1)
    expect(messages[0]!.subject).toBe('Reset your Agent Insight password')
    expect(messages[0]!.text_body).toMatch(
      /http:\/\/localhost:4321\/auth\/reset-password\?token_hash=[0-9a-f]+&type=recovery/,
    )
    const page = await fetch(`${testEnv.mailboxUrl}/`)
    expect(await page.text()).toContain(email)
  })

  it('enrolls, challenges and verifies a TOTP factor, stepping the session up to aal2', async () => {
    const { client } = await signedIn(uniqueEmail('mfa'))
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })
    expect(enrolled.error).toBeNull()
    expect(enrolled.data!.totp.qr_code).toMatch(/^data:image\/svg\+xml/)
    expect(enrolled.data!.totp.uri).toMatch(/^otpauth:\/\/totp\//)
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.data!.totp.secret) })

    const wrong = await client.auth.mfa.challengeAndVerify({
      factorId: enrolled.data!.id,
      code: totp.generate() === '000000' ? '111111' : '000000',
    })
    expect(wrong.error!.message).toBe('Invalid TOTP code entered')

    const verified = await client.auth.mfa.challengeAndVerify({ factorId: enrolled.data!.id, code: totp.generate() })
    expect(verified.error).toBeNull()
    expect(decodeJwtPayload(verified.data!.access_token).aal).toBe('aal2')
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' })
    const factors = await client.auth.mfa.listFactors()
    expect(factors.data!.totp.map((factor) => factor.status)).toEqual(['verified'])

    // a refresh keeps the session at aal2
    const refreshed = await client.auth.refreshSession()
    expect(decodeJwtPayload(refreshed.data.session!.access_token).aal).toBe('aal2')
    expect((await client.auth.mfa.unenroll({ factorId: enrolled.data!.id })).error).toBeNull()
    expect((await client.auth.mfa.listFactors()).data!.totp).toEqual([])
  })
})

describe('CORS', () => {
  it('answers the browser preflight for auth and rest with the requested headers allowed', async () => {
    for (const path of ['/auth/v1/token?grant_type=password', '/rest/v1/blog_posts']) {
      const response = await fetch(`${testEnv.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:4321',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, apikey, content-type, x-client-info',
        },
      })
      expect(response.status).toBeLessThan(300)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-allow-headers')).toContain('authorization')
    }
  })
})
