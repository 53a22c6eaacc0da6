/**
 * sitemaps.org protocol 0.9 documents (pure): one `<urlset>` up to SITEMAP_MAX_URLS entries, past that a
 * `<sitemapindex>` at /sitemap.xml pointing at /sitemap-1.xml, /sitemap-2.xml, ... of at most SITEMAP_MAX_URLS each
 * (the protocol's limit per file is 50,000 URLs).
 */
import { escapeXml } from './xml'

/** URLs per sitemap file (sitemaps.org: at most 50,000). */
export const SITEMAP_MAX_URLS = 50_000

export interface SitemapEntry {
  /** Site path, e.g. /agent/<id>. */
  path: string
  /** ISO timestamp of the last change, when known. */
  lastmod?: string
}

/** The entries of sitemap file `index` (1-based) when split into files of `max`. */
export function sitemapChunk(entries: readonly SitemapEntry[], index: number, max = SITEMAP_MAX_URLS): SitemapEntry[] {
  return entries.slice((index - 1) * max, index * max)
}

/** How many files the entries need: 1 means /sitemap.xml is the urlset itself. */
export function sitemapFileCount(entries: readonly SitemapEntry[], max = SITEMAP_MAX_URLS): number {
  return Math.max(1, Math.ceil(entries.length / max))
}

/** A `<urlset>` document with absolute `<loc>`s. */
export function urlsetXml(entries: readonly SitemapEntry[], site: URL | string): string {
  const urls = entries
    .map(({ path, lastmod }) => {
      const loc = `<loc>${escapeXml(new URL(path, site).href)}</loc>`
      return `  <url>${loc}${lastmod ? `<lastmod>${new Date(lastmod).toISOString()}</lastmod>` : ''}</url>`
    })
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
}

/** A `<sitemapindex>` listing /sitemap-1.xml … /sitemap-<count>.xml. */
export function sitemapIndexXml(count: number, site: URL | string): string {
  const items = Array.from(
    { length: count },
    (_, index) => `  <sitemap><loc>${escapeXml(new URL(`/sitemap-${index + 1}.xml`, site).href)}</loc></sitemap>`,
  ).join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}\n</sitemapindex>\n`
}
