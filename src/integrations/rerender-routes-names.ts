/**
 * Names shared by the blog's re-render routes (src/rerender/) and the local builder's patch (scripts/lib/site-patch.ts).
 * No imports: the site's worker bundles this module.
 */

/**
 * Set on every answer of a blog re-render route, 200 or 404: a 404 without it comes from a worker that has no such
 * route (a build made without them), which the patch must not read as "this page is gone".
 */
export const RERENDER_PAGE_HEADER = 'x-rerender-page'

/** Where the routes are: `${BLOG_RERENDER_PATH}/lists/home`, `/lists/blog`, `/article/<slug>`, `/category/<slug>`, `/rss.xml`. */
export const BLOG_RERENDER_PATH = '/rerender/blog'
