import type { APIRoute } from 'astro'

import { loadPublishedPosts } from '../lib/blog'
import { escapeXml } from '../lib/xml'
import { absoluteUrl, postUrl } from '@shared/urls.ts'

/** rss.xml: RSS 2.0 feed of the published posts, newest first (https://www.rssboard.org/rss-specification). */
export const GET: APIRoute = async ({ site }) => {
  if (!site) throw new Error('rss.xml needs `site` in astro.config.mjs to build absolute URLs')
  const posts = await loadPublishedPosts()
  const blogUrl = new URL('/blog', site).href
  const items = posts
    .map((post) => {
      const link = absoluteUrl(postUrl(post.slug), site)
      return [
        '    <item>',
        `      <title>${escapeXml(post.title)}</title>`,
        `      <link>${escapeXml(link)}</link>`,
        `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
        `      <pubDate>${new Date(post.published_at).toUTCString()}</pubDate>`,
        post.excerpt ? `      <description>${escapeXml(post.excerpt)}</description>` : '',
        post.category ? `      <category>${escapeXml(post.category.name)}</category>` : '',
        '    </item>',
      ]
        .filter(Boolean)
        .join('\n')
    })
    .join('\n')
  const lastBuild = posts[0]
    ? `\n    <lastBuildDate>${new Date(posts[0].published_at).toUTCString()}</lastBuildDate>`
    : ''
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>AgentInsight Blog</title>
    <link>${escapeXml(blogUrl)}</link>
    <description>Practical guides for US home buyers and sellers: reading the market, choosing agents, financing and selling.</description>
    <language>en-us</language>
    <atom:link href="${escapeXml(new URL('/rss.xml', site).href)}" rel="self" type="application/rss+xml" />${lastBuild}
${items}
  </channel>
</rss>
`
  return new Response(xml, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } })
}
