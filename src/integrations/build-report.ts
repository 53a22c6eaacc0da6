/**
 * Astro integration: says which pages a build rendered and which it reused from Astro's incremental build cache.
 *
 * Incremental builds are Astro's own (`experimental.incrementalBuild` in astro.config.mjs): a dynamic route returns a
 * `cacheKey` per path from getStaticPaths (a hash of exactly the data the page renders), and a path whose key and
 * template are unchanged since the build recorded in the cache directory (`cacheDir`, node_modules/.astro by default,
 * which Netlify and Cloudflare Pages keep between builds) is copied from there instead of rendered. Every build, the
 * local `npm start` builder's and `npm run build:deploy`'s alike, goes through it; pages do not know who builds them.
 *
 * This integration wraps Astro's prerenderer to count the paths it is asked to render, per group of routes, and prints
 * at the end of the build one line the build logs (and the admin's build log) keep:
 *
 *   Pages built: 1 agent, 1 city, 1 zip, 21 other; reused from the build cache: 20412.
 *
 * followed by `Rendered: /agent/…, …` (the first `listLimit` rendered paths of the named groups, 40 by default). Routes not named in
 * `groups` count as 'other', so a new page needs no wiring here. Then where the build's time went, wall clock and CPU
 * seconds of this process (CPU time does not depend on what else the machine runs):
 *
 *   Build phases (wall / CPU s): start 1.9 / 2.6, bundle 7.1 / 9.8, list 0.4 / 0.2, link 0.3 / 0.3 (14012 pages),
 *   pages 1.2 / 1.1, finish 0.8 / 0.7, total 11.7 / 14.7.
 *
 * (start: Node and Astro up to the build; bundle: Vite's server, prerender and client builds; list: the routes'
 * getStaticPaths; link: reused pages linked into the output; pages: rendering the changed pages and taking the reused
 * ones; finish: images, manifest and the other integrations' build hooks, up to this one's.)
 *
 * It also makes the reuse cheap and the renders' reads few (./incremental-output.ts): the cached copies of reused
 * pages are hard-linked into the output instead of copied, a path about to be rendered loses its shared files first,
 * and the paths to render are published as the render plan (src/lib/render-plan.ts) the page loaders read ahead on.
 */
import { fileURLToPath } from 'node:url'
import type { AstroIntegration, AstroPrerenderer } from 'astro'
import { setRenderPlan } from '../lib/render-plan.ts'
import {
  createRenderPlanner,
  linkReusedPages,
  readCacheManifest,
  unlinkBeforeRender,
  type CacheManifest,
} from './incremental-output.ts'

export interface BuildReportOptions {
  /** Route pattern (as Astro writes it, e.g. '/agent/[id]') -> group name in the report. */
  groups: Record<string, string>
  /** How many rendered paths of the named groups the report lists (default 40). */
  listLimit?: number
}

/** The report's counts: pages rendered per group, and pages reused from the cache. */
export interface BuildCounts {
  built: Record<string, number>
  reused: number
  renderedPaths: string[]
}

/** "Pages built: 1 agent, 3 other; reused from the build cache: 20412." (groups in alphabetical order, 'other' last) */
export function describeBuild(counts: BuildCounts): string {
  const entries = Object.entries(counts.built).sort(([a], [b]) =>
    a === 'other' ? 1 : b === 'other' ? -1 : a.localeCompare(b),
  )
  const built = entries.map(([group, n]) => `${n} ${group}`).join(', ') || 'none'
  return `Pages built: ${built}; reused from the build cache: ${counts.reused}.`
}

/** One phase of a build: its name, wall-clock and CPU seconds, and a note ("14012 pages"). */
export interface BuildPhase {
  name: string
  wall: number
  cpu: number
  note?: string
}

