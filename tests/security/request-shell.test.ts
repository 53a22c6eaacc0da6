/**
 * The one request shell of every edge function and the local auth API's body checks: a body over the cap is 413, a
 * control character in any field is a 400 naming the field, a body that is not a JSON object is a 400, never a
 * 500. Each case is named after the rule it guards; tests/security/fuzz.test.ts drives the same endpoints with
 * generated bodies.
 */
import { describe, expect, it } from 'vitest'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { testEnv } from '../support/env.ts'

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

function callFunction(slug: string, body: unknown, from = freshLoopback()): Promise<Response> {
  return fetchFrom(from, `${testEnv.url}/functions/v1/${slug}`, {
    method: 'POST',
    headers: anonHeaders(),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

describe('bodies are capped', () => {
  it('answers 413 to a body one byte over 64 KB', async () => {
    const filler = 'x'.repeat(64 * 1024)
    const body = JSON.stringify({ full_name: filler, email: 'big@example.com' }).slice(0, 64 * 1024 + 1)
    expect(Buffer.byteLength(body)).toBe(64 * 1024 + 1)
    const response = await callFunction('request-report', body)
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ error: 'The request body must be at most 65536 bytes' })
  })
})

describe('bad input is a 400 naming the field, never a 500', () => {
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
      ['confirm-report', { token: 'a\u0000' }, 'token must not contain control characters'],
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
