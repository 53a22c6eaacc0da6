/**
 * The routes through which the local builder's patch re-renders the blog's prerendered pages after a blog change
 * (scripts/lib/site-patch.ts), injected only into the builds the local builder makes (`SITE_PATCH_ROUTES=1`, set by
 * scripts/lib/site-build-hook.ts). The hosted deploy (`build:deploy`) never patches, and these pages' module graph holds
 * sanitize-html (the posts' reading time and body), whose PostCSS imports Node's path, url and fs: Wrangler's bundling
 * of a Pages worker fails on them without the nodejs_compat flag. The local builder runs the worker unbundled
 * (supabase/local/pages-functions.ts), where they load.
 *
 * Routes (all under /rerender/, which `_routes.json` keeps from visitors): `/rerender/blog/lists/home` and
 * `/lists/blog` (src/rerender/blog-lists.astro), `/article/<slug>` (blog-article.astro), `/category/<slug>`
 * (blog-category.astro), `/rss.xml` (rss.xml.ts).
 */
import type { AstroIntegration } from 'astro'
import { BLOG_RERENDER_PATH } from './rerender-routes-names.ts'

/** The integration; `enabled`: whether to add the routes (the local builder's builds). */
export function rerenderRoutes(enabled: boolean): AstroIntegration {
  return {
    name: 'rerender-routes',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        if (!enabled) return
        const routes = [
          ['lists/[page]', 'blog-lists.astro'],
          ['article/[slug]', 'blog-article.astro'],
          ['category/[slug]', 'blog-category.astro'],
          ['rss.xml', 'rss.xml.ts'],
        ]
        for (const [pattern, file] of routes)
          injectRoute({
            pattern: `${BLOG_RERENDER_PATH}/${pattern}`,
            entrypoint: new URL(`../rerender/${file}`, import.meta.url),
            prerender: false,
          })
      },
    },
  }
}
