/**
 * The PostgREST side (/rest/v1) of the local API: lite answers the request, and this layer makes the answer the one
 * PostgREST gives:
 *  - timestamps and numerics are rendered as PostgREST renders them (`postgresTypes`, installed on lite's connection);
 *  - a bearer token that is not a valid JWT is refused with 401 PGRST301 (PGRST303 when expired);
 *  - `Accept: application/vnd.pgrst.object+json` always yields one object, or 406 PGRST116;
 *  - database errors lite does not classify (check violations and others) keep their SQLSTATE and get PostgREST's
 *    HTTP status instead of 500 "SUP" (`postgrestStatus`; the errors are tagged by ./lite-adapter.ts).
 */
import type { App } from '@supabase/lite'
import { JwtError, bearerToken, verifyJwt } from './jwt.ts'
import { errorMarker } from './lite-adapter.ts'

/**
 * postgres.js parsers so that values leave the database the way PostgREST's JSON does: `timestamptz` as
 * 2026-01-02T03:04:05.123+00:00, `timestamp` as 2026-01-02T03:04:05.123, numerics as JSON numbers.
 * (PostgREST serializes through Postgres' own json output, which uses ISO 8601 with a T and a full offset.)
 */
export const postgresTypes = {
  timestamptz: {
    to: 1184,
    from: [1184],
    serialize: (value: unknown) => (value instanceof Date ? value.toISOString() : String(value)),
    parse: (value: string) => isoTimestamp(value),
  },
  timestamp: {
    to: 1114,
    from: [1114],
    serialize: (value: unknown) => (value instanceof Date ? value.toISOString().replace('Z', '') : String(value)),
    parse: (value: string) => isoTimestamp(value),
  },
  numeric: {
    to: 1700,
    from: [1700],
    serialize: (value: unknown) => String(value),
    parse: (value: string) => numericValue(value),
  },
}

/** '2026-01-02 03:04:05.123+00' -> '2026-01-02T03:04:05.123+00:00'; infinity stays as Postgres writes it. */
export function isoTimestamp(value: string): string {
  const match = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(
    value,
  )
  if (match) {
    const [, date, time, hours, minutes = '00', seconds] = match
    return `${date}T${time}${hours}:${minutes}${seconds ? ':' + seconds : ''}`
  }
  const naive = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/.exec(value)
  return naive ? `${naive[1]}T${naive[2]}` : value
}

/** Numeric text to a JSON number, as PostgREST emits it; NaN/Infinity and out-of-range stay text. */
export function numericValue(value: string): number | string {
  const number = Number(value)
  return Number.isFinite(number) && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value) ? number : value
}

/** PostgREST's error body for JWT failures, with its WWW-Authenticate header. */
export function jwtErrorResponse(error: JwtError): Response {
  return Response.json(
    { code: error.code, details: null, hint: null, message: error.message },
    {
      status: 401,
      headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${error.message}"` },
    },
  )
}

/** A /rest/v1 request through lite, answered as PostgREST answers it (see the module comment). */
export async function restRequest(
  app: App,
  options: { jwtSecret: string },
  request: Request,
  peerAddress: string | null,
) {
  const token = bearerToken(request)
  if (token && !token.startsWith('sb_')) {
    try {
      await verifyJwt(options.jwtSecret, token)
    } catch (error) {
      if (error instanceof JwtError) return jwtErrorResponse(error)
      throw error
    }
  }
  const response = await postgrestErrors(await app.fetch(request, { peerAddress }))
  const wantsObject = (request.headers.get('accept') ?? '').includes('application/vnd.pgrst.object')
  if (!wantsObject || !response.ok || response.status === 204) return response
  const body = await response.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return new Response(body, response)
  }
  if (!Array.isArray(parsed)) return new Response(body, response)
  if (parsed.length !== 1) {
    return Response.json(
      {
        code: 'PGRST116',
        details: `The result contains ${parsed.length} rows`,
        hint: null,
        message: 'JSON object requested, multiple (or no) rows returned',
      },
      { status: 406, headers: { 'Content-Type': 'application/json; charset=utf-8' } },
    )
  }
  const headers = new Headers(response.headers)
  headers.set('Content-Type', 'application/vnd.pgrst.object+json; charset=utf-8')
  headers.delete('Content-Length')
  return new Response(JSON.stringify(parsed[0]), { status: response.status, headers })
}

/**
 * PostgREST's HTTP status for SQLSTATEs that lite leaves unmapped
 * (https://docs.postgrest.org/en/stable/references/errors.html); null where lite already answers correctly.
 */
export function postgrestStatus(code: string): number | null {
  if (['23505', '23503', '42501', '42P01', '25006', '42883', '42P17', '23502'].includes(code)) return null
  if (/^(42|22|21)/.test(code) || code.startsWith('PT') || code === 'PGRST') return null
  if (/^(08|53)/.test(code)) return 503
  if (/^(0L|0P|28)/.test(code)) return 403
  if (code === 'P0001') return 400
  if (/^(09|25|2D|38|39|3B|40|54|55|57|58|F0|HV|P0|XX)/.test(code)) return 500
  return 400
}

/** Turns lite's 500 for a tagged database error back into PostgREST's error body and status. */
async function postgrestErrors(response: Response): Promise<Response> {
  if (response.status !== 500) return response
  const text = await response.text()
  const index = text.indexOf(errorMarker)
  if (index === -1) return new Response(text, response)
  try {
    const body = JSON.parse(text) as { message: string }
    const inner = body.message.slice(body.message.indexOf(errorMarker) + errorMarker.length)
    const error = JSON.parse(inner) as { code: string; message: string; details: string | null; hint: string | null }
    return Response.json(error, { status: postgrestStatus(error.code) ?? 500 })
  } catch {
    return new Response(text, response)
  }
}
