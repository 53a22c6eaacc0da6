import { describe, expect, it } from 'vitest'

import { sitemapChunk, sitemapFileCount, sitemapIndexXml, urlsetXml, type SitemapEntry } from './sitemap-xml'

const entries = (count: number): SitemapEntry[] =>
  Array.from({ length: count }, (_, index) => ({ path: `/agent/${index}` }))

describe('sitemap split', () => {
  it('stays one urlset up to the limit and splits past it', () => {
    expect(sitemapFileCount(entries(0), 3)).toBe(1)
    expect(sitemapFileCount(entries(3), 3)).toBe(1)
    expect(sitemapFileCount(entries(4), 3)).toBe(2)
    expect(sitemapFileCount(entries(50_001))).toBe(2)
    expect(sitemapChunk(entries(7), 3, 3).map((entry) => entry.path)).toEqual(['/agent/6'])
  })

  it('writes absolute locs, lastmod in ISO and an index of the files', () => {
    expect(
      urlsetXml([{ path: '/agents/78704', lastmod: '2026-11-01T00:00:00+00:00' }], 'https://example.com'),
    ).toContain('<url><loc>https://example.com/agents/78704</loc><lastmod>2026-11-01T00:00:00.000Z</lastmod></url>')
    expect(sitemapIndexXml(2, 'https://example.com')).toContain(
      '<sitemap><loc>https://example.com/sitemap-2.xml</loc></sitemap>\n</sitemapindex>',
    )
  })
})
