/** Pure rules of the public blog pages: hero figures, related posts, dates. No I/O, so unit-tested directly. */
import { isFeatured } from './density'

/** The fields of a published post these rules read. */
export interface PostFigures {
  id: string
  hack_density_score: number | null
  unique_insights: number
  category: { slug: string } | null
}

export interface BlogStats {
  articles: number
  /** Sum of hack_density_score over the posts (0-10 each), unrounded. */
  totalDensity: number
  totalInsights: number
  featured: number
}

/** Hero figures of /blog, computed from the published posts (spec: count, density sum, insights total, featured). */
export function blogStats(posts: Pick<PostFigures, 'hack_density_score' | 'unique_insights'>[]): BlogStats {
  return {
    articles: posts.length,
    totalDensity: posts.reduce((sum, post) => sum + (post.hack_density_score ?? 0), 0),
    totalInsights: posts.reduce((sum, post) => sum + post.unique_insights, 0),
    featured: posts.filter((post) => isFeatured(post.hack_density_score)).length,
  }
}

/** Up to `limit` other posts of the same category, newest first; none when the post has no category. */
export function relatedPosts<T extends PostFigures>(post: T, posts: T[], limit = 3): T[] {
  if (!post.category) return []
  return posts.filter((other) => other.id !== post.id && other.category?.slug === post.category?.slug).slice(0, limit)
}

// UTC keeps the printed date independent of the build machine's time zone.
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' })

/** "June 16, 2026" from an ISO timestamp. */
export function formatPostDate(iso: string): string {
  return dateFormat.format(new Date(iso))
}
