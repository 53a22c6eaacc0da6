/**
 * The build-cache keys (Astro's `cacheKey` in getStaticPaths) of the blog's data-driven pages, over exactly the data
 * each page prints: an article its post and its related posts, a category page the category and its posts' cards.
 * Used by those pages' getStaticPaths and by the local builder's patch (scripts/lib/site-patch.ts), which compares
 * the keys of two moments to know which blog pages to render again, and records what it rendered under them.
 */
import { categoryUrl, postUrl } from '@shared/urls.ts'
import type { BlogCategory, PublishedPost } from './blog-data'
import { relatedPosts } from './blog-rules'
import { contentHash } from './content-hash'

/** The key of an article: the post and the related posts it lists (`posts`: every published post, newest first). */
export const articleCacheKey = (post: PublishedPost, posts: PublishedPost[]) =>
  contentHash([post, relatedPosts(post, posts)])

/** The key of a category page: the category and the cards of its posts. */
export const categoryCacheKey = (category: BlogCategory, posts: PublishedPost[]) =>
  contentHash([category, posts.filter((post) => post.category?.slug === category.slug)])

/** Every article's and category page's path (/blog/<slug>, /blog/category/<slug>) with its key. */
export function blogPageKeys(posts: PublishedPost[], categories: BlogCategory[]): Record<string, string> {
  const keys: Record<string, string> = {}
  for (const post of posts) keys[postUrl(post.slug)] = articleCacheKey(post, posts)
  for (const category of categories) keys[categoryUrl(category.slug)] = categoryCacheKey(category, posts)
  return keys
}
