import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { createAuthLimiter, limitKind, PASSWORD_FAILURES_PER_MINUTE, readAuthLimits } from './auth-limits.ts'

const config = readAuthLimits(path.resolve(import.meta.dirname, '../config.toml'))

describe('auth limits from supabase/config.toml', () => {
  it('reads the production settings', () => {
    expect(config).toEqual({
      rateLimit: { email_sent: 30, sign_in_sign_ups: 30, token_refresh: 150, token_verifications: 30 },
      emailMaxFrequencySeconds: 60,
      minimumPasswordLength: 10,
      passwordRequirements: 'letters_digits',
      refreshTokenReuseInterval: 10,
      mfaChallengeAndVerifyPerMinute: 15,
    })
  })

  it('limits MFA verification per IP as GoTrue does: a burst of 30, then 15 a minute', () => {
    let now = 0
    const limiter = createAuthLimiter(config, () => now)
    expect(limitKind('POST', '/factors/5b0c/verify', null)).toBe('mfa_verify')
    expect(limitKind('POST', '/factors/5b0c/challenge', null)).toBe('mfa_challenge')
    for (let index = 0; index < 30; index += 1) expect(limiter.checkIp('mfa_verify', '203.0.113.9')).toBeNull()
    expect(limiter.checkIp('mfa_verify', '203.0.113.9')).toEqual({
      retryAfter: 4,
      errorCode: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    })
    // challenges and other addresses have their own buckets
    expect(limiter.checkIp('mfa_challenge', '203.0.113.9')).toBeNull()
    expect(limiter.checkIp('mfa_verify', '203.0.113.10')).toBeNull()
    // one token back every 4 seconds
    now = 4_000
    expect(limiter.checkIp('mfa_verify', '203.0.113.9')).toBeNull()
    expect(limiter.checkIp('mfa_verify', '203.0.113.9')).not.toBeNull()
  })

  it('answers 429 for the 31st sign-in from one IP in 5 minutes, per IP, until the window ends', () => {
    let now = 0
    const limiter = createAuthLimiter(config, () => now)
    for (let index = 0; index < 30; index += 1) expect(limiter.checkIp('sign_in_sign_ups', '203.0.113.1')).toBeNull()
    expect(limiter.checkIp('sign_in_sign_ups', '203.0.113.1')).toEqual({
      retryAfter: 300,
      errorCode: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    })
    expect(limiter.checkIp('sign_in_sign_ups', '203.0.113.2')).toBeNull()
    now = 300_000
    expect(limiter.checkIp('sign_in_sign_ups', '203.0.113.1')).toBeNull()
  })

  it('locks an address after repeated wrong passwords for the rest of the minute', () => {
    let now = 0
    const limiter = createAuthLimiter(config, () => now)
    for (let index = 0; index < PASSWORD_FAILURES_PER_MINUTE; index += 1) {
      expect(limiter.checkPasswordAttempt('a@example.com')).toBeNull()
      limiter.recordPasswordFailure('a@example.com')
    }
    now = 20_000
    expect(limiter.checkPasswordAttempt('a@example.com')?.retryAfter).toBe(40)
    now = 60_000
    expect(limiter.checkPasswordAttempt('a@example.com')).toBeNull()
  })

  it('spaces emails to one address by max_frequency', () => {
    let now = 0
    const limiter = createAuthLimiter(config, () => now)
    expect(limiter.checkEmailFrequency('a@example.com')).toBeNull()
    now = 15_000
    expect(limiter.checkEmailFrequency('a@example.com')).toMatchObject({
      retryAfter: 45,
      errorCode: 'over_email_send_rate_limit',
    })
    now = 60_000
    expect(limiter.checkEmailFrequency('a@example.com')).toBeNull()
  })

  it('sorts requests into GoTrue buckets', () => {
    expect(limitKind('POST', '/token', 'password')).toBe('sign_in_sign_ups')
    expect(limitKind('POST', '/token', 'refresh_token')).toBe('token_refresh')
    expect(limitKind('POST', '/signup', null)).toBe('sign_in_sign_ups')
    expect(limitKind('POST', '/recover', null)).toBe('email_sent')
    expect(limitKind('GET', '/verify', null)).toBe('token_verifications')
    expect(limitKind('GET', '/user', null)).toBeNull()
  })
})
