/** The site's URL list for the sitemaps (documents: ./sitemap-xml.ts). */
import { loadSiteAgentData, type SiteAgentData } from './agent-pages'
import { loadCategories, loadPublishedPosts } from './blog'
import { STATIC_PAGES } from './site-pages'
import type { SitemapEntry } from './sitemap-xml'
import { agentUrl, categoryUrl, cityUrl, postUrl, zipUrl } from '@shared/urls.ts'

/**
 * Every public page: static pages, blog categories and posts, agent pages, ZIP and city pages.
 * @throws on a failed read.
 */
export async function loadSitemapEntries(): Promise<SitemapEntry[]> {
  const [posts, categories, agentData] = await Promise.all([
    loadPublishedPosts(),
    loadCategories(),
    loadSiteAgentData(),
  ])
  // The newest post date stands for the blog index, which changes whenever a post is published or edited.
  const newest = posts
    .map((post) => post.updated_at)
    .sort()
    .at(-1)
  return [
    ...STATIC_PAGES.map((path) => ({ path, lastmod: path === '/blog' ? newest : undefined })),
    ...categories.map((category) => {
      const categoryPosts = posts.filter((post) => post.category?.slug === category.slug).map((post) => post.updated_at)
      return { path: categoryUrl(category.slug), lastmod: [category.updated_at, ...categoryPosts].sort().at(-1) }
    }),
    ...posts.map((post) => ({ path: postUrl(post.slug), lastmod: post.updated_at ?? post.published_at })),
    ...dataEntries(agentData),
  ]
}

function dataEntries(agentData: SiteAgentData): SitemapEntry[] {
  return [
    ...agentData.profiles.map(({ agent }) => ({
      path: agentUrl(agent.id),
      lastmod: agent.metrics_refreshed_at ?? agent.updated_at,
    })),
    ...agentData.zips.map((page) => ({ path: zipUrl(page.zip) })),
    ...agentData.cities.map((page) => ({ path: cityUrl(page.state, page.citySlug) })),
  ]
}
