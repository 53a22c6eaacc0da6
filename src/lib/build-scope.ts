/**
 * Partial builds: which pages one `astro build` renders, and the content hash of every page it is responsible for.
 *
 * Astro has no incremental build, so the local site builder (supabase/local/site-builder.ts) runs it with
 *   SITE_BUILD_SCOPE       'site'  blog, home, feeds, static pages and sitemaps; agent, ZIP and city pages are not
 *                                  rendered (their sitemap entries come from the previous state)
 *                          'data'  agent, ZIP and city pages and the sitemaps; blog articles are not rendered
 *                          unset   everything (a plain `astro build`)
 *   SITE_BUILD_STATE_IN    the state file of the site being served (optional): a page whose hash is unchanged there
 *                          is not rendered again
 *   SITE_BUILD_STATE_OUT   where this build writes the new state of the page groups it evaluated
 * into a staging directory, then merges the rendered files into a copy of the served site (new and changed pages
 * replaced, pages of an evaluated group that no longer exist removed, everything else kept).
 *
 * The hash of a page is SHA-256 over the JSON of exactly the data its template renders, so an unchanged hash means
 * the same HTML (for the same site code; a code change is a full build, see buildIfChanged in scripts/lib/build.ts).
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'

/** A group of pages hashed one by one. */
export type PageGroup = 'agent' | 'zip' | 'city' | 'article'

/** Groups rendered from agent data (SITE_BUILD_SCOPE=data); 'article' belongs to the site scope. */
export const DATA_GROUPS: readonly PageGroup[] = ['agent', 'zip', 'city']

export type BuildScope = 'site' | 'data' | 'all'

/** One page of the state: its content hash and the sitemap's lastmod, if any. */
export interface PageState {
  hash: string
  lastmod?: string
}

/** The state file: per evaluated group, page path -> state. */
export interface BuildState {
  groups: Partial<Record<PageGroup, Record<string, PageState>>>
}

/** The scope of this build (SITE_BUILD_SCOPE; anything but 'site' or 'data' is 'all'). */
export function buildScope(): BuildScope {
  const scope = process.env.SITE_BUILD_SCOPE
  return scope === 'site' || scope === 'data' ? scope : 'all'
}

/** Whether a build of `scope` renders (and hashes) pages of `group`. */
export function scopeBuildsGroup(scope: BuildScope, group: PageGroup): boolean {
  if (scope === 'all') return true
  return DATA_GROUPS.includes(group) ? scope === 'data' : scope === 'site'
}

/** Whether this build renders pages of `group`. */
export function buildsGroup(group: PageGroup): boolean {
  return scopeBuildsGroup(buildScope(), group)
}

/** Reads a state file; null when `file` is unset or missing. @throws when the file is not a state file. */
export function readBuildState(file: string | undefined): BuildState | null {
  if (!file || !fs.existsSync(file)) return null
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as BuildState
  if (!parsed || typeof parsed.groups !== 'object') throw new Error(`${file} is not a site build state file`)
  return parsed
}

let servedState: { file: string; state: BuildState | null } | undefined

/** The served state (SITE_BUILD_STATE_IN), read once per build: it does not change while the build runs. */
function servedBuildState(): BuildState | null {
  const file = process.env.SITE_BUILD_STATE_IN ?? ''
  if (servedState?.file !== file) servedState = { file, state: readBuildState(file) }
  return servedState.state
}

/** SHA-256 (hex) of the JSON of `value`. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}

/**
 * The pages of `group` this build renders: every item whose hash differs from the served state (all of them without
 * one), or none when the scope excludes the group. Records every item's state in SITE_BUILD_STATE_OUT.
 * `path` is the page's URL path (`/agent/<id>`), `content` exactly what its template renders.
 */
export function selectPages<T>(
  group: PageGroup,
  items: readonly T[],
  page: (item: T) => { path: string; content: unknown; lastmod?: string | null },
): T[] {
  if (!buildsGroup(group)) return []
  const previous = servedBuildState()?.groups[group]
  const next: Record<string, PageState> = {}
  const selected: T[] = []
  for (const item of items) {
    const { path, content, lastmod } = page(item)
    const hash = contentHash(content)
    next[path] = lastmod ? { hash, lastmod } : { hash }
    if (previous?.[path]?.hash !== hash) selected.push(item)
  }
  const out = process.env.SITE_BUILD_STATE_OUT
  if (out) {
    const state = readBuildState(out) ?? { groups: {} }
    state.groups[group] = next
    fs.writeFileSync(out, JSON.stringify(state))
  }
  return selected
}

/** The pages of `group` in the served state (for the sitemap of a build that does not render them). */
export function servedPages(group: PageGroup): [string, PageState][] {
  return Object.entries(servedBuildState()?.groups[group] ?? {})
}
