import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { routeMatcher, staticFile } from './pages-functions.ts'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pages-site-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('routeMatcher', () => {
  it('sends included paths to the worker unless excluded', () => {
    const handles = routeMatcher({ include: ['/agent/*'], exclude: ['/agent/not-found/*'] })
    expect(handles('/agent/3f0c1a52-8f0e-4c55-9b7a-0d5a1f5e2c11')).toBe(true)
    expect(handles('/agent/not-found/')).toBe(false)
    expect(handles('/agents/02139')).toBe(false)
    expect(handles('/')).toBe(false)
  })
})

describe('staticFile', () => {
  fs.mkdirSync(path.join(dir, 'agent/x'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'agent/x/index.html'), 'x')
  fs.writeFileSync(path.join(dir, '404.html'), 'missing')
  fs.mkdirSync(path.join(dir, '_worker.js'))
  fs.writeFileSync(path.join(dir, '_worker.js/index.js'), 'secret')

  it('finds a file, a directory index or a .html file, never the host configuration or outside the directory', () => {
    expect(staticFile(dir, '/agent/x')).toBe(path.join(dir, 'agent/x/index.html'))
    expect(staticFile(dir, '/agent/x/')).toBe(path.join(dir, 'agent/x/index.html'))
    expect(staticFile(dir, '/404')).toBe(path.join(dir, '404.html'))
    expect(staticFile(dir, '/agent/y')).toBeNull()
    expect(staticFile(dir, '/_worker.js/index.js')).toBeNull()
    expect(staticFile(dir, '/../etc/passwd')).toBeNull()
    expect(staticFile(dir, '/%E0%A4%A')).toBeNull()
  })
})
