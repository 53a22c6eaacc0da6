/**
 * No input gets a server error, as a property: for every public function and every public auth endpoint,
 * FUZZ_RUNS generated bodies (fast-check: NUL and other control characters, lone surrogates, huge strings, wrong
 * types, null, arrays, nested JSON, and text that is not JSON at all) never get a 5xx, and every 4xx is a JSON error.
 * The bodies use the endpoint's own field names half of the time, so the generated values reach the validators.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { testEnv } from '../support/env.ts'

/** Generated bodies per endpoint (at least 1,000). */
const FUZZ_RUNS = 1000

const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u001f',
      '\u007f',
      '\ud800',
      '\udfff',
      'a',
      '@',
      '.',
      '/',
      '\\',
      '+',
      ' ',
    ),
    maxLength: 30,
  }),
  fc.constantFrom(
    '',
    'a@b.co',
    'Jane Smith',
    '02139',
    '/',
    '//evil.example/x',
    '/\\evil',
    'x'.repeat(70_000),
    'é'.repeat(40_000),
    `${'a'.repeat(10_240)}@example.com`,
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 4 }),
)

function bodies(fields: string[]): fc.Arbitrary<string> {
  const record = fc.dictionary(fc.constantFrom(...fields), nasty, { maxKeys: fields.length })
  return fc.oneof(
    record.map((value) => JSON.stringify(value)),
    fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom(
      'null',
      '[]',
      '"text"',
      '{',
      '{"a":',
      '1e999',
      '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
      '{"__proto__":{"x":1}}',
    ),
    fc.integer({ min: 1, max: 2000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  )
}

interface Target {
  name: string
  url: () => string
  fields: string[]
}

const targets: Target[] = [
  {
    name: 'request-report',
    url: () => `${testEnv.url}/functions/v1/request-report`,
    fields: ['full_name', 'email', 'phone', 'property_address', 'agent_id', 'agent_name', 'agent_location', 'website'],
  },
  {
    name: 'confirm-report',
    url: () => `${testEnv.url}/functions/v1/confirm-report`,
    fields: ['token'],
  },
  {
    name: 'search-agents',
    url: () => `${testEnv.url}/functions/v1/search-agents`,
    fields: ['query', 'type', 'limit', 'offset'],
  },
  {
    name: 'track-pageview',
    url: () => `${testEnv.url}/functions/v1/track-pageview`,
    fields: ['path', 'referrer', 'utm_source', 'device_class'],
  },
  {
    name: 'newsletter-subscribe',
    url: () => `${testEnv.url}/functions/v1/newsletter-subscribe`,
    fields: ['email', 'token'],
  },
  {
    name: 'contact',
    url: () => `${testEnv.url}/functions/v1/contact`,
    fields: ['full_name', 'email', 'message', 'website', 'source_page'],
  },
  { name: 'unsubscribe', url: () => `${testEnv.url}/functions/v1/unsubscribe`, fields: ['token', 'action'] },
  { name: 'auth signup', url: () => `${testEnv.url}/auth/v1/signup`, fields: ['email', 'password', 'data'] },
  { name: 'auth token', url: () => `${testEnv.url}/auth/v1/token?grant_type=password`, fields: ['email', 'password'] },
  { name: 'auth recover', url: () => `${testEnv.url}/auth/v1/recover`, fields: ['email'] },
]

describe('fuzzed bodies get no 5xx', () => {
  for (const target of targets) {
    it(`${target.name}: ${FUZZ_RUNS} generated bodies, zero 5xx, JSON on every 4xx`, { timeout: 600_000 }, async () => {
      const from = freshLoopback()
      const statuses = new Map<number, number>()
      await fc.assert(
        fc.asyncProperty(bodies(target.fields), async (body) => {
          const response = await fetchFrom(from, target.url(), {
            method: 'POST',
            headers: {
              apikey: testEnv.anonKey,
              Authorization: `Bearer ${testEnv.anonKey}`,
              'Content-Type': 'application/json',
              'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 fuzz',
            },
            body,
          })
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          const text = await response.text()
          expect(
            response.status,
            `${target.name} answered ${response.status} to ${body.slice(0, 200)}: ${text.slice(0, 200)}`,
          ).toBeLessThan(500)
          if (response.status >= 400) {
            expect(response.headers.get('content-type') ?? '').toContain('json')
            expect(() => JSON.parse(text)).not.toThrow()
          }
        }),
        { numRuns: FUZZ_RUNS, seed: 20261123 },
      )
      console.log(`${target.name}: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`)
      expect([...statuses.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(FUZZ_RUNS)
    })
  }
})
