/**
 * The local builder's quick path from the served site to new data: instead of a static build, re-render only the pages
 * whose data changed, through the served build's own worker (the same components, bundled once by the last full build),
 * and carry every other file over by hard link (usually linked ahead: the build hook's spare, `linkAhead`). A 1 %
 * data refresh then costs the pages it changed, not Astro's start and Vite's bundling (about 6 CPU seconds a build)
 * nor a look at every unchanged page. The worker runtimes are started ahead too (`prepare`, a second after a swap).
 *
 * The marker of a build (mark()) holds, read before the build reads anything:
 * - `version`: the page-version watermark (public.site_build_watermark(): every page version at or below it is
 *   committed; later changes get higher ones);
 * - `blog`: what the blog pages print, read with the anon key as the static build reads it (src/lib/blog-data.ts):
 *   SHA-256 over the published posts and categories (the lists: home, /blog, the feed), SHA-256 over the post
 *   redirects, and each article's and category page's cache key (src/lib/blog-page-keys.ts);
 * - `refresh`: the id of the newest metrics refresh, whose data date and sources the methodology, compare and results
 *   pages print.
 *
 * patch() then re-renders, for the versions above the served build's watermark (up to this build's):
 * - agent pages still prerendered (`agent_page_versions.prerender`) at /agent/<id>; a page no longer prerendered is
 *   removed (the worker answers it on demand);
 * - ZIP pages at /agents/<zip> whose own version moved, and the city pages at /agents/<state>/<city> of the ZIPs whose
 *   city version moved (src/pages/agents/[...path]; an agent's figure moves the ZIP page's version where the ZIP page
 *   prints the agent, and the city version of the agent's ZIPs in the cities whose page prints the agent); a 404
 *   removes the page;
 * - the sitemaps (always: their lastmod follows the page versions) and, when the newest refresh changed, the three
 *   pages that print it (src/pages/rerender/);
 * - after a blog change: home, /blog and /rss.xml, the articles and category pages whose keys changed (a post no longer
 *   published, or a category gone, answers 404 and its page is removed).
 * The worker runs under workerd (supabase/local/pages-functions.ts) with no static files, so it renders every path.
 * With `buildCacheDir`, the agent, ZIP and city pages, articles and category pages it rendered are recorded in the
 * static build's Astro cache under their new keys, so the next static build reuses them instead of rendering them
 * again (a city page only when no ZIP of its state has a city version after the watermark: its key covers them all).
 *
 * An article that shows images from the site's Storage gets them made here, with the static build's maker
 * (src/integrations/post-images.ts: the worker has no sharp), written into the new site and handed to the worker.
 *
 * It declines (the build hook then runs the static build) when the post redirects changed (their pages and the host's
 * redirects are the static build's), when more than `maxPages` pages changed (a full incremental build handles bulk
 * changes better), and when a render answers anything but 200 or 404.
 * A ZIP page that moved to another city (public.zip_page_moves, kept by a trigger on the version rows) also
 * re-renders the city page it left, which then lists it no more (or, left without ZIPs, answers 404 and is removed).
 */
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type { PatchResult, SitePatcher } from '../../supabase/local/build-hook/index.ts'
import { pagesFunctions, type PagesFunctions } from '../../supabase/local/pages-functions.ts'
import { RERENDER_PATH } from '~/integrations/cloudflare-pages.ts'
import { recordRenderedPages, type RecordedPage } from '~/integrations/incremental-output.ts'
import { postImageCacheDir, postImageMakerIn } from '~/integrations/post-images.ts'
import { BLOG_RERENDER_PATH, RERENDER_PAGE_HEADER } from '~/integrations/rerender-routes-names.ts'
import { readCategories, readPostRedirects, readPublishedPosts } from '~/lib/blog-data.ts'
import { blogPageKeys } from '~/lib/blog-page-keys.ts'
import { contentHash } from '~/lib/content-hash.ts'
import { postImageWidths, storageImageUrls, type MadePostImages } from '~/lib/post-images.ts'
import {
  agentPageCacheKey,
  cityPageCacheKey,
  groupCities,
  ZIP_PAGE_COLUMNS,
  zipPageCacheKey,
  zipPageRef,
} from '~/lib/page-cache-keys.ts'
import { renderPostContent } from '@shared/post-content.ts'
import { slugify } from '@shared/slug.ts'
import { categoryUrl, cityUrl, postUrl, zipUrl } from '@shared/urls.ts'
import { inlineScripts, scriptHash } from './csp-hashes.ts'

