/**
 * Astro integration: makes the build's output a Cloudflare Pages site with Functions in "advanced mode", so one
 * directory holds the prerendered pages and the worker that renders the other pages on demand.
 *
 * Astro's Cloudflare adapter builds the on-demand routes into a worker (`build.server`, here `_worker.js/` inside the
 * output directory, with the static files at its root). This integration adds what Pages reads there
 * (https://developers.cloudflare.com/pages/functions/advanced-mode/, .../routing/):
 *
 * - `_routes.json`: only the on-demand routes' paths (`/agent/*`, `/agents/*`) invoke the worker; every other path is a static
 *   file served with the `_headers` rules, as without Functions.
 * - `_worker.js/index.js`, the entry Pages runs:
 *   1. a path that is a static file (a prerendered agent page, the agent not-found page) is served as that file;
 *   2. else the answer comes from the host's cache (the Cache API), kept as the page's `Cache-Control: s-maxage`
 *      says, under a key that holds this build's id, so every deploy (every data change triggers one) starts empty;
 *   3. else Astro renders it, and the `_headers` rules for the path (security headers, the CSP with this build's
 *      inline-script hashes) are added, since Pages applies `_headers` to static files only.
 * - `_worker.js/pages-headers.js`: those rules, written from the built `_headers` (writePagesHeadersModule; run again
 *   by whoever rewrites `_headers` afterwards: scripts/build-deploy.ts).
 *
 * The local server (supabase/local/static-server.ts) runs the same worker under Cloudflare's workerd, so `npm start`
 * answers the same routes the same way.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AstroIntegration } from 'astro'

/**
 * Where the worker renders prerendered pages again for the local builder (src/pages/rerender/, scripts/lib/site-patch.ts);
 * left out of `_routes.json`, so the static host never sends a request there.
 */
export const RERENDER_PATH = '/rerender'

/** One block of a `_headers` file: a path pattern and the headers it sets. */
export interface HeaderRule {
  pattern: string
  headers: [string, string][]
}

/**
 * Parses a Netlify / Cloudflare Pages `_headers` file: an unindented line is a path pattern (absolute URLs keep their
 * path), the indented `Name: value` lines below it are its headers; `#` starts a comment line.
 */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = []
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.trim().startsWith('#')) continue
    if (!/^\s/.test(line)) {
      const pattern = line.trim().replace(/^https?:\/\/[^/]+/, '')
      rules.push({ pattern, headers: [] })
      continue
    }
    const rule = rules.at(-1)
    const colon = line.indexOf(':')
    if (!rule || colon < 0) continue
    rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()])
  }
  return rules
}

/**
 * Source of the worker module that answers `headersFor(pathname)`: every `_headers` rule whose pattern matches the
 * path (`*` matches anything, `:name` one segment), in file order; a header set by several rules is joined with ", "
 * as Pages does.
 */
export function headersModule(rules: readonly HeaderRule[]): string {
  return `// Generated from _headers by src/integrations/cloudflare-pages.ts: the header rules for answers of the worker.
const rules = ${JSON.stringify(rules)}
const escape = (text) => text.replace(/[.+?^\${}()|[\\]\\\\]/g, '\\\\$&')
const compiled = rules.map((rule) => ({
  test: new RegExp('^' + rule.pattern.split('*').map((part) => escape(part).replace(/:[A-Za-z]\\w*/g, '[^/]+')).join('.*') + '$'),
  headers: rule.headers,
}))
/** The headers of every rule matching pathname, as [name, value] pairs. */
export function headersFor(pathname) {
  const merged = new Map()
  for (const rule of compiled) {
    if (!rule.test.test(pathname)) continue
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase()
      const seen = merged.get(key)
      merged.set(key, seen ? [seen[0], seen[1] + ', ' + value] : [name, value])
    }
  }
  return [...merged.values()]
}
`
}

