import { describe, expect, it } from 'vitest'

import { checkProductionEnv } from './env-check.ts'

// a legacy anon JWT's shape: header.payload.signature with role anon
const anonJwt = ['e30', Buffer.from(JSON.stringify({ role: 'anon' })).toString('base64url'), 'sig'].join('.')
const serviceJwt = ['e30', Buffer.from(JSON.stringify({ role: 'service_role' })).toString('base64url'), 'sig'].join('.')

const ready = {
  PROJECT_REF: 'abcdefghijklmnopqrst',
  PUBLIC_SUPABASE_URL: 'https://abcdefghijklmnopqrst.supabase.co',
  PUBLIC_SUPABASE_ANON_KEY: 'sb_publishable_abc123',
  SITE_URL: 'https://agents.example.com',
  MAIL_API_URL: 'https://api.resend.com',
  MAIL_API_KEY: 're_123',
  MAIL_FROM: 'Agent Insight <leads@example.com>',
  REPORT_REQUEST_HMAC_SECRET: '0123456789abcdef0123456789abcdef',
  SITE_BUILD_HOOK_URL: 'https://api.netlify.com/build_hooks/abc',
}

describe('checkProductionEnv', () => {
  it('accepts a complete production file, with the new or the legacy publishable key', () => {
    expect(checkProductionEnv(ready)).toEqual([])
    expect(checkProductionEnv({ ...ready, PUBLIC_SUPABASE_ANON_KEY: anonJwt })).toEqual([])
  })

  it('names a missing secret and what breaks without it', () => {
    const { REPORT_REQUEST_HMAC_SECRET: _, ...rest } = ready
    expect(checkProductionEnv(rest)).toEqual([
      {
        variable: 'REPORT_REQUEST_HMAC_SECRET',
        message:
          'REPORT_REQUEST_HMAC_SECRET is missing: request-report, confirm-report, search-agents, track-pageview and newsletter-subscribe fail at start-up (it keys their rate limits)',
      },
    ])
  })

  it('refuses localhost and private-network URLs, plain http, and secret keys for the browser', () => {
    expect(
      checkProductionEnv({
        ...ready,
        SITE_URL: 'http://localhost:4321',
        PUBLIC_SUPABASE_URL: 'http://127.0.0.1:54321',
        SITE_BUILD_HOOK_URL: 'http://hooks.example.com/x',
        PUBLIC_SUPABASE_ANON_KEY: serviceJwt,
      }).map((problem) => problem.message),
    ).toEqual([
      'PUBLIC_SUPABASE_URL points at 127.0.0.1, which hosted Supabase and the static host cannot reach',
      'SITE_URL points at localhost, which hosted Supabase and the static host cannot reach',
      'SITE_BUILD_HOOK_URL must use https, got http://',
      'PUBLIC_SUPABASE_ANON_KEY is a secret key; the browser must get the publishable (sb_publishable_...) or anon key',
    ])
  })

  it('checks the format of the ref, the HMAC secret, operators and the AI settings', () => {
    expect(
      checkProductionEnv({
        ...ready,
        PROJECT_REF: 'my-project',
        REPORT_REQUEST_HMAC_SECRET: 'short',
        MAIL_OPERATORS: 'ops@example.com, nobody',
        AI_PROVIDER: 'anthropic',
      }).map((problem) => problem.message),
    ).toEqual([
      'PROJECT_REF must be the 20 lowercase letters of the project ref',
      'REPORT_REQUEST_HMAC_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)',
      'MAIL_OPERATORS has invalid addresses: nobody',
      'AI_MODEL is required when AI_PROVIDER is anthropic',
    ])
  })
})
