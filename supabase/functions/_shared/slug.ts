/**
 * The URL slug rule for blog posts and categories, one home for the admin editor, the AI writer and the database
 * check constraints (blog_posts.slug: `^[a-z0-9]+(-[a-z0-9]+)*$`, at most 200 characters; blog_categories.slug at
 * most 100). Import-free so Node, Vite and Deno all load it.
 */

/** Lower-case ASCII words joined by single hyphens (the check constraint's pattern). */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** Longest slug the blog_posts check constraint accepts. */
export const SLUG_MAX_LENGTH = 200

/** Length a generated slug is cut to (at a word boundary): short enough to read in a search result. */
export const SLUG_GENERATED_LENGTH = 80

/**
 * Slug from a title: accents folded, lower-case ASCII letters and digits joined by single hyphens, cut at a word
 * boundary to at most `max` characters (a single word longer than `max` is cut inside). '' when nothing is left.
 * The database groups ZIP pages into city pages with the same rule (private.city_page_path, default `max`); change
 * both together: tests/integration/city-page-paths.test.ts fails when they differ.
 */
export function slugify(title: string, max: number = SLUG_GENERATED_LENGTH): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  if (slug.length <= max) return slug
  const cut = slug.slice(0, max + 1)
  const boundary = cut.lastIndexOf('-')
  return (boundary > 0 ? cut.slice(0, boundary) : slug.slice(0, max)).replace(/-+$/, '')
}
