import type { APIRoute } from 'astro'

import { loadCategories, loadPublishedPosts } from '../lib/blog'
import { STATIC_PAGES } from '../lib/site-pages'
import { escapeXml } from '../lib/xml'
import { categoryUrl, postUrl } from '@shared/urls.ts'

/** sitemap.xml (sitemaps.org protocol 0.9): static pages, category pages and published posts with their lastmod. */
export const GET: APIRoute = async ({ site }) => {
  if (!site) throw new Error('sitemap.xml needs `site` in astro.config.mjs to build absolute URLs')
  const [posts, categories] = await Promise.all([loadPublishedPosts(), loadCategories()])
  // The newest post date stands for the blog index, which changes whenever a post is published or edited.
  const newest = posts.map((post) => post.updated_at).sort().at(-1)

  const entries: { path: string; lastmod?: string }[] = [
    ...STATIC_PAGES.map((path) => ({ path, lastmod: path === '/blog' ? newest : undefined })),
    ...categories.map((category) => {
      const categoryPosts = posts.filter((post) => post.category?.slug === category.slug).map((post) => post.updated_at)
      return { path: categoryUrl(category.slug), lastmod: [category.updated_at, ...categoryPosts].sort().at(-1) }
    }),
    ...posts.map((post) => ({ path: postUrl(post.slug), lastmod: post.updated_at ?? post.published_at })),
  ]

  const urls = entries
    .map(({ path, lastmod }) => {
      const loc = `<loc>${escapeXml(new URL(path, site).href)}</loc>`
      return `  <url>${loc}${lastmod ? `<lastmod>${new Date(lastmod).toISOString()}</lastmod>` : ''}</url>`
    })
    .join('\n')
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } })
}
