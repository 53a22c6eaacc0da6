/**
 * GoTrue's request limits for the local stand-in's /auth/v1, read from the same supabase/config.toml that configures
 * hosted Supabase:
 *  - [auth.rate_limit] (https://supabase.com/docs/guides/auth/rate-limits), per client IP, in GoTrue's windows:
 *      sign_in_sign_ups     password sign-ins and sign-ups per 5 minutes
 *      token_refresh        refresh-token grants per 5 minutes
 *      token_verifications  OTP / magic-link verifications per 5 minutes
 *      email_sent           emails requested (recover, otp, magiclink, resend) per hour
 *  - [auth.email] max_frequency: the least time between two emails to one address (recovery, OTP, resend).
 *  - MFA challenge and verify (POST /factors/:id/challenge, /factors/:id/verify), per client IP, each a token bucket
 *    of MFA_BURST requests refilled at GoTrue's GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY per minute (default 15;
 *    internal/api/ratelimits.go), so TOTP codes cannot be guessed at speed. Not a supabase/config.toml key (hosted
 *    projects set it in Auth's rate limits); the test stacks raise it with [auth.mfa]
 *    rate_limit_challenge_and_verify in their own [auth] file.
 *  - per address, PASSWORD_FAILURES_PER_MINUTE wrong passwords per address per minute, then 429 until the minute
 *    has passed (hosted GoTrue limits the IP; the stand-in adds the per-address lockout the admin sign-in needs,
 *    since every local request comes from one address).
 * Over a limit: 429 `{code: 429, error_code: 'over_request_rate_limit' | 'over_email_send_rate_limit', msg}` with
 * Retry-After in seconds, the body GoTrue sends. Counters live in memory, per process, as in GoTrue.
 */
import fs from 'node:fs'
import { parse as parseToml } from 'smol-toml'
import { z } from 'zod'

/** Wrong passwords allowed per address per minute; the next attempt within the minute is refused with 429. */
export const PASSWORD_FAILURES_PER_MINUTE = 5

/** MFA challenges (and, separately, verifications) per client IP per minute: GoTrue's default. */
export const MFA_CHALLENGE_AND_VERIFY_PER_MINUTE = 15
/** Requests an idle IP may send at once before the per-minute rate applies (GoTrue's SetBurst(30)). */
export const MFA_BURST = 30

const RateLimitSchema = z.object({
  email_sent: z.number().int().min(1).default(30),
  sign_in_sign_ups: z.number().int().min(1).default(30),
  token_refresh: z.number().int().min(1).default(150),
  token_verifications: z.number().int().min(1).default(30),
})

const AuthTomlSchema = z.object({
  auth: z
    .object({
      rate_limit: RateLimitSchema.default(RateLimitSchema.parse({})),
      email: z
        .object({
          max_frequency: z
            .string()
            .regex(/^\d+(s|m|h)$/)
            .default('60s'),
        })
        .loose()
        .default({ max_frequency: '60s' }),
      minimum_password_length: z.number().int().min(6).default(10),
      password_requirements: z
        .enum(['', 'letters_digits', 'lower_upper_letters_digits', 'lower_upper_letters_digits_symbols'])
        .default('letters_digits'),
      refresh_token_reuse_interval: z.number().int().min(0).default(10),
      mfa: z
        .object({
          rate_limit_challenge_and_verify: z.number().int().min(1).default(MFA_CHALLENGE_AND_VERIFY_PER_MINUTE),
        })
        .loose()
        .default({ rate_limit_challenge_and_verify: MFA_CHALLENGE_AND_VERIFY_PER_MINUTE }),
    })
    .loose(),
})

/** The auth settings the stand-in enforces. */
export interface AuthLimitsConfig {
  rateLimit: z.infer<typeof RateLimitSchema>
  /** [auth.email] max_frequency in seconds. */
  emailMaxFrequencySeconds: number
  minimumPasswordLength: number
  passwordRequirements: '' | 'letters_digits' | 'lower_upper_letters_digits' | 'lower_upper_letters_digits_symbols'
  /** Seconds a rotated refresh token may still be used before its reuse revokes the session (GoTrue's default 10). */
  refreshTokenReuseInterval: number
  /** MFA challenges, and verifications, per client IP per minute (after a burst of MFA_BURST). */
  mfaChallengeAndVerifyPerMinute: number
}

