import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

import { headersModule, parseHeadersFile, routeInclude, workerEntry } from './cloudflare-pages.ts'

const headersText = `# security
/*
  X-Frame-Options: DENY
  Content-Security-Policy: default-src 'self'; script-src 'self' 'sha256-abc+/='

/_astro/*
  Cache-Control: public, max-age=31536000, immutable

https://example.com/agent/:id
  X-Robots-Tag: all
/agent/*
  X-Robots-Tag: noarchive
`

/** Imports the generated module from a temporary file. */
async function importHeadersModule(source: string): Promise<{ headersFor(pathname: string): [string, string][] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pages-headers-'))
  const file = path.join(dir, 'pages-headers.mjs')
  fs.writeFileSync(file, source)
  try {
    return (await import(pathToFileURL(file).href)) as { headersFor(pathname: string): [string, string][] }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

describe('parseHeadersFile', () => {
  it('reads path blocks with their headers, splitting at the first colon; URLs keep their path', () => {
    expect(parseHeadersFile(headersText)).toEqual([
      {
        pattern: '/*',
        headers: [
          ['X-Frame-Options', 'DENY'],
          ['Content-Security-Policy', "default-src 'self'; script-src 'self' 'sha256-abc+/='"],
        ],
      },
      { pattern: '/_astro/*', headers: [['Cache-Control', 'public, max-age=31536000, immutable']] },
      { pattern: '/agent/:id', headers: [['X-Robots-Tag', 'all']] },
      { pattern: '/agent/*', headers: [['X-Robots-Tag', 'noarchive']] },
    ])
  })
})

describe('headersModule', () => {
  it('answers the headers of every matching rule; a header set twice is joined as Pages joins it', async () => {
    const { headersFor } = await importHeadersModule(headersModule(parseHeadersFile(headersText)))
    expect(headersFor('/agent/3f0c1a52-8f0e-4c55-9b7a-0d5a1f5e2c11')).toEqual([
      ['X-Frame-Options', 'DENY'],
      ['Content-Security-Policy', "default-src 'self'; script-src 'self' 'sha256-abc+/='"],
      ['X-Robots-Tag', 'all, noarchive'],
    ])
    // a placeholder matches one segment only; dots in patterns are literal
    expect(headersFor('/agent/a/b').map(([name]) => name)).toEqual([
      'X-Frame-Options',
      'Content-Security-Policy',
      'X-Robots-Tag',
    ])
    expect(headersFor('/agent/a/b').at(-1)).toEqual(['X-Robots-Tag', 'noarchive'])
    expect(headersFor('/_astroX/a.js').map(([name]) => name)).not.toContain('Cache-Control')
  })
})

describe('routeInclude', () => {
  const segment = (content: string, dynamic = false) => [{ content, dynamic }]
  it('is the path up to the first parameter, then *', () => {
    expect(routeInclude([segment('agent'), segment('...id', true)])).toBe('/agent/*')
    expect(routeInclude([segment('agents'), segment('state', true), segment('city', true)])).toBe('/agents/*')
    expect(routeInclude([segment('api'), segment('health')])).toBe('/api/health')
  })
})

describe('workerEntry', () => {
  it('serves static files first and keys cached answers by the build', () => {
    const source = workerEntry('build-1')
    expect(source).toContain(`const BUILD_ID = "build-1"`)
    expect(source.indexOf('env.ASSETS.fetch')).toBeLessThan(source.indexOf('caches.default.match'))
    expect(source.indexOf('caches.default.match')).toBeLessThan(source.indexOf('astro.fetch'))
  })
})