/** Rows per read (PostgREST's max-rows). */
const PAGE_SIZE = 1000

/** What the blog pages print at a moment (see the module comment). */
interface BlogMarker {
  /** SHA-256 (hex) over the published posts and the categories: what home, /blog and the feed list. */
  lists: string
  /** SHA-256 (hex) over the post redirects. */
  redirects: string
  /** Each article's (/blog/<slug>) and category page's (/blog/category/<slug>) cache key. */
  pages: Record<string, string>
  /** The site's Storage images each article shows (by path; articles without any left out). */
  images: Record<string, string[]>
}

/** The data a build starts from (see the module comment). */
interface Marker {
  version: number
  /** A string in markers written before the blog pages were patched: any blog change then needs a static build. */
  blog: BlogMarker | string
  refresh: number | null
}

export interface SitePatchOptions {
  /** The Supabase API the builder reads with the service role (the watermark function is the service role's only). */
  apiUrl: string
  serviceRoleKey: string
  /** The anon key: the blog is read as the static build reads it, under the "published" RLS policy. */
  anonKey: string
  /**
   * The Supabase URL the site is built with (its PUBLIC_SUPABASE_URL; default `apiUrl`): the Storage images the
   * build makes WebP files of are this project's public objects.
   */
  siteSupabaseUrl?: string
  /** Where made post images are kept (default the static build's: node_modules/.cache/image-files/posts). */
  imageCacheDir?: string
  /** Most pages one patch re-renders or removes; more and it declines (default 2,000). */
  maxPages?: number
  /** Renders in flight (default 6, or SITE_PATCH_CONCURRENCY). */
  concurrency?: number
  /** Worker runtimes (workerd processes) rendering side by side (default 2, or SITE_PATCH_RUNTIMES). */
  runtimes?: number
  /**
   * The static build's Astro cache directory (its ASTRO_CACHE_DIR): the agent and ZIP pages a patch re-rendered are
   * recorded there under their new cache keys, so the next static build reuses them instead of rendering them again
   * (src/integrations/incremental-output.ts `recordRenderedPages`). Without it the next static build renders them.
   */
  buildCacheDir?: string
}

/** Every row of a keyset-paged read: `read(after)` returns up to PAGE_SIZE rows after the key `after`. */
async function readAll<T>(read: (after: string | null) => Promise<T[]>, keyOf: (row: T) => string): Promise<T[]> {
  const rows: T[] = []
  for (let after: string | null = null; ;) {
    const page = await read(after)
    rows.push(...page)
    if (page.length < PAGE_SIZE) return rows
    after = keyOf(page.at(-1)!)
  }
}

/** Throws the PostgREST error of a read, naming what was read. */
function check<T>(what: string, result: { data: T | null; error: { message: string } | null }): T {
  if (result.error) throw new Error(`Could not read ${what}: ${result.error.message}`)
  return result.data as T
}

/** A page a patch rendered, with its group (agent, zip, city, blog, other) as the patch counts it. */
export interface RenderedPage {
  pathname: string
  group: string
}

/** The order of the groups in the build log's list of rendered pages. */
const LOG_ORDER = ['blog', 'other', 'city', 'zip', 'agent']

/**
 * The build log's line of the pages a patch rendered: `Rendered: <path>, <path>, ...` with the first `limit`
 * paths, posts and the other site pages before cities, ZIPs and agents (a data refresh can render hundreds of agent
 * pages beside a post, which an operator looks for first), then `, and N more`. Render order within a group.
 */
export function renderedLine(pages: RenderedPage[], limit = 40): string {
  const ordered = [...pages].sort((a, b) => LOG_ORDER.indexOf(a.group) - LOG_ORDER.indexOf(b.group))
  const more = ordered.length > limit ? `, and ${ordered.length - limit} more` : ''
  return `Rendered: ${ordered
    .slice(0, limit)
    .map((page) => page.pathname)
    .join(', ')}${more}`
}

/** The path segment of Storage's public objects (a quick look before a post's body is rendered). */
const STORAGE_OBJECTS = '/storage/v1/object/public/'

