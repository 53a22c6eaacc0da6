/** The hand-written public pages, for the sitemap (blog posts and categories are added from the database). */
export const STATIC_PAGES = [
  '/',
  '/search',
  '/blog',
  '/about',
  '/how-it-works',
  '/sample-report',
  '/privacy',
  '/terms',
  '/contact',
] as const

/** Header items that can be the current one (Home, Search Agents, Blog, About, How It Works, Login). */
export type NavSection = '/' | '/search' | '/blog' | '/about' | '/how-it-works' | '/auth'

/**
 * Which header item is highlighted on a path (trailing slash removed). A section stays highlighted on its sub-pages
 * (/blog/some-post highlights Blog); the search results, agent profiles, the ZIP and city pages (/agents/...), the
 * compare page and the sample report, which is what a search leads to, highlight Search Agents. Null for pages outside the header's sections (404).
 */
export function navSectionOf(path: string): NavSection | null {
  if (path === '/') return '/'
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`)
  if (
    under('/search') ||
    under('/search-results') ||
    under('/agent') ||
    under('/agents') ||
    under('/sample-report') ||
    under('/compare')
  )
    return '/search'
  for (const section of ['/blog', '/about', '/how-it-works', '/auth'] as const) if (under(section)) return section
  return null
}
