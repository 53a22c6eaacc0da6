/**
 * What an incremental build can know before it renders, and reusing cached pages without copying them.
 *
 * Astro's incremental build (`experimental.incrementalBuild`) keeps, in its cache directory, a manifest of the last
 * build (`incremental-build.json`: per route component, per path, the path's `cacheKey` and its output file) and a copy
 * of every keyed page (`dist/<output file>`). A path whose `cacheKey` and template are unchanged is reused: Astro
 * copies the cached page into the new output unless the output already holds the file. Copying every unchanged page
 * into every build grows with the site; so before Astro generates the pages, `linkReusedPages` hard-links each cached
 * page that will be reused into the output (a link is one directory entry, no data copied), and Astro finds it there.
 *
 * A hard link shares the file with the cache and with every earlier output that linked it, so no file may be written in
 * place afterwards: `unlinkBeforeRender` removes the output file and its cached copy of a path about to be rendered,
 * so Astro writes both as new files. Astro writes keyed pages only through those two writes (render, cache copy),
 * removes stale cached copies by unlinking them, and writes everything else into a fresh output directory.
 *
 * `planRenders` says which keyed paths will be rendered (their key differs from the manifest's, or they are new), in
 * the order Astro renders them, so the page loaders can read the data of many pages in one request ahead of their
 * renders (src/lib/render-plan.ts). Astro also renders every path of a route whose template (its module graph)
 * changed, which the manifest cannot tell in advance: `createRenderPlanner` widens a route's plan to all its keyed
 * paths when Astro renders one that the plan said reused although its cached copy is there.
 *
 * Everything here is an optimisation over Astro's own cache: with a missing or unreadable manifest, or an output on
 * another device than the cache, nothing is linked and every page is planned, and Astro behaves as without it.
 */
import fs from 'node:fs'
import path from 'node:path'

/** The part of Astro's incremental-build manifest read here (version 1). */
export interface CacheManifest {
  routes: Record<string, { paths: Record<string, { cacheKey?: string; outputFile: string }> }>
}

/** A path Astro will generate: as the prerenderer lists it. */
export interface ListedPath {
  pathname: string
  route: { component: string; route: string }
  cacheKey?: string
}

/** The manifest in `cacheDir`, or null when there is none or it cannot be read. */
export function readCacheManifest(cacheDir: string): CacheManifest | null {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(cacheDir, 'incremental-build.json'), 'utf8')) as unknown
    if (!data || typeof data !== 'object' || !('routes' in data) || typeof data.routes !== 'object') return null
    return data as CacheManifest
  } catch {
    return null
  }
}

/** The previous build's entry of a listed path, when its key is unchanged (so Astro reuses it). */
function reusedEntry(manifest: CacheManifest | null, listed: ListedPath) {
  if (listed.cacheKey === undefined) return undefined
  const entry = manifest?.routes[listed.route.component]?.paths[listed.pathname]
  return entry && entry.cacheKey === listed.cacheKey ? entry : undefined
}

/**
 * The keyed paths that will be rendered, per route pattern (e.g. '/agent/[id]'), in listing order: those whose key is
 * new or differs from the manifest's. Paths without a cacheKey (rendered every build) are left out.
 */
export function planRenders(manifest: CacheManifest | null, paths: readonly ListedPath[]): Map<string, string[]> {
  const plan = new Map<string, string[]>()
  for (const listed of paths) {
    if (listed.cacheKey === undefined || reusedEntry(manifest, listed)) continue
    const list = plan.get(listed.route.route)
    if (list) list.push(listed.pathname)
    else plan.set(listed.route.route, [listed.pathname])
  }
  return plan
}

/**
 * The render plan of one build, widened as the renders show a changed template: `plan` (route pattern -> pathnames, in
 * order) to publish; `rendering(route, pathname)` for each path Astro renders, true when it widened the plan.
 */
export function createRenderPlanner(
  manifest: CacheManifest | null,
  paths: readonly ListedPath[],
  cacheDir: string,
): { plan: Map<string, string[]>; rendering(route: ListedPath['route'], pathname: string): boolean } {
  const plan = planRenders(manifest, paths)
  const planned = new Map([...plan].map(([route, list]) => [route, new Set(list)]))
  const keyed = new Set(paths.filter((listed) => listed.cacheKey !== undefined).map((listed) => listed.pathname))
  return {
    plan,
    rendering(route, pathname) {
      if (planned.get(route.route)?.has(pathname) || !keyed.has(pathname)) return false
      const entry = manifest?.routes[route.component]?.paths[pathname]
      // no cached copy: Astro renders this path alone
      if (!entry || !fs.existsSync(cachedPageFile(cacheDir, filePath(entry.outputFile)))) return false
      const all = paths.filter((listed) => listed.route.route === route.route && listed.cacheKey !== undefined)
      plan.set(
        route.route,
        all.map((listed) => listed.pathname),
      )
      planned.set(route.route, new Set(plan.get(route.route)))
      return true
    },
  }
}

