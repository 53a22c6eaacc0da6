import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { headersFor, parseHeadersFile, readHeadersFile } from './headers-file.ts'

describe('_headers', () => {
  it('applies every matching rule in order', () => {
    const rules = parseHeadersFile(
      '# comment\n/*\n  X-Frame-Options: DENY\n  X-A: 1\n/admin/*\n  X-A: 2\n/blog/:slug\n  X-B: yes\n',
    )
    expect(Object.fromEntries(headersFor(rules, '/'))).toEqual({ 'X-Frame-Options': 'DENY', 'X-A': '1' })
    expect(Object.fromEntries(headersFor(rules, '/admin/login'))).toEqual({ 'X-Frame-Options': 'DENY', 'X-A': '2' })
    expect(headersFor(rules, '/blog/a-post').get('X-B')).toBe('yes')
    expect(headersFor(rules, '/blog/a/b').get('X-B')).toBeUndefined()
  })

  it('refuses a header outside a rule', () => {
    expect(() => parseHeadersFile('  X-A: 1')).toThrow('_headers line 1: expected "Name: value" under a path pattern')
  })

  it('public/_headers denies framing and sends a CSP for the site and the admin', () => {
    const rules = readHeadersFile(path.resolve(import.meta.dirname, '../../public/_headers'))
    expect(fs.existsSync(path.resolve(import.meta.dirname, '../../public/_headers'))).toBe(true)
    for (const page of ['/', '/blog/x', '/admin/', '/admin/login']) {
      const headers = headersFor(rules, page)
      expect(headers.get('Content-Security-Policy'), page).toContain("frame-ancestors 'none'")
      expect(headers.get('X-Frame-Options'), page).toBe('DENY')
      expect(headers.get('X-Content-Type-Options'), page).toBe('nosniff')
      expect(headers.get('Referrer-Policy'), page).toBe('strict-origin-when-cross-origin')
    }
  })
})
