/**
 * Requests from a chosen loopback address. The local gateway, like the hosted one, tells functions and the auth
 * API the connecting address (the last X-Forwarded-For hop), which a header cannot forge; tests that need several
 * "clients" connect from different addresses of 127.0.0.0/8 (all loopback on Linux) instead.
 */
import http from 'node:http'

let next = 2

/** A loopback address not handed out before in this process (127.0.0.2 upwards, then 127.0.x.y). */
export function freshLoopback(): string {
  next += 1
  const offset = (process.pid % 200) * 250 + next
  return `127.${(Math.floor(offset / 62500) % 250) + 1}.${Math.floor(offset / 250) % 250}.${(offset % 250) + 2}`
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
