/** The hand-written public pages, for the sitemap (blog posts and categories are added from the database). */
export const STATIC_PAGES = ['/', '/search', '/blog', '/about', '/how-it-works', '/sample-report'] as const