/** "Build phases (wall / CPU s): start 1.9 / 2.6, …, total 11.7 / 14.7." */
export function describePhases(phases: readonly BuildPhase[]): string {
  const part = (phase: BuildPhase) =>
    `${phase.name} ${phase.wall.toFixed(1)} / ${phase.cpu.toFixed(1)}${phase.note ? ` (${phase.note})` : ''}`
  const total = phases.reduce(
    (sum, phase) => ({ name: 'total', wall: sum.wall + phase.wall, cpu: sum.cpu + phase.cpu }),
    { name: 'total', wall: 0, cpu: 0 },
  )
  return `Build phases (wall / CPU s): ${[...phases, total].map(part).join(', ')}.`
}

/** Wall-clock and CPU time of this process since it started, in seconds. */
const clock = () => {
  const cpu = process.cpuUsage()
  return { wall: process.uptime(), cpu: (cpu.user + cpu.system) / 1e6 }
}

/** The integration (astro.config.mjs `integrations`). */
export function buildReport(options: BuildReportOptions): AstroIntegration {
  const listLimit = options.listLimit ?? 40
  let counts: BuildCounts = { built: {}, reused: 0, renderedPaths: [] }
  let listed = 0
  let dirs = { cacheDir: '', outDir: '' }
  let manifest: CacheManifest | null = null
  let planner: ReturnType<typeof createRenderPlanner> | undefined
  let linked = 0
  let marks: { name: string; at: ReturnType<typeof clock>; note?: string }[] = []
  const mark = (name: string, note?: string) => marks.push({ name, at: clock(), note })
  return {
    name: 'build-report',
    hooks: {
      'astro:config:done': ({ config }) => {
        dirs = { cacheDir: fileURLToPath(config.cacheDir), outDir: fileURLToPath(config.outDir) }
      },
      'astro:build:start': ({ setPrerenderer }) => {
        counts = { built: {}, reused: 0, renderedPaths: [] }
        listed = 0
        linked = 0
        marks = []
        // each phase ends at its mark: start ends when the build starts
        mark('start')
        setPrerenderer((prerenderer: AstroPrerenderer): AstroPrerenderer => ({
          ...prerenderer,
          name: `${prerenderer.name}+build-report`,
          getStaticPaths: async () => {
            mark('bundle')
            const paths = await prerenderer.getStaticPaths()
            listed = paths.length
            mark('list')
            manifest = readCacheManifest(dirs.cacheDir)
            planner = createRenderPlanner(manifest, paths, dirs.cacheDir)
            setRenderPlan(planner.plan)
            linked = linkReusedPages(manifest, paths, dirs)
            mark('link', `${linked} pages`)
            return paths
          },
          render: (request, renderOptions) => {
            const group = options.groups[renderOptions.routeData.route] ?? 'other'
            counts.built[group] = (counts.built[group] ?? 0) + 1
            const pathname = decodeURI(new URL(request.url).pathname).replace(/\/$/, '') || '/'
            if (group !== 'other' && counts.renderedPaths.length < listLimit) counts.renderedPaths.push(pathname)
            // a changed template renders every page of its route: from now on they are read ahead too
            if (planner?.rendering(renderOptions.routeData, pathname)) setRenderPlan(new Map(planner.plan))
            unlinkBeforeRender(manifest, renderOptions.routeData, pathname, dirs)
            return prerenderer.render(request, renderOptions)
          },
          teardown: async () => {
            mark('pages')
            await prerenderer.teardown?.()
          },
        }))
      },
      'astro:build:done': ({ logger }) => {
        mark('finish')
        const built = Object.values(counts.built).reduce((a, b) => a + b, 0)
        counts.reused = Math.max(0, listed - built)
        logger.info(describeBuild(counts))
        if (counts.renderedPaths.length) logger.info(`Rendered: ${counts.renderedPaths.join(', ')}`)
        const phases = marks.map((phase, at) => ({
          name: phase.name,
          wall: phase.at.wall - (marks[at - 1]?.at.wall ?? 0),
          cpu: phase.at.cpu - (marks[at - 1]?.at.cpu ?? 0),
          note: phase.note,
        }))
        logger.info(describePhases(phases))
      },
    },
  }
}
