/**
 * Merging a partial Astro build (src/lib/build-scope.ts) into a new copy of the served site.
 *
 * The new directory is made of hard links to the served files that stay (same inode, mtime and bytes, no copying;
 * a cross-device link falls back to a copy) plus the staged files renamed in. Nothing in the served directory is
 * written, so it keeps answering until the caller swaps directories. Rules:
 *   - a page of a group the build evaluated (agent, ZIP, city, article) is replaced when the build rendered it,
 *     removed when it no longer exists (its URL then gets the host's 404), kept otherwise;
 *   - a page of a group the build did not evaluate is kept;
 *   - other pages (home, blog lists, feeds, static pages, 404 pages) come from the build when its scope is 'site' or
 *     'all', and are kept when it is 'data';
 *   - sitemap.xml and sitemap-<n>.xml always come from the build (every scope renders them);
 *   - /_astro assets are the union of both, so kept pages still find the scripts they reference;
 *   - `_headers` gets the union of both directories' inline-script hashes (scripts/lib/csp-hashes.ts);
 *   - the state file is the served state with the evaluated groups replaced.
 * The part that does not depend on the build's output (listing the served files, linking the pages of the groups the
 * scope does not evaluate, e.g. 20,000 agent pages on a blog publish) can run while Astro builds: prepareMerge.
 */
import fs from 'node:fs'
import path from 'node:path'
import { withScriptHashes } from '../../scripts/lib/csp-hashes.ts'
import { scopeBuildsGroup, type BuildScope, type BuildState, type PageGroup } from '../../src/lib/build-scope.ts'

/** File of the served site that records its page hashes. */
export const STATE_FILE = '.build-state.json'

const SITEMAP = /^sitemap(-\d+)?\.xml$/

/** What a merge did, for the build log and site_builds. */
export interface MergeSummary {
  /** Pages rendered by the build and placed, per group ('other' for pages outside a group). */
  built: Record<string, number>
  /** Pages removed because they no longer exist, per group. */
  removed: Record<string, number>
  /** The first removed page paths (at most 10), for the log. */
  removedPaths: string[]
  /** Served files linked unchanged. */
  kept: number
}

/** The file of a page path: '/agent/abc' -> 'agent/abc/index.html' (Astro's directory format). */
export function pageFile(pagePath: string): string {
  return path.join(...decodeURIComponent(pagePath).split('/').filter(Boolean), 'index.html')
}

/** Every file under `dir`, relative, with '/' separators. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
}

/** The `'sha256-…'` sources in a `_headers` file's script-src (none when the file is missing). */
function scriptHashes(headersFile: string): string[] {
  if (!fs.existsSync(headersFile)) return []
  return [...fs.readFileSync(headersFile, 'utf8').matchAll(/'sha256-[A-Za-z0-9+/=]+'/g)].map((match) => match[0])
}

/** What prepareMerge did before the build finished: the served files, and those already linked into outDir. */
export interface PreparedMerge {
  outDir: string
  servedFiles: string[]
  /** Relative paths (with '/') linked into outDir: pages of groups the scope does not evaluate. */
  linked: Set<string>
}

