/**
 * A recording proxy in front of the test stack's Supabase API, for tests that must know what a client (the site
 * build, the on-demand worker) read: every request is kept (method, path with query, body), and a request that names
 * a refused word (an agent id, a ZIP code) anywhere in its path, query or body is answered 403 instead of being
 * forwarded, as if that data were not readable.
 */
import http from 'node:http'

export interface ProxiedRequest {
  method: string
  /** Path and query, decoded. */
  path: string
  body: string
  refused: boolean
}

export interface ApiProxy {
  url: string
  requests: ProxiedRequest[]
  /** Words whose requests are refused; tests add and remove them. */
  refuse: Set<string>
  /** Requests whose path starts with one of these are never refused (e.g. listing tables). */
  alwaysAllow: string[]
  close(): Promise<void>
}

/** Starts the proxy on a free port of 127.0.0.1 in front of `target` (e.g. http://127.0.0.1:54321). */
export async function startApiProxy(target: string): Promise<ApiProxy> {
  const upstream = new URL(target)
  const proxy: Omit<ApiProxy, 'url' | 'close'> = { requests: [], refuse: new Set(), alwaysAllow: [] }
  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const body = Buffer.concat(chunks)
      const path = decodeURIComponent(incoming.url ?? '/')
      const text = `${path} ${body.toString('utf8')}`
      const refused =
        !proxy.alwaysAllow.some((prefix) => path.startsWith(prefix)) &&
        [...proxy.refuse].some((word) => text.includes(word))
      proxy.requests.push({ method: incoming.method ?? 'GET', path, body: body.toString('utf8'), refused })
      if (refused) {
        outgoing.writeHead(403, { 'Content-Type': 'application/json' })
        outgoing.end(JSON.stringify({ message: 'refused by the test proxy: this data is not readable here' }))
        return
      }
      const forwarded = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: upstream.host },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(outgoing)
        },
      )
      forwarded.on('error', (error) => {
        outgoing.writeHead(502, { 'Content-Type': 'application/json' })
        outgoing.end(JSON.stringify({ message: error.message }))
      })
      forwarded.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  })
}
