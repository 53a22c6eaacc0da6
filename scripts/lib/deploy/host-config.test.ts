import { describe, expect, it } from 'vitest'

import {
  adminElsewhereRules,
  adminHeadersFile,
  adminOnlyRedirectRules,
  headersFile,
  redirectRules,
  redirectsFile,
} from './host-config.ts'

describe('redirectRules', () => {
  it('passes the admin bundles through before the SPA fallback and never rewrites to an index.html', () => {
    const rules = redirectRules(['assets/', 'index.html', 'robots.txt', '.source-hash'])
    expect(
      redirectsFile(rules)
        .split('\n')
        .slice(1, -1)
        .map((line) => line.split(/\s+/).join(' ')),
    ).toEqual([
      '/admin /admin/ 301',
      '/admin/assets/* /admin/assets/:splat 200',
      '/admin/robots.txt /admin/robots.txt 200',
      '/admin/:p1 /admin/ 200',
      '/admin/:p1/:p2 /admin/ 200',
      '/admin/:p1/:p2/:p3 /admin/ 200',
      '/admin/:p1/:p2/:p3/:p4 /admin/ 200',
    ])
  })
})

describe('headersFile', () => {
  it('keeps the security headers as written and adds the immutable caching of hashed bundles', () => {
    const text = headersFile('/*\n  X-Frame-Options: DENY\n')
    expect(text.startsWith('/*\n  X-Frame-Options: DENY\n\n# Generated')).toBe(true)
    expect(text).toContain('/admin/assets/*\n  Cache-Control: public, max-age=31536000, immutable')
    expect(headersFile(null).startsWith('# Generated')).toBe(true)
  })

  it("adds no second /_astro/* block where the built file has one (Astro's Cloudflare adapter writes it)", () => {
    const built = '/_astro/*\n  Cache-Control: public, max-age=31536000, immutable\n\n/*\n  X-Frame-Options: DENY\n'
    expect(headersFile(built).match(/^\/_astro\/\*$/gm)).toHaveLength(1)
    expect(headersFile(null).match(/^\/_astro\/\*$/gm)).toHaveLength(1)
  })
})

describe('the admin on its own origin', () => {
  it('serves the app under /admin/ there and sends the public site’s /admin to it', () => {
    expect(adminOnlyRedirectRules(['assets/', 'index.html'])[0]).toEqual({ from: '/', to: '/admin/', status: 302 })
    expect(adminElsewhereRules('https://admin.example.com/')).toEqual([
      { from: '/admin', to: 'https://admin.example.com/admin/', status: 301 },
      { from: '/admin/*', to: 'https://admin.example.com/admin/:splat', status: 301 },
    ])
  })

  it('lets the app run only its own bundles and talk only to itself and the project', () => {
    const csp = /Content-Security-Policy: (.*)/.exec(adminHeadersFile('https://abcd.supabase.co'))![1]!
    expect(csp).toContain("script-src 'self';")
    expect(csp).toContain("connect-src 'self' https://abcd.supabase.co;")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
  })
})
