import { describe, expect, it } from 'vitest'
import { z } from 'zod'

import { corsHeadersFor, findControlCharacters, HttpError, parseBody, parseJsonBody, siteOrigins } from './http.ts'

const post = (body: string, type = 'application/json') =>
  new Request('http://x/fn', { method: 'POST', headers: { 'Content-Type': type }, body })

describe('request shell', () => {
  it('names the first field holding a control character or a lone surrogate', () => {
    expect(findControlCharacters({ a: 'ok\tfine\n', b: { c: ['x', 'y\u0000'] } })).toBe('b.c[1]')
    expect(findControlCharacters({ name: 'a\ud800' })).toBe('name')
    expect(findControlCharacters({ emoji: '😀' })).toBeNull()
    expect(findControlCharacters(JSON.parse('['.repeat(20_000) + ']'.repeat(20_000)))).toBeNull()
  })

  it('answers 415, 413 and 400 before a handler sees the body', async () => {
    expect(await parseJsonBody(post('{}', 'text/plain'), 100)).toEqual(
      new HttpError(415, 'Content-Type must be application/json'),
    )
    expect(await parseJsonBody(post(JSON.stringify({ a: 'x'.repeat(200) })), 100)).toEqual(
      new HttpError(413, 'The request body must be at most 100 bytes'),
    )
    expect(await parseJsonBody(post('null'), 100)).toEqual(new HttpError(400, 'The request body must be a JSON object'))
    expect(await parseJsonBody(post('{"name":"a\\u0000"}'), 100)).toEqual(
      new HttpError(400, 'name must not contain control characters'),
    )
    expect(await parseJsonBody(post('{"name":"Ana"}'), 100)).toEqual({ name: 'Ana' })
  })

  it('reads form bodies only for functions that take them (the one-click unsubscribe POST)', async () => {
    const form = 'application/x-www-form-urlencoded'
    expect(await parseJsonBody(post('List-Unsubscribe=One-Click', form), 100)).toEqual(
      new HttpError(415, 'Content-Type must be application/json'),
    )
    expect(await parseJsonBody(post('List-Unsubscribe=One-Click', form), 100, undefined, true)).toEqual({
      'List-Unsubscribe': 'One-Click',
    })
    const multipart = new FormData()
    multipart.set('List-Unsubscribe', 'One-Click')
    const request = new Request('http://x/fn', { method: 'POST', body: multipart })
    expect(await parseJsonBody(request, 1000, undefined, true)).toEqual({ 'List-Unsubscribe': 'One-Click' })
    expect(await parseJsonBody(post('a=%00', form), 100, undefined, true)).toEqual(
      new HttpError(400, 'a must not contain control characters'),
    )
  })

  it("echoes only allowed origins for 'site' functions, and any loopback origin for a loopback site", () => {
    const allowed = siteOrigins({
      SITE_URL: 'https://agents.example.com/',
      CORS_ALLOWED_ORIGINS: 'https://admin.example.com',
    })
    expect(corsHeadersFor('site', 'https://agents.example.com', allowed, ['POST'])['Access-Control-Allow-Origin']).toBe(
      'https://agents.example.com',
    )
    expect(
      corsHeadersFor('site', 'https://evil.example', allowed, ['POST'])['Access-Control-Allow-Origin'],
    ).toBeUndefined()
    expect(
      corsHeadersFor('site', 'http://localhost:5173', siteOrigins({ SITE_URL: 'http://localhost:4321' }), ['POST'])[
        'Access-Control-Allow-Origin'
      ],
    ).toBe('http://localhost:5173')
    expect(corsHeadersFor('public', 'https://evil.example', [], ['POST'])['Access-Control-Allow-Origin']).toBe('*')
    expect(corsHeadersFor('none', 'https://evil.example', [], ['POST'])).toEqual({})
  })
})

describe('parseBody, the one body validator', () => {
  const Schema = z
    .object({
      name: z.string({ error: 'name must be text' }).min(1, 'name is required'),
      address: z.object({ zip: z.string().regex(/^\d{5}$/, 'address.zip must be 5 digits') }).optional(),
    })
    .strict()

  function refusal(body: unknown): HttpError {
    try {
      parseBody(Schema, body)
    } catch (error) {
      if (error instanceof HttpError) return error
      throw error
    }
    throw new Error('parseBody accepted the body')
  }

  it('returns the parsed body', () => {
    expect(parseBody(Schema, { name: 'Ana' })).toEqual({ name: 'Ana' })
  })

  it('answers 400 with one message per field, the first problem of each, and the first message as error', () => {
    const error = refusal({ name: '', address: { zip: '1' } })
    expect(error.status).toBe(400)
    expect(error.message).toBe('name is required')
    expect(error.errors).toEqual({ name: 'name is required', 'address.zip': 'address.zip must be 5 digits' })
  })

  it('names an unknown field of a strict body under its own name', () => {
    expect(refusal({ name: 'Ana', locale: 'x' }).errors).toEqual({ locale: 'Unknown field: locale' })
  })

  it("puts a whole-body rule's message under 'body'", () => {
    const error = (() => {
      try {
        parseBody(
          z.object({ a: z.string().optional() }).refine((body) => body.a, 'Send a'),
          {},
        )
      } catch (thrown) {
        return thrown as HttpError
      }
    })()
    expect(error).toMatchObject({ status: 400, message: 'Send a', errors: { body: 'Send a' } })
  })
})
