/**
 * The reads behind the blog pages, with the client given: the build reads with the anon key (./blog, where the
 * "published" RLS policy decides what is public: status = 'published', published_at <= now(), not in the trash), and
 * the local builder's patch (scripts/lib/site-patch.ts) makes the same reads with an anon client of its own to find
 * the blog pages whose data changed. No module state: every call reads again.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import type { Database } from '@shared/database.types.ts'
import { readingTimeMinutes } from '@shared/post-content.ts'
import { readAll } from './read-all'

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
  /** Minutes at the house reading speed (@shared/post-content.ts). */
  readingMinutes: number
}

/** An old address of a live post: /blog/<oldSlug> redirects to the post's current slug. */
export interface PostRedirect {
  oldSlug: string
  slug: string
}

/** Every post `client` may read as published, newest first. @throws naming the read when it fails. */
export async function readPublishedPosts(client: SupabaseClient<Database>): Promise<PublishedPost[]> {
  // paged: past 1,000 posts one request would drop the oldest (./read-all)
  const data = await readAll('published blog posts', (from, to) =>
    client
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
}

/** Every category, by name. @throws naming the read when it fails. */
export async function readCategories(client: SupabaseClient<Database>): Promise<BlogCategory[]> {
  const { data, error } = await client
    .from('blog_categories')
    .select('id, name, slug, description, updated_at')
    .order('name')
  if (error) throw new Error(`Could not load blog categories: ${error.message}`)
  return data
}

/** The old slugs `client` may read (the RLS policy shows only redirects to live posts). @throws when the read fails. */
export async function readPostRedirects(client: SupabaseClient<Database>): Promise<PostRedirect[]> {
  const { data, error } = await client
    .from('blog_post_redirects')
    .select('old_slug, blog_posts(slug)')
    .order('old_slug')
  if (error) throw new Error(`Could not load blog post redirects: ${error.message}`)
  return data.flatMap((row) => (row.blog_posts ? [{ oldSlug: row.old_slug, slug: row.blog_posts.slug }] : []))
}