/** An output file as the manifest writes it (URL-encoded, relative to the output directory) as a file path. */
const filePath = (outputFile: string) => decodeURIComponent(outputFile)

/**
 * Where Astro's cache keeps its copy of the page at `file` (a path relative to the output directory, as on disk:
 * `agent/<id>/index.html`): `<cacheDir>/dist/<file>`. A page reused by a build is this copy hard-linked into the
 * output, so it is the same file (inode) as it.
 */
export const cachedPageFile = (cacheDir: string, file: string) => path.join(cacheDir, 'dist', file)

/**
 * Hard-links the cached copy of every listed path Astro will reuse into `outDir`; returns how many were linked.
 * Stops linking (and returns the count so far) when the output lies on another device than the cache.
 * @throws on other file-system errors.
 */
export function linkReusedPages(
  manifest: CacheManifest | null,
  paths: readonly ListedPath[],
  dirs: { cacheDir: string; outDir: string },
): number {
  const made = new Set<string>()
  let linked = 0
  for (const listed of paths) {
    const entry = reusedEntry(manifest, listed)
    if (!entry) continue
    const file = filePath(entry.outputFile)
    const target = path.join(dirs.outDir, file)
    const folder = path.dirname(target)
    if (!made.has(folder)) {
      fs.mkdirSync(folder, { recursive: true })
      made.add(folder)
    }
    try {
      fs.linkSync(cachedPageFile(dirs.cacheDir, file), target)
      linked += 1
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EXDEV' || code === 'EPERM') return linked
      // no cached copy: Astro renders the page; already in the output: nothing to do
      if (code !== 'ENOENT' && code !== 'EEXIST') throw error
    }
  }
  return linked
}

/**
 * Removes the output file and the cached copy of `pathname` as the manifest names them, before Astro renders the path
 * and writes both: they may be hard links shared with earlier outputs that are still served.
 */
export function unlinkBeforeRender(
  manifest: CacheManifest | null,
  route: { component: string },
  pathname: string,
  dirs: { cacheDir: string; outDir: string },
): void {
  const entry = manifest?.routes[route.component]?.paths[pathname]
  if (!entry) return
  const file = filePath(entry.outputFile)
  fs.rmSync(path.join(dirs.outDir, file), { force: true })
  fs.rmSync(cachedPageFile(dirs.cacheDir, file), { force: true })
}

/** A page rendered outside Astro's build (the local builder's patch) with the key its data has now. */
export interface RecordedPage {
  /** The route component, as the manifest keys it ('src/pages/agent/[id].astro'). */
  component: string
  pathname: string
  cacheKey: string
  /** The rendered page's file, copied into the cache. */
  file: string
}

/**
 * Records pages rendered outside Astro's build in its cache, as if the last build had rendered them: each page's
 * cached copy becomes a copy of its rendered file (a new file, never written through a link an earlier output shares) and its manifest
 * entry takes `cacheKey`, so the next build reuses the page instead of rendering it again. Only paths the manifest
 * already holds are recorded (others are rendered by the next build as new paths), and only into a manifest of the
 * format read here (version 1); the manifest is replaced by renaming a complete new file. Returns how many pages
 * were recorded.
 * @throws on file-system errors (the caller's cache may then be partly updated: each page file is written before the
 * manifest names its new key, so a partial update only makes the next build render those pages again).
 */
export function recordRenderedPages(cacheDir: string, pages: readonly RecordedPage[]): number {
  const manifestFile = path.join(cacheDir, 'incremental-build.json')
  let manifest: { version?: unknown } & CacheManifest
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as typeof manifest
  } catch {
    return 0
  }
  if (manifest.version !== 1 || !manifest.routes || typeof manifest.routes !== 'object') return 0
  let recorded = 0
  for (const page of pages) {
    const entry = manifest.routes[page.component]?.paths[page.pathname]
    if (!entry) continue
    const cached = cachedPageFile(cacheDir, filePath(entry.outputFile))
    fs.mkdirSync(path.dirname(cached), { recursive: true })
    fs.rmSync(cached, { force: true })
    fs.copyFileSync(page.file, cached)
    entry.cacheKey = page.cacheKey
    recorded += 1
  }
  if (recorded > 0) {
    const next = `${manifestFile}.${process.pid}.tmp`
    fs.writeFileSync(next, JSON.stringify(manifest, null, '\t'))
    fs.renameSync(next, manifestFile)
  }
  return recorded
}
