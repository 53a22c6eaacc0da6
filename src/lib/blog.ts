/**
 * Published blog data for the prebuilt site, read at build time with the anon key: the "published" RLS policy
 * decides what is public (status = 'published' and published_at <= now()), so drafts and scheduled posts never
 * reach the HTML. Results are cached per build so every page and getStaticPaths share one request.
 */
import { readingTimeMinutes } from '@shared/post-content.ts'
import { readAll } from './read-all'
import { supabase } from './supabase'

export interface BlogCategory {
  id: string
  name: string
  slug: string
  description: string | null
  updated_at: string
}

export interface PublishedPost {
  id: string
  title: string
  slug: string
  excerpt: string | null
  content: string
  meta_title: string | null
  meta_description: string | null
  location: string | null
  featured_image_url: string | null
  hack_density_score: number | null
  unique_insights: number
  insights: string[]
  /** Never null for a published post (blog_posts_published_has_date). */
  published_at: string
  updated_at: string
  category: { name: string; slug: string } | null
  readingMinutes: number
}

let postsPromise: Promise<PublishedPost[]> | undefined
let categoriesPromise: Promise<BlogCategory[]> | undefined

/** Every public post, newest first. Throws when the read fails, so a broken build never ships an empty blog. */
export function loadPublishedPosts(): Promise<PublishedPost[]> {
  postsPromise ??= (async () => {
    // paged: past 1,000 posts one request would drop the oldest (src/lib/read-all.ts)
    const data = await readAll('published blog posts', (from, to) =>
      supabase
        .from('blog_posts')
        .select(
          'id, title, slug, excerpt, content, meta_title, meta_description, location, featured_image_url, hack_density_score, unique_insights, insights, published_at, updated_at, blog_categories(name, slug)',
        )
        .eq('status', 'published')
        .order('published_at', { ascending: false })
        .order('id')
        .range(from, to),
    )
    return data.map(({ blog_categories, published_at, ...post }) => ({
      ...post,
      published_at: published_at ?? post.updated_at,
      category: blog_categories,
      readingMinutes: readingTimeMinutes(post.content),
    }))
  })()
  return postsPromise
}

/** Every category, by name. Throws when the read fails. */
export function loadCategories(): Promise<BlogCategory[]> {
  categoriesPromise ??= (async () => {
    const { data, error } = await supabase
      .from('blog_categories')
      .select('id, name, slug, description, updated_at')
      .order('name')
    if (error) throw new Error(`Could not load blog categories: ${error.message}`)
    return data
  })()
  return categoriesPromise
}

/** An old address of a live post: /blog/<oldSlug> redirects to the post's current slug. */
export interface PostRedirect {
  oldSlug: string
  slug: string
}

/**
 * Old slugs of live posts (recorded when a live post's slug was edited), read with the anon key: the RLS policy
 * only shows redirects to live posts. Throws when the read fails.
 */
export async function loadPostRedirects(): Promise<PostRedirect[]> {
  const { data, error } = await supabase
    .from('blog_post_redirects')
    .select('old_slug, blog_posts(slug)')
    .order('old_slug')
  if (error) throw new Error(`Could not load blog post redirects: ${error.message}`)
  return data.flatMap((row) => (row.blog_posts ? [{ oldSlug: row.old_slug, slug: row.blog_posts.slug }] : []))
}