/**
 * SHA-256 (hex) over what tells whether the blog changed, read cheaply with `anon` (what visitors see): each post's
 * id, update time (moved by a trigger on every edit), publication time and category, the categories, the redirects.
 */
async function blogFingerprint(anon: SupabaseClient): Promise<string> {
  const [posts, categories, redirects] = await Promise.all([
    readAll(
      async (after) => {
        let query = anon
          .from('blog_posts')
          .select('id, updated_at, published_at, category_id')
          .eq('status', 'published')
          .order('id')
          .limit(PAGE_SIZE)
        if (after) query = query.gt('id', after)
        return check('the published posts', await query)
      },
      (row) => String(row.id),
    ),
    readCategories(anon),
    readPostRedirects(anon),
  ])
  return contentHash([posts, categories, redirects])
}

/** What the blog pages print now, read with `anon` as the static build reads it; `supabaseUrl`: the site's. */
async function blogMarker(anon: SupabaseClient, supabaseUrl: string): Promise<BlogMarker> {
  const [posts, categories, redirects] = await Promise.all([
    readPublishedPosts(anon),
    readCategories(anon),
    readPostRedirects(anon),
  ])
  const images: Record<string, string[]> = {}
  for (const post of posts) {
    if (!(post.featured_image_url ?? '').includes(STORAGE_OBJECTS) && !post.content.includes(STORAGE_OBJECTS)) continue
    const urls = storageImageUrls(post.featured_image_url, renderPostContent(post.content).html, supabaseUrl)
    if (urls.length > 0) images[postUrl(post.slug)] = urls
  }
  return {
    lists: contentHash([posts, categories]),
    redirects: contentHash(redirects),
    pages: blogPageKeys(posts, categories),
    images,
  }
}

/** The blog pages a patch renders or removes (blogChanges). */
interface BlogChanges {
  /** Whether home, /blog and /rss.xml list other posts or categories than the served build's. */
  lists: boolean
  /** Articles and category pages whose keys are new or changed, with the new key. */
  render: { pathname: string; cacheKey: string }[]
  /** Articles and category pages the served build has and the data no longer does. */
  remove: string[]
  /** The site's Storage images of the articles to render (by path). */
  images: Record<string, string[]>
}

/**
 * The blog pages to render or remove between the served build's marker and now's, or why the patch cannot carry
 * the change over (the static build must).
 */
function blogChanges(since: BlogMarker | string, now: BlogMarker | string): BlogChanges | { reason: string } {
  if (typeof since === 'string' || typeof now === 'string')
    return { reason: "the served build was marked without the blog pages' keys" }
  if (since.redirects !== now.redirects) return { reason: 'post redirects changed' }
  return {
    lists: since.lists !== now.lists,
    render: Object.entries(now.pages)
      .filter(([pathname, cacheKey]) => since.pages[pathname] !== cacheKey)
      .map(([pathname, cacheKey]) => ({ pathname, cacheKey })),
    remove: Object.keys(since.pages).filter((pathname) => !Object.hasOwn(now.pages, pathname)),
    images: now.images,
  }
}

/**
 * Hard-links every file of `from` into `to` (a copy where linking fails); directories are made anew. Synchronous: an
 * asynchronous walk beside the reads of the changed pages slowed those reads more than it saved (bench:publish).
 * @returns the number of files.
 */
export function linkTree(from: string, to: string): number {
  let files = 0
  fs.mkdirSync(to, { recursive: true })
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name)
    const target = path.join(to, entry.name)
    if (entry.isDirectory()) files += linkTree(source, target)
    else {
      try {
        fs.linkSync(source, target)
      } catch {
        fs.copyFileSync(source, target)
      }
      files += 1
    }
  }
  return files
}

/** Writes `text` as a new file at `file` (never through a hard link the served site shares). */
function replaceFile(file: string, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.rmSync(file, { force: true })
  fs.writeFileSync(file, text)
}

/** Removes a page's file and its directory when that is left empty. */
function removePage(file: string): boolean {
  if (!fs.existsSync(file)) return false
  fs.rmSync(file)
  const dir = path.dirname(file)
  if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir)
  return true
}

/** The output file of a page path (`/agent/x` -> `<dir>/agent/x/index.html`; `/sitemap.xml` -> the file). */
const outputFile = (dir: string, pathname: string) =>
  pathname.endsWith('.xml') ? path.join(dir, pathname) : path.join(dir, pathname, 'index.html')

