/**
 * Cloudflare Pages Functions in "advanced mode" for the local static server, as Pages runs them: when the published
 * directory holds `_worker.js/index.js`, that worker runs under Cloudflare's own runtime (workerd, through Miniflare)
 * and answers the paths `_routes.json` includes (and does not exclude); its `ASSETS` binding serves the directory's
 * files. The worker's compatibility date and flags come from `_worker.js/wrangler.json` when the build wrote one.
 * (https://developers.cloudflare.com/pages/functions/advanced-mode/, .../pages/functions/routing/)
 *
 * Nothing here knows what the worker does; a directory without `_worker.js/index.js` has no functions.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'

export interface PagesFunctions {
  /** Whether `_routes.json` sends this path to the worker. */
  handles(pathname: string): boolean
  /** The worker's answer to a request (the runtime starts on the first one). @throws when workerd cannot start. */
  fetch(request: Request): Promise<Response>
  dispose(): Promise<void>
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.webmanifest': 'application/manifest+json',
}

/** Files Pages never serves from the publish directory. */
const HIDDEN = /^\/(_worker\.js(\/|$)|_routes\.json$|_headers$|_redirects$)/

/** The file a path names in `dir` (the file, `<path>/index.html` or `<path>.html`), or null. */
export function staticFile(dir: string, pathname: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return null
  }
  if (HIDDEN.test(decoded) || decoded.includes('\0')) return null
  const base = path.resolve(dir)
  for (const candidate of [decoded, path.posix.join(decoded, 'index.html'), `${decoded.replace(/\/$/, '')}.html`]) {
    const file = path.resolve(base, `.${candidate}`)
    if (!file.startsWith(`${base}${path.sep}`)) continue
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return file
  }
  return null
}

/** `_routes.json` patterns (`*` matches any run of characters) as one test. */
export function routeMatcher(routes: { include?: string[]; exclude?: string[] }): (pathname: string) => boolean {
  const compile = (patterns: string[] = []) =>
    patterns.map(
      (pattern) =>
        new RegExp(
          `^${pattern
            .split('*')
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('.*')}$`,
        ),
    )
  const include = compile(routes.include)
  const exclude = compile(routes.exclude)
  return (pathname) => include.some((test) => test.test(pathname)) && !exclude.some((test) => test.test(pathname))
}

/** The JavaScript modules under `dir` (absolute paths). */
function workerModules(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
}

/**
 * The worker of `siteDir`, or null when the directory has none. Its runtime starts on the first request.
 * `options.assets: false` gives the worker an `ASSETS` binding that finds no file, so it renders every path it has a
 * route for, even one the directory holds as a file (the local builder's re-renders: scripts/lib/site-patch.ts).
 * @throws when `_routes.json` or `_worker.js/wrangler.json` is not valid JSON.
 */
export function pagesFunctions(siteDir: string, options: { assets?: boolean } = {}): PagesFunctions | null {
  const assets = options.assets ?? true
  const workerDir = path.join(siteDir, '_worker.js')
  const entry = path.join(workerDir, 'index.js')
  if (!fs.existsSync(entry)) return null
  const routesFile = path.join(siteDir, '_routes.json')
  const handles = fs.existsSync(routesFile)
    ? routeMatcher(JSON.parse(fs.readFileSync(routesFile, 'utf8')) as { include?: string[]; exclude?: string[] })
    : () => true
  const wranglerFile = path.join(workerDir, 'wrangler.json')
  const settings = fs.existsSync(wranglerFile)
    ? (JSON.parse(fs.readFileSync(wranglerFile, 'utf8')) as {
        compatibility_date?: string
        compatibility_flags?: string[]
      })
    : {}

  let started: Promise<Miniflare> | undefined
  const start = async () => {
    const miniflare = new Miniflare(
      convertV4MiniflareOptions({
        // every JavaScript module of the directory, the entry first (Pages bundles _worker.js/ the same way)
        modulesRoot: workerDir,
        modules: [entry, ...workerModules(workerDir).filter((file) => file !== entry)].map((file) => ({
          type: 'ESModule' as const,
          path: file,
        })),
        compatibilityDate: settings.compatibility_date ?? '2026-01-01',
        compatibilityFlags: settings.compatibility_flags ?? [],
        serviceBindings: {
          // the directory's files, as Pages' asset server answers them (404 for anything else)
          ASSETS: async (request: { url: string }) => {
            const file = assets ? staticFile(siteDir, new URL(request.url).pathname) : null
            if (!file) return new Response('Not found', { status: 404 })
            return new Response(fs.readFileSync(file), {
              headers: { 'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' },
            })
          },
        },
      }),
    )
    await miniflare.ready
    return miniflare
  }
  return {
    handles,
    async fetch(request) {
      started ??= start().catch((error: unknown) => {
        started = undefined // the next request tries again
        throw error
      })
      const miniflare = await started
      const response = await miniflare.dispatchFetch(request.url, {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body: request.body,
        redirect: 'manual',
        duplex: 'half',
      } as never)
      // Miniflare hands over the body decoded and notes workerd's encoding in mf-* headers: keep neither, the
      // server compresses what it sends
      const headers = new Headers()
      for (const [name, value] of response.headers)
        if (!/^(mf-|content-encoding$|content-length$)/i.test(name)) headers.append(name, value)
      return new Response(response.body as ReadableStream | null, {
        status: response.status,
        statusText: response.statusText,
        headers,
      })
    },
    async dispose() {
      const miniflare = await started?.catch(() => undefined)
      started = undefined
      await miniflare?.dispose()
    },
  }
}
