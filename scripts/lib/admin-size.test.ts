import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'

import {
  measureLazyModules,
  measurePage,
  measureUpFront,
  readManifest,
  staticClosure,
  type Manifest,
} from './admin-size.ts'

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-size-test-'))
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }))

const code = {
  'assets/index.js': 'import "./vendor.js";' + 'console.log("entry");'.repeat(50),
  'assets/vendor.js': 'export const react = 1;'.repeat(80),
  'assets/page.js': 'import "./vendor.js"; import "./lib.js"; export const Page = 1;',
  'assets/lib.js': 'export const lib = 2;'.repeat(30),
  'assets/chart.js': 'export const chart = 3;'.repeat(500),
}
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_vendor.js'],
    dynamicImports: ['src/page.tsx'],
    css: ['assets/index.css'],
  },
  '_vendor.js': { file: 'assets/vendor.js' },
  'src/page.tsx': {
    file: 'assets/page.js',
    isDynamicEntry: true,
    imports: ['_vendor.js', '_lib.js'],
    dynamicImports: ['src/chart.tsx'],
  },
  '_lib.js': { file: 'assets/lib.js' },
  'src/chart.tsx': { file: 'assets/chart.js', isDynamicEntry: true },
}
fs.mkdirSync(path.join(dist, 'assets'))
fs.mkdirSync(path.join(dist, '.vite'))
for (const [file, text] of Object.entries(code)) fs.writeFileSync(path.join(dist, file), text)
fs.writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(manifest))
const gz = (...files: (keyof typeof code)[]) => files.reduce((sum, file) => sum + gzipSync(code[file]).length, 0)

describe('admin size from the Vite manifest', () => {
  it('counts the entry and its static imports up front, never a dynamic import', () => {
    const load = measureUpFront(dist)
    expect(load.files).toEqual(['assets/index.js', 'assets/vendor.js'])
    expect(load.gzipBytes).toBe(gz('assets/index.js', 'assets/vendor.js'))
    expect(load.rawBytes).toBe(code['assets/index.js'].length + code['assets/vendor.js'].length)
  })

  it("adds a page's lazy module and its static imports once, without what the page loads later", () => {
    const load = measurePage(dist, ['src/page.tsx'])
    expect(load.files).toEqual(['assets/index.js', 'assets/vendor.js', 'assets/page.js', 'assets/lib.js'])
    expect(load.gzipBytes).toBe(gz('assets/index.js', 'assets/vendor.js', 'assets/page.js', 'assets/lib.js'))
  })

  it('lists each lazy module with only what it adds to the up-front bundle, largest first', () => {
    expect(measureLazyModules(dist).map(({ module, added }) => [module, added.files, added.gzipBytes])).toEqual(
      [
        ['src/page.tsx', ['assets/page.js', 'assets/lib.js'], gz('assets/page.js', 'assets/lib.js')],
        ['src/chart.tsx', ['assets/chart.js'], gz('assets/chart.js')],
      ].sort((a, b) => (b[2] as number) - (a[2] as number)),
    )
  })

  it('names a module that is not in the build', () => {
    expect(() => staticClosure(manifest, ['src/missing.tsx'])).toThrow(
      'src/missing.tsx is not a chunk of this build (see .vite/manifest.json)',
    )
  })

  it('says how to get a manifest when the build has none', () => {
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-size-bare-'))
    try {
      expect(() => readManifest(bare)).toThrow(
        `${bare}/.vite/manifest.json does not exist: build the admin with \`vite build --manifest\``,
      )
    } finally {
      fs.rmSync(bare, { recursive: true, force: true })
    }
  })
})
