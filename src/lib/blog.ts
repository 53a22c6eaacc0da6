/**
 * Published blog data for the prebuilt site, read at build time with the anon key: the "published" RLS policy
 * decides what is public (status = 'published' and published_at <= now()), so drafts and scheduled posts never
 * reach the HTML. Results are cached per build so every page and getStaticPaths share one request. The reads
 * themselves are in ./blog-data (the local builder's patch makes the same reads to find the blog pages that changed).
 */
import {
  readCategories,
  readPostRedirects,
  readPublishedPosts,
  type BlogCategory,
  type PublishedPost,
} from './blog-data'
import { supabase } from './supabase'

export type { BlogCategory, PostRedirect, PublishedPost } from './blog-data'

let postsPromise: Promise<PublishedPost[]> | undefined
let categoriesPromise: Promise<BlogCategory[]> | undefined

/** Every public post, newest first. Throws when the read fails, so a broken build never ships an empty blog. */
export function loadPublishedPosts(): Promise<PublishedPost[]> {
  postsPromise ??= readPublishedPosts(supabase)
  return postsPromise
}

/** Every category, by name. Throws when the read fails. */
export function loadCategories(): Promise<BlogCategory[]> {
  categoriesPromise ??= readCategories(supabase)
  return categoriesPromise
}

/**
 * Old slugs of live posts (recorded when a live post's slug was edited), read with the anon key: the RLS policy
 * only shows redirects to live posts. Throws when the read fails.
 */
export const loadPostRedirects = () => readPostRedirects(supabase)
