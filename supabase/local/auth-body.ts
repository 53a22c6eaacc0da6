/**
 * The /auth/v1 request body check that runs before lite sees a body: lite answers 500 to a body it cannot read, where
 * GoTrue answers a 4xx naming the problem.
 */
import { findControlCharacters } from '../functions/_shared/text-guard.ts'
import { goTrueError } from './auth-errors.ts'

/** Largest /auth/v1 request body accepted, in bytes (GoTrue's bodies are a few hundred bytes). */
export const AUTH_MAX_BODY_BYTES = 64 * 1024

/** Fields GoTrue reads as strings; anything else there is a 400, never a crash in lite. */
const STRING_FIELDS = [
  'email',
  'password',
  'phone',
  'token',
  'token_hash',
  'refresh_token',
  'type',
  'code',
  'factor_id',
  'challenge_id',
  'friendly_name',
  'factor_type',
  'issuer',
  'nonce',
]

/**
 * Reads and checks an /auth/v1 body before lite sees it: at most AUTH_MAX_BODY_BYTES (413), a JSON object (400),
 * string fields that are strings of sane length (400), no control characters (400 naming the field).
 * Returns the parsed body and its text, or the error answer.
 */
export async function readAuthBody(
  request: Request,
): Promise<{ body: Record<string, unknown>; text: string } | Response> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > AUTH_MAX_BODY_BYTES) {
    return goTrueError(413, 'request_too_large', `Request body must be at most ${AUTH_MAX_BODY_BYTES} bytes`)
  }
  const bytes = new Uint8Array(await request.arrayBuffer())
  if (bytes.byteLength > AUTH_MAX_BODY_BYTES)
    return goTrueError(413, 'request_too_large', `Request body must be at most ${AUTH_MAX_BODY_BYTES} bytes`)
  const text = new TextDecoder().decode(bytes)
  if (text.trim() === '') return { body: {}, text: '{}' }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return goTrueError(400, 'bad_json', 'Could not parse request body as JSON')
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return goTrueError(400, 'bad_json', 'Request body must be a JSON object')
  const record = body as Record<string, unknown>
  for (const field of STRING_FIELDS) {
    const value = record[field]
    if (value === undefined || value === null) continue
    if (typeof value !== 'string') return goTrueError(400, 'validation_failed', `${field} must be a string`)
    const max = field === 'email' ? 320 : field === 'password' ? 1024 : 4096
    if (value.length > max) return goTrueError(400, 'validation_failed', `${field} must be at most ${max} characters`)
  }
  const field = findControlCharacters(record)
  if (field) return goTrueError(400, 'validation_failed', `${field} must not contain control characters`)
  return { body: record, text }
}
/** A copy of `request` carrying `text` as its body. */
export function withBody(request: Request, text: string): Request {
  const headers = new Headers(request.headers)
  headers.delete('content-length')
  return new Request(request.url, { method: request.method, headers, body: text })
}