/** The patcher for the local build hook (supabase/local/build-hook). */
export function sitePatcher(options: SitePatchOptions): SitePatcher {
  const client = createClient(options.apiUrl, options.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const anon = createClient(options.apiUrl, options.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const imageCacheDir = options.imageCacheDir ?? postImageCacheDir(fileURLToPath(new URL('../..', import.meta.url)))
  const makeImage = postImageMakerIn(imageCacheDir)
  /**
   * The blog part of the last marker with the fingerprint it was read at: a data change (most builds) leaves the blog
   * as it was, and the marker then reads a few columns instead of every post (about 0.3 s at 1,000 posts).
   */
  let lastBlog: { fingerprint: string; marker: BlogMarker } | null = null
  const currentBlog = async (): Promise<BlogMarker> => {
    const fingerprint = await blogFingerprint(anon)
    if (lastBlog?.fingerprint === fingerprint) return lastBlog.marker
    const marker = await blogMarker(anon, options.siteSupabaseUrl ?? options.apiUrl)
    // read again after: a change between the two reads must not be cached under the older fingerprint
    if ((await blogFingerprint(anon)) === fingerprint) lastBlog = { fingerprint, marker }
    return marker
  }
  const maxPages = options.maxPages ?? 2000
  const concurrency = options.concurrency ?? Number(process.env.SITE_PATCH_CONCURRENCY ?? 6)
  const runtimes = options.runtimes ?? Number(process.env.SITE_PATCH_RUNTIMES ?? 2)

  /**
   * Rows of a page-version table (or of the ZIP pages' city moves) changed in (since, now], keyset-paged by `key`;
   * null once there are too many. ZIP rows count as changed when either of their versions is in the range (the ZIP
   * page's own, or what it gives its city page).
   */
  const changedRows = async <T extends Record<string, unknown>>(
    table: 'agent_page_versions' | 'zip_page_versions' | 'zip_page_moves',
    columns: string,
    key: string,
    since: number,
    now: number,
  ): Promise<T[] | null> => {
    const rows: T[] = []
    for (let after: string | null = null; ;) {
      let query = client.from(table).select(columns)
      query =
        table === 'zip_page_versions'
          ? query.or(
              `and(version.gt.${since},version.lte.${now}),and(city_version.gt.${since},city_version.lte.${now})`,
            )
          : query.gt('version', since).lte('version', now)
      query = query.order(key).limit(PAGE_SIZE)
      if (after) query = query.gt(key, after)
      const page = check<T[]>(`the changed pages (${table})`, (await query) as never)
      rows.push(...page)
      if (rows.length > maxPages) return null
      if (page.length < PAGE_SIZE) return rows
      after = String(page.at(-1)![key])
    }
  }

  /**
   * Runtimes of a served site's worker with their warm-up (a request that reads no data), started together. `warm`
   * never rejects: it resolves to the error when the runtimes could not answer. Runtimes started ahead may be dropped
   * unused, so a rejected warm-up nobody awaits would end the process (an unhandled rejection).
   */
  type Runtimes = { liveDir: string; workers: (PagesFunctions | null)[]; warm: Promise<Error | undefined> }
  const startRuntimes = (liveDir: string): Runtimes => {
    const workers = Array.from({ length: runtimes }, () => pagesFunctions(liveDir, { assets: false }))
    const warm = workers.some((worker) => !worker)
      ? Promise.resolve(undefined)
      : Promise.all(workers.map((worker) => worker!.fetch(new Request(`http://localhost${RERENDER_PATH}/warm-up`))))
          .then(async (responses) => {
            // the answer (a 404) is not needed; its body is dropped. Reading `body` can throw where another library
            // replaced the global Response (the static server's @hono/node-server): nothing is lost then either.
            for (const response of responses) {
              try {
                await response.body?.cancel()
              } catch {
                // the body stays unread; the runtime answered, which is all the warm-up asks
              }
            }
            return undefined
          })
          .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
    return { liveDir, workers, warm }
  }
  /**
   * Runtimes started ahead for the served site (prepare()), while nothing builds: starting one blocks this process for
   * about a third of a second, which a patch would otherwise spend before its first read. Used by one patch only: a
   * runtime keeps module-level reads (the newest refresh, page lists) for its life, so it must not have read anything
   * before the data the patch renders.
   */
  let prepared: Runtimes | null = null
  const dropPrepared = async () => {
    const old = prepared
    prepared = null
    await Promise.all(old?.workers.map((worker) => worker?.dispose()) ?? [])
  }

  /**
   * The build-cache entries of the city pages at `paths` (rendered by this patch into `dir`), keyed as the static build
   * keys them (cityPageCacheKey over the city's ZIP pages, grouped as the build groups them). The ZIP rows are read per
   * state after the renders; a state with any row changed after the watermark `now` is left out (its renders may hold
   * data older or newer than those rows say), and the next static build renders its city pages again.
   */
  const cityCacheEntries = async (paths: string[], now: number, dir: string): Promise<RecordedPage[]> => {
    const byState = new Map<string, string[]>()
    for (const pathname of paths) {
      const state = pathname.split('/')[2]!
      byState.set(state, [...(byState.get(state) ?? []), pathname])
    }
    const entries: RecordedPage[] = []
    for (const [state, cityPaths] of byState) {
      const rows = await readAll(
        async (after) => {
          let query = client
            .from('zip_page_versions')
            .select(`${ZIP_PAGE_COLUMNS}, ranked_agents`)
            .ilike('state', state)
            .order('zip_code')
            .limit(PAGE_SIZE)
          if (after) query = query.gt('zip_code', after)
          return check(`the ZIP pages of ${state.toUpperCase()}`, await query)
        },
        (row) => row.zip_code,
      )
      if (rows.some((row) => row.city_version > now)) continue
      const cities = groupCities(
        rows.filter((row) => row.ranked_agents > 0 && /^\d{5}$/.test(row.zip_code)).map(zipPageRef),
      )
      for (const pathname of cityPaths) {
        const ref = cities.find((city) => cityUrl(city.stateSlug, city.citySlug) === pathname)
        if (ref)
          entries.push({
            component: 'src/pages/agents/[state]/[city].astro',
            pathname,
            cacheKey: await cityPageCacheKey(ref),
            file: outputFile(dir, pathname),
          })
      }
    }
    return entries
  }

  return {
    prepare(liveDir) {
      void dropPrepared().catch(() => {}) // a runtime that will not stop is the runtime's own problem, not a patch's
      prepared = startRuntimes(liveDir)
    },

    dispose: dropPrepared,

    async mark() {
      const [watermark, blog, refresh] = await Promise.all([
        client.rpc('site_build_watermark'),
        currentBlog(),
        client.from('figures_refreshes').select('id').order('id', { ascending: false }).limit(1).maybeSingle(),
      ])
      const marker: Marker = {
        version: Number(check('the page-version watermark', watermark)),
        blog,
        refresh: check('the newest metrics refresh', refresh)?.id ?? null,
      }
      return JSON.stringify(marker)
    },

    async patch({
      liveDir,
      publishDir,
      linkAhead,
      since: sinceText,
      now: nowText,
      output,
      signal,
    }): Promise<PatchResult> {
      const started = performance.now()
      const since = JSON.parse(sinceText) as Marker
      const now = JSON.parse(nowText) as Marker
      const blog = blogChanges(since.blog, now.blog)
      if ('reason' in blog) return { patched: false, reason: blog.reason }
      // the served build's worker, with no static files so it renders every path: the runtimes started ahead for
      // this site, else started now (they then start while the changes are listed and the files linked)
      const ahead = prepared?.liveDir === liveDir ? prepared : null
      if (ahead) prepared = null
      else await dropPrepared()
      const { workers, warm } = ahead ?? startRuntimes(liveDir)
      if (workers.some((worker) => !worker)) {
        await Promise.all(workers.map((worker) => worker?.dispose()))
        return { patched: false, reason: 'the served site has no worker to render with' }
      }
      output(`Worker runtimes: ${ahead ? 'started ahead for the served site' : 'started for this patch'}.\n`)
      try {
        return await patchWith(workers as PagesFunctions[], warm, {
          liveDir,
          publishDir,
          linkAhead,
          since,
          now,
          output,
          signal,
          started,
          blog,
        })
      } finally {
        await Promise.all(workers.map((worker) => worker?.dispose()))
      }
    },
  }

  /** The patch proper (see patch()), rendering with `workers` (runtimes of the served build's worker). */
  async function patchWith(
    workers: PagesFunctions[],
    warm: Promise<Error | undefined>,
    args: {
      liveDir: string
      publishDir: string
      linkAhead: () => Promise<boolean>
      since: Marker
      now: Marker
      output: (chunk: string) => void
      signal: AbortSignal
      started: number
      blog: BlogChanges
    },
  ): Promise<PatchResult> {
    const { liveDir, publishDir, linkAhead, since, now, output, signal, started, blog } = args
    const reading = performance.now()
    const [agents, zips, moves] = await Promise.all([
      changedRows<{ agent_id: string; prerender: boolean; version: number }>(
        'agent_page_versions',
        'agent_id, prerender, version',
        'agent_id',
        since.version,
        now.version,
      ),
      changedRows<{
        zip_code: string
        city: string | null
        state: string | null
        version: number
        city_version: number
      }>('zip_page_versions', 'zip_code, city, state, version, city_version', 'zip_code', since.version, now.version),
      // the city pages ZIP pages left: keyed by ZIP and version, paged by version (unique per move)
      changedRows<{ city: string | null; state: string | null; version: number }>(
        'zip_page_moves',
        'city, state, version',
        'version',
        since.version,
        now.version,
      ),
    ])
    const read = performance.now()
    if (
      !agents ||
      !zips ||
      !moves ||
      agents.length + zips.length + moves.length + blog.render.length + blog.remove.length > maxPages
    )
      return { patched: false, reason: `more than ${maxPages.toLocaleString('en-US')} pages changed` }

    // a city page when a ZIP's city version moved (not its own version alone: the ZIP page then prints an agent its
    // city page does not), or when a ZIP left it
    const cities = new Set<string>()
    for (const zip of [...zips.filter((row) => row.city_version > since.version), ...moves]) {
      const citySlug = zip.city ? slugify(zip.city) : ''
      if (zip.state && citySlug) cities.add(cityUrl(zip.state, citySlug))
    }
    // the build-cache entry of an agent or ZIP page, recorded once it is rendered (a city page's key covers every ZIP
    // of the city: cityCacheEntries reads them after the renders)
    type CacheEntry = { component: string; cacheKey: string }
    /** A page to render: its public path, its report group, the worker path when not the public one, its cache entry. */
    type Render = { pathname: string; group: string; from?: string; cache?: CacheEntry; headers?: HeadersInit }
    const categoryPath = categoryUrl('')
    const renders: Render[] = [
      ...agents
        .filter((row) => row.prerender)
        .map((row) => ({
          pathname: `/agent/${row.agent_id}`,
          group: 'agent',
          cache: { component: 'src/pages/agent/[id].astro', cacheKey: agentPageCacheKey(row) },
        })),
      // a ZIP page whose own version did not move keeps its file; only its city page follows the agents it does not print
      ...zips
        .filter((row) => /^\d{5}$/.test(row.zip_code) && row.version > since.version)
        .map((row) => ({
          pathname: zipUrl(row.zip_code),
          group: 'zip',
          cache: { component: 'src/pages/agents/[zip].astro', cacheKey: zipPageCacheKey(row) },
        })),
      ...[...cities].map((pathname) => ({ pathname, group: 'city' })),
      { pathname: '/sitemap.xml', group: 'other', from: '/rerender/sitemap.xml' },
      ...(since.refresh === now.refresh
        ? []
        : ['methodology', 'compare', 'search-results'].map((page) => ({
            pathname: `/${page}`,
            group: 'other',
            from: `/rerender/${page}`,
          }))),
      // after a blog change: the lists, then the articles and category pages whose keys changed
      ...(blog.lists
        ? [
            { pathname: '/', group: 'blog', from: `${BLOG_RERENDER_PATH}/lists/home` },
            { pathname: '/blog', group: 'blog', from: `${BLOG_RERENDER_PATH}/lists/blog` },
            { pathname: '/rss.xml', group: 'blog', from: `${BLOG_RERENDER_PATH}/rss.xml` },
          ]
        : []),
      ...blog.render.map((page) => ({
        pathname: page.pathname,
        group: 'blog',
        // /blog/<slug> -> .../article/<slug>; /blog/category/<slug> -> .../category/<slug>
        ...(page.pathname.startsWith(categoryPath)
          ? {
              from: `${BLOG_RERENDER_PATH}/category/${page.pathname.slice(categoryPath.length)}`,
              cache: { component: 'src/pages/blog/category/[slug].astro', cacheKey: page.cacheKey },
            }
          : {
              from: `${BLOG_RERENDER_PATH}/article/${page.pathname.slice(postUrl('').length)}`,
              cache: { component: 'src/pages/blog/[slug].astro', cacheKey: page.cacheKey },
            }),
      })),
    ]
    const listed = performance.now()

    // the builder's spare links every file of the served site (made while nothing was building); without one, link here
    const carried = (await linkAhead()) ? null : linkTree(liveDir, publishDir)
    const linked = performance.now()
    let removed = 0
    for (const row of agents)
      if (!row.prerender && removePage(outputFile(publishDir, `/agent/${row.agent_id}`))) removed += 1
    for (const pathname of blog.remove) if (removePage(outputFile(publishDir, pathname))) removed += 1
    // the Storage images of the articles to render, made as the static build makes them and written into the new site;
    // the worker gets them with the request (an image that cannot be made keeps its address, as in the static build)
    let imagesMade = 0
    for (const page of renders) {
      const urls = page.group === 'blog' ? blog.images[page.pathname] : undefined
      if (!urls) continue
      const made: MadePostImages = {}
      for (const url of urls) {
        try {
          made[url] = await makeImage(url, postImageWidths)
        } catch (error) {
          output(`Kept ${url} as it is: ${(error as Error).message}\n`)
          continue
        }
        for (const file of made[url]!.files) {
          const target = path.join(publishDir, file.path)
          if (!fs.existsSync(target)) fs.copyFileSync(path.join(imageCacheDir, path.basename(file.path)), target)
        }
        imagesMade += 1
      }
      page.headers = { 'x-post-images': encodeURIComponent(JSON.stringify(made)) }
    }

    const warmError = await warm
    if (warmError) throw new Error(`the worker did not start: ${warmError.message}`)
    const ready = performance.now()
    const headers = fs.readFileSync(path.join(publishDir, '_headers'), 'utf8')
    const unhashed = new Set<string>()
    const counts = new Map<string, number>()
    const rendered: RenderedPage[] = []
    const recordable: RecordedPage[] = []
    /** Renders one page with `worker` into the new site; 404 removes it. @throws on any other answer. */
    const render = async (page: Render, worker: PagesFunctions) => {
      if (signal.aborted) throw signal.reason
      const response = await worker.fetch(
        new Request(`http://localhost${page.from ?? page.pathname}`, { headers: page.headers }),
      )
      const body = await response.text()
      const file = outputFile(publishDir, page.pathname)
      // a blog page's route marks its answers; a 404 without the mark is a worker without the route, not a page gone
      if (page.group === 'blog' && !response.headers.has(RERENDER_PAGE_HEADER))
        throw new Error(`re-rendering ${page.pathname}: the served build's worker has no blog re-render routes`)
      if (response.status === 404) {
        if (removePage(file)) removed += 1
        return
      }
      if (response.status !== 200)
        throw new Error(`re-rendering ${page.pathname} answered ${response.status}: ${body.slice(0, 200)}`)
      replaceFile(file, body)
      if (page.cache) recordable.push({ ...page.cache, pathname: page.pathname, file })
      counts.set(page.group, (counts.get(page.group) ?? 0) + 1)
      rendered.push({ pathname: page.pathname, group: page.group })
      for (const script of inlineScripts(body)) if (!headers.includes(scriptHash(script))) unhashed.add(page.pathname)
    }
    /** Renders `pages` with `worker`, `concurrency` at a time. */
    const renderAll = async (pages: Render[], worker: PagesFunctions) => {
      const queue = [...pages]
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let page = queue.shift(); page; page = queue.shift()) await render(page, worker)
        }),
      )
    }
    // Agent pages in groups of at most 100, each group's profiles read in one batch first (/rerender/agents: the local
    // API answers one request in about the time a page renders, so reading per page would halve the pace); the
    // runtimes take the groups in turn. Fewer pages than 100 a runtime are split evenly between the runtimes (125
    // pages: 63 and 62, not 100 in one runtime and 25 in the other).
    const agentGroups: Render[][] = []
    const agentRenders = renders.filter((page) => page.group === 'agent')
    const groupSize = Math.max(1, Math.min(100, Math.ceil(agentRenders.length / workers.length)))
    for (let at = 0; at < agentRenders.length; at += groupSize) agentGroups.push(agentRenders.slice(at, at + groupSize))
    let agentsDone = 0
    let areasDone = 0
    await Promise.all([
      ...workers.map(async (worker, index) => {
        for (let group = index; group < agentGroups.length; group += workers.length) {
          const ids = agentGroups[group]!.map((page) => page.pathname.split('/')[2]).join(',')
          const response = await worker.fetch(new Request(`http://localhost${RERENDER_PATH}/agents?ids=${ids}`))
          if (response.status !== 204)
            throw new Error(`reading agent profiles ahead answered ${response.status}: ${await response.text()}`)
          await renderAll(agentGroups[group]!, worker)
        }
        agentsDone = Math.max(agentsDone, performance.now())
      }),
      // ZIP and city pages at the same time, in the last runtime (the one with the fewest agent groups)
      renderAll(
        renders.filter((page) => page.group !== 'agent' && !page.from),
        workers.at(-1)!,
      ).then(() => {
        areasDone = performance.now()
      }),
    ])
    // the other pages one at a time after them: they share module-level reads (the newest refresh, the page lists),
    // and the Workers runtime cancels a request that waits on another one's I/O
    const othersStart = performance.now()
    const otherTimes: string[] = []
    for (const page of renders.filter((page) => page.from)) {
      const start = performance.now()
      await render(page, workers[0]!)
      otherTimes.push(`${page.pathname} ${((performance.now() - start) / 1000).toFixed(2)}`)
    }
    // a sitemap index names its parts: render each, drop parts beyond the count
    const index = fs.readFileSync(path.join(publishDir, 'sitemap.xml'), 'utf8')
    const parts = index.includes('<sitemapindex') ? [...index.matchAll(/<sitemap>/g)].length : 0
    for (let part = 1; part <= parts; part += 1)
      await render(
        { pathname: `/sitemap-${part}.xml`, group: 'other', from: `/rerender/sitemap-${part}.xml` },
        workers[0]!,
      )
    for (const file of fs.readdirSync(publishDir)) {
      const part = /^sitemap-(\d+)\.xml$/.exec(file)
      if (part && Number(part[1]) > parts) fs.rmSync(path.join(publishDir, file))
    }
    const done = performance.now()
    const recorded = options.buildCacheDir
      ? recordRenderedPages(options.buildCacheDir, [
          ...recordable,
          ...(await cityCacheEntries(
            rendered.filter((page) => page.group === 'city').map((page) => page.pathname),
            now.version,
            publishDir,
          )),
        ])
      : 0

    const group = (name: string) => `${counts.get(name) ?? 0} ${name}`
    output(
      `Pages re-rendered without a static build: ${['agent', 'city', 'zip', 'blog', 'other'].map(group).join(', ')}; removed: ${removed}; carried over by link: ${carried === null ? 'every other file (linked ahead by the builder)' : `${(carried - rendered.length).toLocaleString('en-US')} files`}.\n`,
    )
    if (options.buildCacheDir) output(`Recorded in the static build's cache: ${recorded} pages.\n`)
    if (imagesMade > 0) output(`Post images made for the worker: ${imagesMade}.\n`)
    output(`${renderedLine(rendered)}\n`)
    output(
      `Patch phases (s): list ${((listed - started) / 1000).toFixed(2)} (the changed rows read in ${((read - reading) / 1000).toFixed(2)}), link ${((linked - listed) / 1000).toFixed(2)} (${carried === null ? 'linked ahead' : `${carried.toLocaleString('en-US')} files`}), worker ready ${((ready - linked) / 1000).toFixed(2)} more, render ${((done - ready) / 1000).toFixed(2)} (${rendered.length} pages, ${concurrency} at a time in ${workers.length} runtimes: agents ${((agentsDone - ready) / 1000).toFixed(2)} and beside them ZIPs and cities ${((areasDone - ready) / 1000).toFixed(2)}, then the others ${((done - othersStart) / 1000).toFixed(2)}: ${otherTimes.join(', ')}), total ${((done - started) / 1000).toFixed(2)}.\n`,
    )
    if (unhashed.size > 0)
      output(
        `Warning: inline scripts without a CSP hash in ${[...unhashed].slice(0, 10).join(', ')}: browsers will refuse them.\n`,
      )
    return { patched: true }
  }
}
