/**
 * Requests from a chosen loopback address. The local gateway, like the hosted one, tells functions and the auth
 * API the connecting address (the last X-Forwarded-For hop), which a header cannot forge; tests that need several
 * "clients" connect from different addresses of 127.0.0.0/8 (all loopback on Linux) instead.
 */
import { randomInt } from 'node:crypto'
import http from 'node:http'

/**
 * Where this module's addresses start: a random block of 250 among 62,500 (127.1.0.2 to 127.250.249.251). The rate
 * limits remember an address for an hour across test files, so two files must not be handed the same addresses; a
 * block chosen from the process id collided when two files' process ids were equal modulo 200 (a file then met its
 * per-address limit early).
 */
const base = randomInt(0, 62_500) * 250
let next = 0

/** A loopback address not handed out before by this module (250 in a row, then the next block). */
export function freshLoopback(): string {
  const offset = (base + next) % (62_500 * 250)
  next += 1
  return `127.${Math.floor(offset / 62_500) + 1}.${Math.floor(offset / 250) % 250}.${(offset % 250) + 2}`
}

/**
 * fetch() from `localAddress`: method, headers and a string body; resolves with a standard Response.
 * @throws the socket error when the connection fails.
 */
export function fetchFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  const target = new URL(url)
  const headers = {
    ...init.headers,
    ...(init.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(init.body)) } : {}),
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: init.method ?? 'GET',
        headers,
        localAddress,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
          }
          const status = response.statusCode ?? 500
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers }))
        })
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    if (init.body !== undefined) request.write(init.body)
    request.end()
  })
}