/** Writes `<outDir>/_worker.js/pages-headers.js` from `<outDir>/_headers` (none: no rules). */
export function writePagesHeadersModule(outDir: string): void {
  const headersFile = path.join(outDir, '_headers')
  const rules = fs.existsSync(headersFile) ? parseHeadersFile(fs.readFileSync(headersFile, 'utf8')) : []
  fs.writeFileSync(path.join(outDir, '_worker.js', 'pages-headers.js'), headersModule(rules))
}

/** The Pages `_routes.json` include pattern of an on-demand route: its path up to the first parameter, then `*`. */
export function routeInclude(segments: readonly { dynamic: boolean; content: string }[][]): string {
  const fixed: string[] = []
  for (const segment of segments) {
    if (segment.some((part) => part.dynamic)) return `/${[...fixed, '*'].join('/')}`
    fixed.push(segment.map((part) => part.content).join(''))
  }
  return `/${fixed.join('/')}`
}

/** Source of `_worker.js/index.js`; `buildId` names this build's generation of cached answers. */
export function workerEntry(buildId: string): string {
  return `// Generated by src/integrations/cloudflare-pages.ts: the Cloudflare Pages entry of the on-demand routes.
import astro from './entry.mjs'
import { headersFor } from './pages-headers.js'

const BUILD_ID = ${JSON.stringify(buildId)}

export default {
  async fetch(request, env, context) {
    // a prerendered page or any other file is served as the static host serves it
    const asset = await env.ASSETS.fetch(request.clone())
    if (asset.status !== 404) return asset
    const url = new URL(request.url)
    const cacheable = request.method === 'GET'
    const key = new Request(url.origin + url.pathname + '?build=' + BUILD_ID)
    if (cacheable) {
      const cached = await caches.default.match(key)
      if (cached) return cached
    }
    const rendered = await astro.fetch(request, env, context)
    const response = new Response(rendered.body, rendered)
    for (const [name, value] of headersFor(url.pathname)) if (!response.headers.has(name)) response.headers.set(name, value)
    if (cacheable && /(^|,)\\s*s-maxage=\\d+/.test(response.headers.get('Cache-Control') ?? '')) {
      context.waitUntil(caches.default.put(key, response.clone()))
    }
    return response
  },
}
`
}

/** The integration (astro.config.mjs `integrations`, after any integration that writes `_headers`). */
export function cloudflarePages(): AstroIntegration {
  let includes: string[] = []
  let serverDir = ''
  return {
    name: 'cloudflare-pages',
    hooks: {
      'astro:config:done': ({ config }) => {
        serverDir = fileURLToPath(config.build.server)
      },
      'astro:routes:resolved': ({ routes }) => {
        includes = [
          ...new Set(
            routes
              .filter((route) => route.origin === 'project' && !route.isPrerendered && route.type === 'page')
              // the local builder's re-render routes (src/pages/rerender/) are never a visitor's
              .filter((route) => !route.pattern.startsWith(`${RERENDER_PATH}/`))
              .map((route) => routeInclude(route.segments)),
          ),
        ].sort()
      },
      'astro:build:done': ({ dir, logger }) => {
        const outDir = fileURLToPath(dir)
        if (!fs.existsSync(path.join(serverDir, 'entry.mjs')) || includes.length === 0) return
        if (path.resolve(serverDir) !== path.resolve(outDir, '_worker.js'))
          throw new Error(`build.server must be <outDir>/_worker.js/ for Cloudflare Pages, got ${serverDir}`)
        fs.writeFileSync(
          path.join(outDir, '_routes.json'),
          `${JSON.stringify({ version: 1, include: includes, exclude: [] }, null, 2)}\n`,
        )
        fs.writeFileSync(path.join(serverDir, 'index.js'), workerEntry(randomUUID()))
        writePagesHeadersModule(outDir)
        logger.info(`Cloudflare Pages: on-demand routes ${includes.join(', ')} in _worker.js/ (_routes.json).`)
      },
    },
  }
}
