/** The site's URL list for the sitemaps (documents: ./sitemap-xml.ts). */
import { listAgentPages, listAreaPages, type AgentPageRef, type CityPageRef, type ZipPageRef } from './agent-pages'
import { loadCategories, loadPublishedPosts } from './blog'
import { STATIC_PAGES } from './site-pages'
import type { SitemapEntry } from './sitemap-xml'
import { agentUrl, categoryUrl, cityUrl, postUrl, zipUrl } from '@shared/urls.ts'

/**
 * Every prerendered public page: static pages, blog categories and posts, agent pages, ZIP and city pages. Agent pages
 * rendered on demand are left out (search engines reach them through the ZIP pages' links). lastmod of a data page is
 * when its data last changed.
 * @throws on a failed read.
 */
export async function loadSitemapEntries(): Promise<SitemapEntry[]> {
  const [posts, categories, agentPages, areaPages] = await Promise.all([
    loadPublishedPosts(),
    loadCategories(),
    listAgentPages(),
    listAreaPages(),
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
    ...dataEntries(agentPages, areaPages.zips, areaPages.cities),
  ]
}

function dataEntries(agents: AgentPageRef[], zips: ZipPageRef[], cities: CityPageRef[]): SitemapEntry[] {
  return [
    ...agents.map((page) => ({ path: agentUrl(page.agentId), lastmod: page.changedAt })),
    ...zips.map((page) => ({ path: zipUrl(page.zip), lastmod: page.changedAt })),
    ...cities.map((page) => ({
      path: cityUrl(page.state, page.citySlug),
      lastmod: page.zips
        .map((zip) => zip.changedAt)
        .sort()
        .at(-1),
    })),
  ]
}
