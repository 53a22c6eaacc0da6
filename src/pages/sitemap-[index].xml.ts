import type { APIRoute, GetStaticPaths } from 'astro'

import { loadSitemapEntries } from '../lib/sitemap'
import { sitemapChunk, sitemapFileCount, urlsetXml } from '../lib/sitemap-xml'

/** /sitemap-<n>.xml: the n-th 50,000 URLs, built only when the site has more than 50,000 pages. */
export const getStaticPaths = (async () => {
  const count = sitemapFileCount(await loadSitemapEntries())
  if (count === 1) return []
  return Array.from({ length: count }, (_, index) => ({ params: { index: String(index + 1) } }))
}) satisfies GetStaticPaths

export const GET: APIRoute = async ({ site, params }) => {
  if (!site) throw new Error('sitemaps need `site` in astro.config.mjs to build absolute URLs')
  const entries = sitemapChunk(await loadSitemapEntries(), Number(params.index))
  return new Response(urlsetXml(entries, site), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } })
}
