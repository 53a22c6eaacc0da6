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
 * `groups` count as 'other', so a new page needs no wiring here.
 */
import type { AstroIntegration, AstroPrerenderer } from 'astro'

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

/** The integration (astro.config.mjs `integrations`). */
export function buildReport(options: BuildReportOptions): AstroIntegration {
  const listLimit = options.listLimit ?? 40
  let counts: BuildCounts = { built: {}, reused: 0, renderedPaths: [] }
  let listed = 0
  return {
    name: 'build-report',
    hooks: {
      'astro:build:start': ({ setPrerenderer }) => {
        counts = { built: {}, reused: 0, renderedPaths: [] }
        listed = 0
        setPrerenderer((prerenderer: AstroPrerenderer): AstroPrerenderer => ({
          ...prerenderer,
          name: `${prerenderer.name}+build-report`,
          getStaticPaths: async () => {
            const paths = await prerenderer.getStaticPaths()
            listed = paths.length
            return paths
          },
          render: (request, renderOptions) => {
            const group = options.groups[renderOptions.routeData.route] ?? 'other'
            counts.built[group] = (counts.built[group] ?? 0) + 1
            if (group !== 'other' && counts.renderedPaths.length < listLimit)
              counts.renderedPaths.push(decodeURI(new URL(request.url).pathname).replace(/\/$/, '') || '/')
            return prerenderer.render(request, renderOptions)
          },
        }))
      },
      'astro:build:done': ({ logger }) => {
        const built = Object.values(counts.built).reduce((a, b) => a + b, 0)
        counts.reused = Math.max(0, listed - built)
        logger.info(describeBuild(counts))
        if (counts.renderedPaths.length) logger.info(`Rendered: ${counts.renderedPaths.join(', ')}`)
      },
    },
  }
}
