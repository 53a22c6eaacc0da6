/** mergeBuild with and without prepareMerge (the half that runs while Astro builds) gives the same site. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BuildState } from '../../src/lib/build-scope.ts'
import { mergeBuild, prepareMerge, type PreparedMerge } from './site-merge.ts'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true })
})

function writeTree(dir: string, files: Record<string, string>) {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), text)
  }
}

function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')
    if (rel !== '.build-state.json') out[rel] = fs.readFileSync(path.join(dir, rel), 'utf8')
  }
  return out
}

const page = { hash: 'h' }
const servedState: BuildState = {
  groups: { article: { '/blog/a': page }, agent: { '/agent/x': page, '/agent/y': page } },
}
const served = {
  'index.html': 'home v1',
  'blog/a/index.html': 'article a v1',
  'agent/x/index.html': 'agent x',
  'agent/y/index.html': 'agent y',
  '_astro/app.1.js': 'old js',
}
const staged = {
  'index.html': 'home v2',
  'blog/a/index.html': 'article a v2',
  'blog/b/index.html': 'article b',
  '_astro/app.2.js': 'new js',
}

/** A served site and a fresh staging dir under one temp root. */
function setup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'site-merge-'))
  roots.push(root)
  writeTree(path.join(root, 'served'), served)
  return {
    root,
    servedDir: path.join(root, 'served'),
    stage(name: string) {
      const dir = path.join(root, name)
      writeTree(dir, staged)
      return dir
    },
  }
}

describe('prepareMerge', () => {
  it('links the kept groups while the build runs, and the merge then gives the same site as without it', async () => {
    const { root, servedDir, stage } = setup()
    const stagedState: BuildState = { groups: { article: { '/blog/a': page, '/blog/b': page } } }
    const common = {
      servedDir,
      servedState,
      stagedState,
      scope: 'site' as const,
      publicHeaders: path.join(root, 'none'),
    }

    const plainOut = path.join(root, 'plain')
    mergeBuild({ ...common, stagingDir: stage('staging-plain'), outDir: plainOut })

    const preparedOut = path.join(root, 'prepared')
    const prepared = await prepareMerge({ servedDir, servedState, scope: 'site', outDir: preparedOut })
    expect([...prepared.linked].sort()).toEqual(['agent/x/index.html', 'agent/y/index.html'])
    // hard links: the same inode as the served page, nothing copied
    expect(fs.statSync(path.join(preparedOut, 'agent/x/index.html')).ino).toBe(
      fs.statSync(path.join(servedDir, 'agent/x/index.html')).ino,
    )
    const summary = mergeBuild({ ...common, stagingDir: stage('staging-prepared'), outDir: preparedOut, prepared })

    expect(readTree(preparedOut)).toEqual(readTree(plainOut))
    expect(readTree(preparedOut)).toEqual({
      'index.html': 'home v2',
      'blog/a/index.html': 'article a v2',
      'blog/b/index.html': 'article b',
      'agent/x/index.html': 'agent x',
      'agent/y/index.html': 'agent y',
      '_astro/app.1.js': 'old js',
      '_astro/app.2.js': 'new js',
    })
    expect(summary.kept).toBe(3) // two agent pages and the old script
  })

  it('a page linked early is removed when the build evaluated its group and dropped the page', async () => {
    const { root, servedDir, stage } = setup()
    // prepared for a site build, but the build reported the agent group: /agent/y no longer exists
    const stagedState: BuildState = {
      groups: { article: { '/blog/a': page, '/blog/b': page }, agent: { '/agent/x': page } },
    }
    const outDir = path.join(root, 'out')
    const prepared: PreparedMerge = await prepareMerge({ servedDir, servedState, scope: 'site', outDir })
    const summary = mergeBuild({
      servedDir,
      servedState,
      stagedState,
      scope: 'site',
      publicHeaders: path.join(root, 'none'),
      stagingDir: stage('staging'),
      outDir,
      prepared,
    })
    expect(fs.existsSync(path.join(outDir, 'agent/y/index.html'))).toBe(false)
    expect(fs.existsSync(path.join(outDir, 'agent/x/index.html'))).toBe(true)
    expect(summary.removed).toEqual({ agent: 1 })
  })

  it('refuses a preparation made for another directory', async () => {
    const { root, servedDir, stage } = setup()
    const prepared = await prepareMerge({ servedDir, servedState, scope: 'site', outDir: path.join(root, 'one') })
    expect(() =>
      mergeBuild({
        servedDir,
        servedState,
        stagedState: { groups: {} },
        scope: 'site',
        publicHeaders: '',
        stagingDir: stage('staging'),
        outDir: path.join(root, 'two'),
        prepared,
      }),
    ).toThrow(`prepareMerge ran for ${path.join(root, 'one')}, not ${path.join(root, 'two')}`)
  })
})
