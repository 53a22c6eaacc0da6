/**
 * sitemaps.org protocol 0.9: the site's URL list, as one `<urlset>` up to SITEMAP_MAX_URLS entries, past that as a
 * `<sitemapindex>` at /sitemap.xml pointing at /sitemap-1.xml, /sitemap-2.xml, ... of at most SITEMAP_MAX_URLS each
 * (the protocol's limit per file is 50,000 URLs).
 */
import { loadSiteAgentData } from './agent-pages'
import { loadCategories, loadPublishedPosts } from './blog'
import { STATIC_PAGES } from './site-pages'
import { escapeXml } from './xml'
import { agentUrl, categoryUrl, cityUrl, postUrl, zipUrl } from '@shared/urls.ts'

/** URLs per sitemap file (sitemaps.org: at most 50,000). */
export const SITEMAP_MAX_URLS = 50_000

export interface SitemapEntry {
  /** Site path, e.g. /agent/<id>. */
  path: string
  /** ISO timestamp of the last change, when known. */
  lastmod?: string
}

/** Every public page: static pages, blog categories and posts, agent pages, ZIP and city pages. @throws on a failed read. */
export async function loadSitemapEntries(): Promise<SitemapEntry[]> {
  const [posts, categories, agentData] = await Promise.all([loadPublishedPosts(), loadCategories(), loadSiteAgentData()])
  // The newest post date stands for the blog index, which changes whenever a post is published or edited.
  const newest = posts.map((post) => post.updated_at).sort().at(-1)
  return [
    ...STATIC_PAGES.map((path) => ({ path, lastmod: path === '/blog' ? newest : undefined })),
    ...categories.map((category) => {
      const categoryPosts = posts.filter((post) => post.category?.slug === category.slug).map((post) => post.updated_at)
      return { path: categoryUrl(category.slug), lastmod: [category.updated_at, ...categoryPosts].sort().at(-1) }
    }),
    ...posts.map((post) => ({ path: postUrl(post.slug), lastmod: post.updated_at ?? post.published_at })),
    ...agentData.profiles.map(({ agent }) => ({ path: agentUrl(agent.id), lastmod: agent.metrics_refreshed_at ?? agent.updated_at })),
    ...agentData.zips.map((page) => ({ path: zipUrl(page.zip) })),
    ...agentData.cities.map((page) => ({ path: cityUrl(page.state, page.citySlug) })),
  ]
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
  const items = Array.from({ length: count }, (_, index) => `  <sitemap><loc>${escapeXml(new URL(`/sitemap-${index + 1}.xml`, site).href)}</loc></sitemap>`).join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}\n</sitemapindex>\n`
}
