/**
 * Serves the built site the way the production static host is configured: the Astro output at /, the admin app at
 * /admin/ (any unknown /admin/* path falls back to its index.html, as a single-page app), each prerendered
 * /agent/<id>; a path that is no file and that the site's Pages Functions route (`_worker.js/` and `_routes.json` in
 * the site directory: ./pages-functions.ts) is answered by that worker under Cloudflare's runtime, as Pages does;
 * without a worker, agent/not-found/index.html with status 404 for an agent id the build did not render,
 * blog/404/index.html ('Article Not Found') with status 404 for an unknown /blog/* path, 404.html with status 404
 * for anything else, and on every answer the headers of public/_headers (./headers-file.ts) for the requested path,
 * as Netlify and Cloudflare Pages apply that file. Text answers (HTML, JS, CSS, SVG, JSON) are compressed on the fly
 * with Brotli or gzip, whichever the browser accepts (the `compression` middleware), as those hosts do, so local
 * Lighthouse runs see the transfer sizes a visitor gets.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import compression from 'compression'
import sirv from 'sirv'

import { headersFor, readHeadersFile } from './headers-file.ts'
import { pagesFunctions, type PagesFunctions } from './pages-functions.ts'

const publicHeadersFile = path.resolve(import.meta.dirname, '../../public/_headers')

export interface StaticServerOptions {
  port: number
  /** Returns the current site directory (it can be swapped by a rebuild while the server runs). */
  siteDir: () => string
  adminDir: string
  log?: (line: string) => void
}

/**
 * The Pages Functions of the site directory being served (none when it has no worker), replaced when a rebuild swaps
 * the directory; a replaced one is stopped a minute later, so requests in flight finish.
 */
function functionsOfSite() {
  let current: { dir: string; functions: PagesFunctions | null } | undefined
  const timers = new Set<NodeJS.Timeout>()
  const retired = new Set<PagesFunctions>()
  return {
    for(dir: string): PagesFunctions | null {
      if (current?.dir !== dir) {
        const previous = current?.functions
        if (previous) {
          retired.add(previous)
          const timer = setTimeout(() => {
            timers.delete(timer)
            retired.delete(previous)
            void previous.dispose()
          }, 60_000)
          timer.unref()
          timers.add(timer)
        }
        current = { dir, functions: pagesFunctions(dir) }
      }
      return current.functions
    },
    async close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      await Promise.all([...retired, ...(current?.functions ? [current.functions] : [])].map((f) => f.dispose()))
      retired.clear()
      current = undefined
    },
  }
}

/** A Node request as a fetch Request to the same URL. */
function toFetchRequest(request: http.IncomingMessage): Request {
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Readable.toWeb(request)
  return new Request(`http://${request.headers.host ?? 'localhost'}${request.url}`, {
    method: request.method,
    headers: Object.entries(request.headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ) as [string, string][],
    body: body as BodyInit | undefined,
    duplex: 'half',
  } as RequestInit)
}

/** Sends a fetch Response through Node's response. */
async function sendResponse(response: Response, to: http.ServerResponse) {
  to.statusCode = response.status
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue
    to.setHeader(name, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length) to.setHeader('set-cookie', cookies)
  if (!response.body) return void to.end()
  Readable.fromWeb(response.body as WebReadableStream).pipe(to)
}

/** Starts the server on 127.0.0.1:port; resolves once listening. Closing it stops the site's functions. */
export async function startStaticServer(options: StaticServerOptions): Promise<http.Server> {
  const functions = functionsOfSite()
  const handlers = new Map<string, ReturnType<typeof sirv>>()
  const handlerFor = (dir: string, single: boolean) => {
    const key = `${dir}:${single}`
    let handler = handlers.get(key)
    if (!handler) {
      handler = sirv(dir, { dev: true, etag: true, single, extensions: ['html'] })
      handlers.set(key, handler)
    }
    return handler
  }
  // Express-style middleware; it only needs Node's request and response objects
  const compress = compression() as unknown as (
    request: http.IncomingMessage,
    response: http.ServerResponse,
    next: () => void,
  ) => void
  const server = http.createServer((request, response) =>
    compress(request, response, () => {
      const url = new URL(request.url ?? '/', 'http://localhost')
      // the built site carries its copy of public/_headers; before the first build, the source file
      const siteHeaders = path.join(options.siteDir(), '_headers')
      const rules = readHeadersFile(fs.existsSync(siteHeaders) ? siteHeaders : publicHeadersFile)
      for (const [name, value] of headersFor(rules, url.pathname)) response.setHeader(name, value)
      if (/^\/(_headers|_redirects|_routes\.json|_worker\.js(\/.*)?)$/.test(url.pathname)) {
        notFound(options.siteDir(), response) // configuration of the host, not a page (static hosts do not serve it)
        return
      }
      if (url.pathname === '/admin') {
        response.writeHead(301, { Location: '/admin/' }).end()
        return
      }
      if (url.pathname.startsWith('/admin/')) {
        request.url = request.url!.slice('/admin'.length) || '/'
        handlerFor(options.adminDir, true)(request, response, () => notFound(options.adminDir, response))
        return
      }
      const siteDir = options.siteDir()
      // an agent the build did not render gets the agent 404 page (its island still shows agents newer than the build)
      const agentPage = /^\/agent\/([^/]+)\/?$/.exec(url.pathname)
      const agentNotFound = () =>
        notFound(
          siteDir,
          response,
          fs.existsSync(path.join(siteDir, 'agent/not-found/index.html')) ? 'agent/not-found/index.html' : '404.html',
        )
      const missing = () => {
        options.log?.(`404 ${url.pathname}`)
        if (agentPage) agentNotFound()
        else if (url.pathname.startsWith('/blog/') && fs.existsSync(path.join(siteDir, 'blog/404/index.html')))
          notFound(siteDir, response, 'blog/404/index.html')
        else notFound(siteDir, response)
      }
      handlerFor(siteDir, false)(request, response, () => {
        const worker = functions.for(siteDir)
        if (!worker?.handles(url.pathname)) return missing()
        worker
          .fetch(toFetchRequest(request))
          .then((answer) => sendResponse(answer, response))
          .catch((error: unknown) => {
            options.log?.(`502 ${url.pathname}: ${(error as Error).message}`)
            if (response.headersSent) return void response.destroy()
            response.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' })
            response.end("The site's functions could not answer this page.")
          })
      })
    }),
  )
  server.on('close', () => void functions.close())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  return server
}

function notFound(dir: string, response: http.ServerResponse, file = '404.html') {
  const page = path.join(dir, file)
  response.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' })
  response.end(fs.existsSync(page) ? fs.readFileSync(page) : 'Not found')
}