/** Reads the [auth] settings from a config.toml. @throws Error naming the file and the invalid key. */
export function readAuthLimits(configToml: string): AuthLimitsConfig {
  const parsed = AuthTomlSchema.safeParse(parseToml(fs.readFileSync(configToml, 'utf8')))
  if (!parsed.success)
    throw new Error(
      `${configToml}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    )
  const auth = parsed.data.auth
  const [, amount, unit] = /^(\d+)(s|m|h)$/.exec(auth.email.max_frequency)!
  return {
    rateLimit: auth.rate_limit,
    emailMaxFrequencySeconds: Number(amount) * (unit === 'h' ? 3600 : unit === 'm' ? 60 : 1),
    minimumPasswordLength: auth.minimum_password_length,
    passwordRequirements: auth.password_requirements,
    refreshTokenReuseInterval: auth.refresh_token_reuse_interval,
    mfaChallengeAndVerifyPerMinute: auth.mfa.rate_limit_challenge_and_verify,
  }
}

/** Which [auth.rate_limit] bucket a request counts against, or one of the MFA buckets. */
export type LimitKind = keyof AuthLimitsConfig['rateLimit'] | 'mfa_challenge' | 'mfa_verify'

const WINDOW_SECONDS: Record<keyof AuthLimitsConfig['rateLimit'], number> = {
  sign_in_sign_ups: 300,
  token_refresh: 300,
  token_verifications: 300,
  email_sent: 3600,
}

/** The bucket of an /auth/v1 request: path after /auth/v1 and the grant_type query parameter. */
export function limitKind(method: string, path: string, grantType: string | null): LimitKind | null {
  if (method !== 'POST' && !(method === 'GET' && path === '/verify')) return null
  if (/^\/factors\/[^/]+\/challenge\/?$/.test(path)) return 'mfa_challenge'
  if (/^\/factors\/[^/]+\/verify\/?$/.test(path)) return 'mfa_verify'
  if (path === '/signup') return 'sign_in_sign_ups'
  if (path === '/token') return grantType === 'refresh_token' ? 'token_refresh' : 'sign_in_sign_ups'
  if (path === '/verify') return 'token_verifications'
  if (path === '/recover' || path === '/otp' || path === '/magiclink' || path === '/resend') return 'email_sent'
  return null
}

/** A refusal: GoTrue's 429 body and the seconds until the caller may try again. */
export interface Refusal {
  retryAfter: number
  errorCode: 'over_request_rate_limit' | 'over_email_send_rate_limit'
  message: string
}

/** Fixed-window counters keyed by string, in memory. */
class Counter {
  private readonly hits = new Map<string, { start: number; count: number }>()

  /** Counts one hit; returns the count in the current window and the seconds until it ends. */
  hit(key: string, windowSeconds: number, now: number): { count: number; resetIn: number } {
    const entry = this.hits.get(key)
    const current = entry && now - entry.start < windowSeconds * 1000 ? entry : { start: now, count: 0 }
    current.count += 1
    this.hits.set(key, current)
    if (this.hits.size > 50_000) this.prune(now)
    return {
      count: current.count,
      resetIn: Math.max(1, Math.ceil((current.start + windowSeconds * 1000 - now) / 1000)),
    }
  }

  /** The count in the current window without adding a hit. */
  peek(key: string, windowSeconds: number, now: number): { count: number; resetIn: number } {
    const entry = this.hits.get(key)
    if (!entry || now - entry.start >= windowSeconds * 1000) return { count: 0, resetIn: 0 }
    return { count: entry.count, resetIn: Math.max(1, Math.ceil((entry.start + windowSeconds * 1000 - now) / 1000)) }
  }

  private prune(now: number) {
    for (const [key, entry] of this.hits) if (now - entry.start > 3_600_000) this.hits.delete(key)
  }
}

/** Token buckets keyed by string, in memory: `capacity` tokens, refilled at `perSecond`. */
class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>()

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
  ) {}

  /** Takes one token; null when taken, else the whole seconds until one is back. */
  take(key: string, now: number): number | null {
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now }
    bucket.tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond)
    bucket.at = now
    this.buckets.set(key, bucket)
    if (this.buckets.size > 50_000) this.buckets.clear()
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return null
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond))
  }
}

/** The limiter of one API instance. `now` is injectable for unit tests (ms since the epoch). */
export function createAuthLimiter(config: AuthLimitsConfig, now: () => number = Date.now) {
  const perIp = new Counter()
  const passwordFailures = new Counter()
  const lastEmail = new Map<string, number>()
  const mfa = new TokenBuckets(MFA_BURST, config.mfaChallengeAndVerifyPerMinute / 60)

  return {
    /** Counts the request against its IP bucket; a Refusal when the bucket is over its limit. */
    checkIp(kind: LimitKind, ip: string): Refusal | null {
      if (kind === 'mfa_challenge' || kind === 'mfa_verify') {
        const wait = mfa.take(`${kind}:${ip}`, now())
        return wait === null
          ? null
          : { retryAfter: wait, errorCode: 'over_request_rate_limit', message: 'Request rate limit reached' }
      }
      const { count, resetIn } = perIp.hit(`${kind}:${ip}`, WINDOW_SECONDS[kind], now())
      if (count <= config.rateLimit[kind]) return null
      return kind === 'email_sent'
        ? { retryAfter: resetIn, errorCode: 'over_email_send_rate_limit', message: 'Email rate limit exceeded' }
        : { retryAfter: resetIn, errorCode: 'over_request_rate_limit', message: 'Request rate limit reached' }
    },
    /** Refuses a password sign-in for an address that failed PASSWORD_FAILURES_PER_MINUTE times this minute. */
    checkPasswordAttempt(address: string): Refusal | null {
      const { count, resetIn } = passwordFailures.peek(address, 60, now())
      if (count < PASSWORD_FAILURES_PER_MINUTE) return null
      return {
        retryAfter: resetIn,
        errorCode: 'over_request_rate_limit',
        message: 'Too many sign-in attempts for this account. Please wait a minute and try again.',
      }
    },
    /** Records a wrong password for the address. */
    recordPasswordFailure(address: string): void {
      passwordFailures.hit(address, 60, now())
    },
    /**
     * Refuses an email to `address` sooner than [auth.email] max_frequency after the last one (known or unknown
     * address alike, so the answer reveals nothing); otherwise records this one.
     */
    checkEmailFrequency(address: string): Refusal | null {
      const at = now()
      const last = lastEmail.get(address)
      const wait = last === undefined ? 0 : Math.ceil((last + config.emailMaxFrequencySeconds * 1000 - at) / 1000)
      if (wait > 0) {
        return {
          retryAfter: wait,
          errorCode: 'over_email_send_rate_limit',
          message: `For security purposes, you can only request this after ${wait} seconds.`,
        }
      }
      lastEmail.set(address, at)
      return null
    },
  }
}

export type AuthLimiter = ReturnType<typeof createAuthLimiter>
