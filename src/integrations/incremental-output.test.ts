import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createRenderPlanner,
  linkReusedPages,
  planRenders,
  readCacheManifest,
  unlinkBeforeRender,
  type CacheManifest,
  type ListedPath,
} from './incremental-output'

const AGENT = { component: 'src/pages/agent/[id].astro', route: '/agent/[id]' }
const ZIP = { component: 'src/pages/agents/[zip].astro', route: '/agents/[zip]' }
const HOME = { component: 'src/pages/index.astro', route: '/' }

/** The previous build: agents a, b, c and ZIP 05401, as Astro's manifest records them. */
const manifest: CacheManifest = {
  routes: {
    [AGENT.component]: {
      paths: {
        '/agent/a': { cacheKey: 'agent:1', outputFile: 'agent/a/index.html' },
        '/agent/b': { cacheKey: 'agent:2', outputFile: 'agent/b/index.html' },
        '/agent/c': { cacheKey: 'agent:3', outputFile: 'agent/c/index.html' },
      },
    },
    [ZIP.component]: { paths: { '/agents/05401': { cacheKey: 'zip:7', outputFile: 'agents/05401/index.html' } } },
  },
}

/** This build: a unchanged, b changed, c gone, d new, the ZIP unchanged, the home page unkeyed. */
const listed: ListedPath[] = [
  { pathname: '/agent/a', route: AGENT, cacheKey: 'agent:1' },
  { pathname: '/agent/b', route: AGENT, cacheKey: 'agent:9' },
  { pathname: '/agent/d', route: AGENT, cacheKey: 'agent:10' },
  { pathname: '/agents/05401', route: ZIP, cacheKey: 'zip:7' },
  { pathname: '/', route: HOME },
]

describe('planRenders', () => {
  it('plans the new and changed keyed paths per route, in listing order; reused and unkeyed paths are left out', () => {
    expect(planRenders(manifest, listed)).toEqual(new Map([['/agent/[id]', ['/agent/b', '/agent/d']]]))
  })

  it('plans every keyed path without a previous build', () => {
    expect(planRenders(null, listed)).toEqual(
      new Map([
        ['/agent/[id]', ['/agent/a', '/agent/b', '/agent/d']],
        ['/agents/[zip]', ['/agents/05401']],
      ]),
    )
  })
})

describe('linking reused pages', () => {
  let dir = ''
  let dirs = { cacheDir: '', outDir: '' }
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, text)
  }
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'incremental-output-'))
    dirs = { cacheDir: path.join(dir, 'cache'), outDir: path.join(dir, 'out') }
    for (const [pathname, entry] of Object.entries({
      ...manifest.routes[AGENT.component]!.paths,
      ...manifest.routes[ZIP.component]!.paths,
    }))
      write(path.join(dirs.cacheDir, 'dist', entry.outputFile), `old ${pathname}`)
    fs.writeFileSync(path.join(dirs.cacheDir, 'incremental-build.json'), JSON.stringify({ version: 1, ...manifest }))
  })
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('reads the manifest of the cache directory, and none where there is none', () => {
    expect(readCacheManifest(dirs.cacheDir)?.routes).toEqual(manifest.routes)
    expect(readCacheManifest(path.join(dir, 'nowhere'))).toBeNull()
  })

  it('links the cached copies of the reused pages into the output, and nothing else', () => {
    expect(linkReusedPages(manifest, listed, dirs)).toBe(2)
    const out = (file: string) => path.join(dirs.outDir, file)
    expect(fs.readFileSync(out('agent/a/index.html'), 'utf8')).toBe('old /agent/a')
    expect(fs.readFileSync(out('agents/05401/index.html'), 'utf8')).toBe('old /agents/05401')
    // the same file as the cache's copy, not a copy of it
    expect(fs.statSync(out('agent/a/index.html')).ino).toBe(
      fs.statSync(path.join(dirs.cacheDir, 'dist/agent/a/index.html')).ino,
    )
    for (const file of ['agent/b/index.html', 'agent/c/index.html', 'agent/d/index.html'])
      expect(fs.existsSync(out(file))).toBe(false)
  })

  it("widens a route's plan to all its keyed paths when Astro renders a reused one (a changed template)", () => {
    const planner = createRenderPlanner(manifest, listed, dirs.cacheDir)
    // planned, unkeyed, or without a cached copy: the plan stays
    expect(planner.rendering(AGENT, '/agent/b')).toBe(false)
    expect(planner.rendering(HOME, '/')).toBe(false)
    fs.rmSync(path.join(dirs.cacheDir, 'dist/agents/05401/index.html'))
    expect(planner.rendering(ZIP, '/agents/05401')).toBe(false)
    expect(planner.plan.get('/agent/[id]')).toEqual(['/agent/b', '/agent/d'])
    // a reused page with its cached copy rendered after all: its template changed
    expect(planner.rendering(AGENT, '/agent/a')).toBe(true)
    expect(planner.plan.get('/agent/[id]')).toEqual(['/agent/a', '/agent/b', '/agent/d'])
    expect(planner.rendering(AGENT, '/agent/a')).toBe(false)
  })

  it('frees a page about to be rendered from the files it shares, so an earlier output keeps its page', () => {
    linkReusedPages(manifest, listed, dirs)
    // an earlier output still served holds a link to the same file
    const served = path.join(dir, 'served', 'agent/a/index.html')
    fs.mkdirSync(path.dirname(served), { recursive: true })
    fs.linkSync(path.join(dirs.outDir, 'agent/a/index.html'), served)
    unlinkBeforeRender(manifest, AGENT, '/agent/a', dirs)
    expect(fs.existsSync(path.join(dirs.outDir, 'agent/a/index.html'))).toBe(false)
    expect(fs.existsSync(path.join(dirs.cacheDir, 'dist/agent/a/index.html'))).toBe(false)
    // Astro's writes now make new files
    write(path.join(dirs.outDir, 'agent/a/index.html'), 'new /agent/a')
    write(path.join(dirs.cacheDir, 'dist/agent/a/index.html'), 'new /agent/a')
    expect(fs.readFileSync(served, 'utf8')).toBe('old /agent/a')
    // a path the previous build did not have: nothing to free
    expect(() => unlinkBeforeRender(manifest, AGENT, '/agent/d', dirs)).not.toThrow()
  })
})
