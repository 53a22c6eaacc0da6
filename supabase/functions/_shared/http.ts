/**
 * The one request shell of every edge function. `serveFunction` wraps a handler and answers, before the handler runs:
 *  - OPTIONS -> 204 CORS preflight; CORS headers on every answer (see `corsHeadersFor`):
 *      'public'  `Access-Control-Allow-Origin: *` (functions the site's visitors call with the anon key only);
 *      'site'    the site's own origin (SITE_URL) and CORS_ALLOWED_ORIGINS (comma-separated) only; when SITE_URL is a
 *                loopback address (local stack, tests) any loopback origin, since dev servers use other ports;
 *      'none'    no CORS headers (server-to-server callers such as the database webhook).
 *  - a method not in `methods` -> 405 with Allow.
 *  - a body over `maxBodyBytes` (default 64 KB, counted in bytes as read, not trusted from Content-Length) -> 413.
 *  - a POST body whose Content-Type is not application/json -> 415 (a function with `formBodies` also takes
 *    application/x-www-form-urlencoded and multipart/form-data, read into an object of its text fields: the one-click
 *    unsubscribe POST of RFC 8058 is a form).
 *  - a body that is not JSON -> 400; a JSON body that is not an object -> 400.
 *  - any string (value or key, at any depth) holding U+0000-U+001F other than tab/LF/CR, U+007F, or an unpaired
 *    UTF-16 surrogate -> 400 naming the field (`<field> must not contain control characters`).
 * Inside the handler, the one way to validate a body is `parseBody(schema, body)`: on failure it throws, and the
 * shell answers 400 `{error, errors}` where `errors` holds one message per field (./field-errors.ts) and `error` is
 * the first of them. A thrown `HttpError` -> its status and message; anything else (including a ZodError from
 * checking the handler's own data) -> 500 `{error: failureMessage}` with the detail only in the function log.
 * Every answer is JSON (`Response.json`).
 */
import { z } from 'zod'

import { fieldErrors, firstFieldMessage } from './field-errors.ts'
import { findControlCharacters } from './text-guard.ts'

export { fieldErrors, findControlCharacters }

/** Default body cap in bytes (64 KB): every form and beacon of the product fits in a few KB. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024

export type CorsPolicy = 'public' | 'site' | 'none'

/** An answer the handler wants to give with a status other than 2xx (message shown to the caller as is). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Field messages for a 400 from `parseBody`. */
    readonly errors?: Record<string, string>,
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

/**
 * The one body validation of every function: `schema` parses the body (defaults and transforms applied).
 * @throws HttpError 400 whose `errors` hold one message per field and whose message is the first of them; the shell
 *   answers it as `{error, errors}`. Messages name their field, so either form tells the caller what to fix.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  const errors = fieldErrors(parsed.error)
  throw new HttpError(400, firstFieldMessage(errors), {}, errors)
}

/** What a handler receives: the request, the parsed JSON body (undefined for GET) and the CORS headers to send. */
export interface FunctionRequest {
  request: Request
  body: Record<string, unknown> | undefined
  /** JSON answer with this function's CORS headers. */
  json(body: unknown, status?: number, headers?: Record<string, string>): Response
  /** This request's CORS headers, for an answer that is not JSON (a file). */
  corsHeaders: Record<string, string>
}

export interface FunctionOptions {
  /** Function slug, for log lines. */
  name: string
  cors: CorsPolicy
  /** Allowed methods besides OPTIONS (default ['POST']). */
  methods?: ('GET' | 'POST')[]
  /** Body cap in bytes (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number
  /** The generic 500 message callers see. */
  failureMessage: string
  /** The 400 message for a body that is not a JSON object (default 'The request body must be a JSON object'). */
  invalidBodyMessage?: string
  /** Also accept form-encoded POST bodies (application/x-www-form-urlencoded, multipart/form-data). */
  formBodies?: boolean
  handle(input: FunctionRequest): Promise<Response>
}

const ALLOWED_HEADERS = 'authorization, x-client-info, apikey, content-type'

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]'
}

/** Origins allowed for 'site' functions: SITE_URL's origin plus CORS_ALLOWED_ORIGINS (comma-separated origins). */
export function siteOrigins(env: { SITE_URL?: string; CORS_ALLOWED_ORIGINS?: string }): string[] {
  const origins: string[] = []
  for (const value of [env.SITE_URL, ...(env.CORS_ALLOWED_ORIGINS ?? '').split(',')]) {
    const trimmed = value?.trim()
    if (!trimmed) continue
    try {
      origins.push(new URL(trimmed).origin)
    } catch {
      throw new Error(`Not a URL in SITE_URL/CORS_ALLOWED_ORIGINS: ${trimmed}`)
    }
  }
  return origins
}

