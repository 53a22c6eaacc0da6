/**
 * The build hook's HTTP endpoint, as a static host's build hook URL behaves:
 *
 *   POST http://127.0.0.1:<port>/site-build   x-webhook-secret: <secret>   {"reason": "post published: my-slug"}
 *   -> 202 {"queued": true}
 *
 * 401 without the right secret, 405 for another method, 400 naming the problem for a body that is not
 * `{"reason"?: string}` JSON.
 */
import { timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import { z } from 'zod'

/** Header every database webhook sends its shared secret in (private.send_webhook). */
export const SECRET_HEADER = 'x-webhook-secret'
/** Path of the hook on its port. */
export const HOOK_PATH = '/site-build'

const HookBodySchema = z.object({ reason: z.string().trim().min(1).max(2000).optional() }).loose()

/** Starts the endpoint on 127.0.0.1 (`port` 0: any free port); `request` gets each accepted reason. */
export async function serveBuildHook(options: {
  secret: string
  port: number
  request: (reason: string) => void
}): Promise<{ url: string; close(): Promise<void> }> {
  const expected = Buffer.from(options.secret)
  const server = http.createServer((incoming, response) => {
    const answer = (status: number, body: unknown) =>
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
    const url = new URL(incoming.url ?? '/', 'http://localhost')
    if (url.pathname !== HOOK_PATH) return answer(404, { error: `Not found: ${url.pathname}` })
    if (incoming.method !== 'POST') return answer(405, { error: 'Use POST' })
    const given = Buffer.from(String(incoming.headers[SECRET_HEADER] ?? ''))
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return answer(401, { error: `Missing or wrong ${SECRET_HEADER} header` })
    }
    let body = ''
    incoming.setEncoding('utf8')
    incoming.on('data', (chunk: string) => {
      if (body.length < 100_000) body += chunk
    })
    incoming.on('end', () => {
      let json: unknown
      try {
        json = body.trim() ? JSON.parse(body) : {}
      } catch {
        return answer(400, { error: 'The body must be JSON' })
      }
      const parsed = HookBodySchema.safeParse(json)
      if (!parsed.success)
        return answer(400, {
          error: `Invalid body: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`,
        })
      options.request(parsed.data.reason ?? 'build hook called')
      answer(202, { queued: true })
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}${HOOK_PATH}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
