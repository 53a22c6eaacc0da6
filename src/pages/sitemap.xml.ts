import type { APIRoute } from 'astro'

import { loadSitemapEntries } from '../lib/sitemap'
import { sitemapFileCount, sitemapIndexXml, urlsetXml } from '../lib/sitemap-xml'

/** sitemap.xml: every public page as one urlset, or a sitemap index once there are more than 50,000 (src/lib/sitemap.ts). */
export const GET: APIRoute = async ({ site }) => {
  if (!site) throw new Error('sitemap.xml needs `site` in astro.config.mjs to build absolute URLs')
  const entries = await loadSitemapEntries()
  const count = sitemapFileCount(entries)
  const xml = count === 1 ? urlsetXml(entries, site) : sitemapIndexXml(count, site)
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } })
}