/** Hard-links `from` to `to`, copying when they are on different devices. */
function linkOrCopy(from: string, to: string) {
  try {
    fs.linkSync(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
    fs.copyFileSync(from, to)
  }
}

/**
 * The build-independent half of a merge, to run while `astro build` does (a blog publish with 20,000 agent pages:
 * about 1.2 s of listing and linking): lists the served files and hard-links into `outDir` the pages of
 * the groups a `scope` build does not evaluate, which the merge keeps whatever the build renders. Synchronous calls
 * in batches of 256 with a turn of the event loop between them: as fast as a plain loop (the thread pool's async
 * calls took twice as long and competed with Astro for the two cores), while the process's other servers keep
 * answering. Pass the result to mergeBuild as `prepared`. Creates `outDir`; the caller removes it if the build fails.
 */
export async function prepareMerge(options: {
  servedDir: string
  servedState: BuildState
  scope: BuildScope
  outDir: string
}): Promise<PreparedMerge> {
  const { servedDir, servedState, scope, outDir } = options
  const servedFiles = filesUnder(servedDir)
  const present = new Set(servedFiles)
  const linked = new Set<string>()
  const made = new Set<string>()
  fs.mkdirSync(outDir, { recursive: true })
  let sinceYield = 0
  for (const [group, pages] of Object.entries(servedState.groups) as [PageGroup, Record<string, unknown>][]) {
    if (scopeBuildsGroup(scope, group)) continue
    for (const pagePath of Object.keys(pages)) {
      const rel = pageFile(pagePath).split(path.sep).join('/')
      if (!present.has(rel)) continue
      const to = path.join(outDir, rel)
      const dir = path.dirname(to)
      if (!made.has(dir)) {
        fs.mkdirSync(dir, { recursive: true })
        made.add(dir)
      }
      linkOrCopy(path.join(servedDir, rel), to)
      linked.add(rel)
      if (++sinceYield === 256) {
        sinceYield = 0
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
  }
  return { outDir, servedFiles, linked }
}

/**
 * Builds `outDir` (must not exist) from `servedDir` and the build in `stagingDir` (emptied: its files are moved).
 * `publicHeaders` is the source `_headers` (public/_headers) the hashes are written into. `prepared`: what
 * prepareMerge already did for the same servedDir, scope and outDir (then outDir exists and holds those links).
 * @returns what was built, removed and kept.
 */
export function mergeBuild(options: {
  servedDir: string
  servedState: BuildState
  stagingDir: string
  stagedState: BuildState
  scope: BuildScope
  outDir: string
  publicHeaders: string
  prepared?: PreparedMerge
}): MergeSummary {
  const { servedDir, servedState, stagingDir, stagedState, scope, outDir, prepared } = options
  if (prepared && prepared.outDir !== outDir) throw new Error(`prepareMerge ran for ${prepared.outDir}, not ${outDir}`)
  const linked = prepared?.linked ?? new Set<string>()
  const evaluated = new Set(Object.keys(stagedState.groups) as PageGroup[])
  const groupOfFile = new Map<string, PageGroup>()
  for (const state of [servedState, stagedState]) {
    for (const [group, pages] of Object.entries(state.groups) as [PageGroup, Record<string, unknown>][]) {
      for (const pagePath of Object.keys(pages)) groupOfFile.set(pageFile(pagePath).split(path.sep).join('/'), group)
    }
  }
  const staged = new Set(filesUnder(stagingDir))
  const summary: MergeSummary = { built: {}, removed: {}, removedPaths: [], kept: 0 }
  const count = (record: Record<string, number>, key: string) => (record[key] = (record[key] ?? 0) + 1)
  const special = new Set([STATE_FILE, '_headers'])

  fs.mkdirSync(outDir, { recursive: true })
  const made = new Set<string>([outDir])
  const place = (from: string, rel: string, link: boolean) => {
    const to = path.join(outDir, rel)
    const dir = path.dirname(to)
    // one mkdir per directory, not per file (20,000 agent pages are 20,000 directories plus their parents)
    if (!made.has(dir)) {
      fs.mkdirSync(dir, { recursive: true })
      made.add(dir)
    }
    if (!link) return fs.renameSync(from, to)
    linkOrCopy(from, to)
  }

  for (const rel of prepared?.servedFiles ?? filesUnder(servedDir)) {
    if (special.has(rel) || rel.startsWith('.') || SITEMAP.test(rel)) continue
    const group = groupOfFile.get(rel)
    let keep: boolean
    if (group) {
      const pagePath = `/${path.posix.dirname(rel)}`
      const stillThere = !evaluated.has(group) || Object.hasOwn(stagedState.groups[group]!, pagePath)
      if (!stillThere) {
        count(summary.removed, group)
        if (summary.removedPaths.length < 10) summary.removedPaths.push(pagePath)
      }
      keep = stillThere && !staged.has(rel)
    } else keep = rel.startsWith('_astro/') ? !staged.has(rel) : scope === 'data'
    if (keep) {
      if (!linked.has(rel)) place(path.join(servedDir, rel), rel, true)
      summary.kept += 1
    } else if (linked.has(rel)) {
      // linked early, but the build evaluated its group after all: the merge's rules win
      fs.rmSync(path.join(outDir, rel), { force: true })
    }
  }
  for (const rel of staged) {
    if (special.has(rel) || rel.startsWith('.')) continue
    const group = groupOfFile.get(rel)
    const other = !group && !rel.startsWith('_astro/') && !SITEMAP.test(rel)
    if (other && scope === 'data') continue // a data build renders the static pages too; the served ones stay
    place(path.join(stagingDir, rel), rel, false)
    if (!rel.startsWith('_astro/') && rel.endsWith('.html')) count(summary.built, group ?? 'other')
  }

  const hashes = [
    ...new Set([...scriptHashes(path.join(servedDir, '_headers')), ...scriptHashes(path.join(stagingDir, '_headers'))]),
  ].sort()
  if (fs.existsSync(options.publicHeaders)) {
    fs.writeFileSync(
      path.join(outDir, '_headers'),
      withScriptHashes(fs.readFileSync(options.publicHeaders, 'utf8'), hashes),
    )
  }
  const merged: BuildState = { groups: { ...servedState.groups, ...stagedState.groups } }
  fs.writeFileSync(path.join(outDir, STATE_FILE), JSON.stringify(merged))
  return summary
}