/**
 * The CORS headers for one request. 'site': the request's Origin echoed when allowed (with Vary: Origin), no
 * Allow-Origin otherwise, so the browser refuses to hand the answer to a foreign page.
 */
export function corsHeadersFor(
  policy: CorsPolicy,
  origin: string | null,
  allowed: string[],
  methods: string[],
): Record<string, string> {
  if (policy === 'none') return {}
  const common = {
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
  }
  if (policy === 'public') return { ...common, 'Access-Control-Allow-Origin': '*' }
  const loopbackSite = allowed.some((entry) => isLoopback(new URL(entry).hostname))
  let permitted = false
  if (origin) {
    try {
      const url = new URL(origin)
      permitted = allowed.includes(url.origin) || (loopbackSite && isLoopback(url.hostname))
    } catch {
      permitted = false
    }
  }
  return permitted ? { ...common, 'Access-Control-Allow-Origin': origin!, Vary: 'Origin' } : { Vary: 'Origin' }
}

/** Reads at most `limit` bytes of the body; null when it is longer (the rest is not read). */
async function readCapped(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) return null
  if (!request.body) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return null
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/**
 * Parses and checks a request body as the shell does. Returns the object, or an HttpError to answer with.
 * Exported for the unit and fuzz tests.
 */
export async function parseJsonBody(
  request: Request,
  maxBodyBytes: number,
  invalidBodyMessage = 'The request body must be a JSON object',
  formBodies = false,
): Promise<Record<string, unknown> | HttpError> {
  const contentType = request.headers.get('content-type') ?? ''
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  const isForm = formBodies && (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data')
  if (type !== 'application/json' && !isForm) return new HttpError(415, 'Content-Type must be application/json')
  const bytes = await readCapped(request, maxBodyBytes)
  if (bytes === null) return new HttpError(413, `The request body must be at most ${maxBodyBytes} bytes`)
  if (isForm) return parseFormBody(bytes, contentType)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return new HttpError(400, 'The request body must be UTF-8 JSON')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return new HttpError(400, invalidBodyMessage)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return new HttpError(400, invalidBodyMessage)
  const field = findControlCharacters(value)
  if (field) return new HttpError(400, `${field} must not contain control characters`)
  return value as Record<string, unknown>
}

/** The text fields of a form body (files are ignored); 400 when it cannot be read as the type it claims. */
async function parseFormBody(bytes: Uint8Array, contentType: string): Promise<Record<string, unknown> | HttpError> {
  let form: FormData
  try {
    form = await new Response(bytes as BodyInit, { headers: { 'content-type': contentType } }).formData()
  } catch {
    return new HttpError(400, 'The request body is not a readable form')
  }
  const fields: Record<string, unknown> = {}
  for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value
  const field = findControlCharacters(fields)
  if (field) return new HttpError(400, `${field} must not contain control characters`)
  return fields
}

/** Serves `options.handle` behind the shell described at the top of this file (Deno.serve). */
export function serveFunction(options: FunctionOptions): void {
  Deno.serve(functionHandler(options))
}

/** The shell as a plain fetch handler (what serveFunction serves). */
export function functionHandler(options: FunctionOptions): (request: Request) => Promise<Response> {
  const methods = options.methods ?? ['POST']
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const allowed =
    options.cors === 'site'
      ? siteOrigins({ SITE_URL: Deno.env.get('SITE_URL'), CORS_ALLOWED_ORIGINS: Deno.env.get('CORS_ALLOWED_ORIGINS') })
      : []

  return async (request) => {
    const cors = corsHeadersFor(options.cors, request.headers.get('origin'), allowed, methods)
    const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
      Response.json(body, { status, headers: { ...cors, ...headers } })
    if (request.method === 'OPTIONS')
      return new Response(null, { status: 204, headers: { ...cors, 'Access-Control-Max-Age': '86400' } })
    if (!methods.includes(request.method as 'GET' | 'POST')) {
      return json({ error: `Use ${methods.join(' or ')}` }, 405, { Allow: [...methods, 'OPTIONS'].join(', ') })
    }
    try {
      let body: Record<string, unknown> | undefined
      if (request.method === 'POST') {
        const parsed = await parseJsonBody(request, maxBodyBytes, options.invalidBodyMessage, options.formBodies)
        if (parsed instanceof HttpError) return json({ error: parsed.message }, parsed.status)
        body = parsed
      }
      return await options.handle({ request, body, json, corsHeaders: cors })
    } catch (error) {
      if (error instanceof HttpError) {
        return json(
          error.errors ? { error: error.message, errors: error.errors } : { error: error.message },
          error.status,
          error.headers,
        )
      }
      console.error(`${options.name} failed`, error)
      return json({ error: options.failureMessage }, 500)
    }
  }
}
