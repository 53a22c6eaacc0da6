/** The site's URL list for the sitemaps (documents: ./sitemap-xml.ts). */
import { listAgentPages, listAreaPages, type AgentPageRef, type CityPageRef, type ZipPageRef } from './agent-pages'
import { readAll } from './read-all'
import { supabase } from './supabase'
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
  const [posts, categories, agentPages, areaPages, noindex] = await Promise.all([
    sitemapPosts(),
    sitemapCategories(),
    listAgentPages(),
    listAreaPages(),
    noindexAgentIds(),
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
    ...dataEntries(
      agentPages.filter((page) => !noindex.has(page.agentId)),
      areaPages.zips,
      areaPages.cities,
    ),
  ]
}

/** A published post as the sitemap lists it. */
interface SitemapPost {
  slug: string
  updated_at: string
  /** Never null for a published post (blog_posts_published_has_date). */
  published_at: string
  category: { slug: string } | null
}

/**
 * The published posts' addresses and dates, newest first. Read here, not through ./blog (which computes reading times
 * with sanitize-html): the sitemap is also rendered by the site's worker (src/pages/rerender/), which cannot load
 * Node's fs, path and url that sanitize-html's CSS parser imports.
 * @throws on a failed read.
 */
async function sitemapPosts(): Promise<SitemapPost[]> {
  const rows = await readAll('published blog posts', (from, to) =>
    supabase
      .from('blog_posts')
      .select('slug, updated_at, published_at, blog_categories(slug)')
      .eq('status', 'published')
      .order('published_at', { ascending: false })
      .order('id')
      .range(from, to),
  )
  return rows.map(({ blog_categories, published_at, ...post }) => ({
    ...post,
    published_at: published_at ?? post.updated_at,
    category: blog_categories,
  }))
}

/** Every category's slug and update time. @throws on a failed read. */
async function sitemapCategories(): Promise<{ slug: string; updated_at: string }[]> {
  const { data, error } = await supabase.from('blog_categories').select('slug, updated_at').order('name')
  if (error) throw new Error(`Could not load blog categories: ${error.message}`)
  return data
}

/**
 * The agents who asked to stay out of search engines (agents.noindex, an administrator accepted it): their pages
 * say noindex and are left out of the sitemap. Few rows, read through the partial index on noindex.
 * @throws on a failed read.
 */
async function noindexAgentIds(): Promise<Set<string>> {
  const ids = new Set<string>()
  for (let from = 0; ; from += 1000) {
    const { data, error } = await supabase
      .from('agents')
      .select('id')
      .eq('noindex', true)
      .order('id')
      .range(from, from + 999)
    if (error) throw new Error(`Could not load the agents kept out of search engines: ${error.message}`)
    for (const row of data) ids.add(row.id)
    if (data.length < 1000) return ids
  }
}

/**
 * The sitemap entries of the data pages (pure): an agent or ZIP page's lastmod is when its own version last changed, a
 * city page's the newest of its ZIPs' city_changed_at (a city page can change when none of its ZIP pages does).
 */
export function dataEntries(agents: AgentPageRef[], zips: ZipPageRef[], cities: CityPageRef[]): SitemapEntry[] {
  return [
    ...agents.map((page) => ({ path: agentUrl(page.agentId), lastmod: page.changedAt })),
    ...zips.map((page) => ({ path: zipUrl(page.zip), lastmod: page.changedAt })),
    ...cities.map((page) => ({
      path: cityUrl(page.state, page.citySlug),
      lastmod: page.zips
        .map((zip) => zip.cityChangedAt)
        .sort()
        .at(-1),
    })),
  ]
}
