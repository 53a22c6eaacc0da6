import type { QueryClient } from '@tanstack/react-query'
import { createRouter } from '@tanstack/react-router'

import { parseSearch, stringifySearch } from '@/lib/search-params'
import { routeTree } from '@/routes/route-tree'

/** Where the admin is served (Vite `base`), without the trailing slash. */
const BASE = '/admin'

/**
 * /admin/... in the browser ↔ /... in the route tree. A hand-written basepath, because the built-in one writes the
 * dashboard as '/admin/' and the spec's address is '/admin'.
 */
const adminBasepath = {
  input: ({ url }: { url: URL }) => {
    if (url.pathname === BASE || url.pathname === `${BASE}/`) url.pathname = '/'
    else if (url.pathname.startsWith(`${BASE}/`)) url.pathname = url.pathname.slice(BASE.length)
    return url
  },
  output: ({ url }: { url: URL }) => {
    url.pathname = url.pathname === '/' ? BASE : `${BASE}${url.pathname}`
    return url
  },
}

/** The admin SPA's router: every URL lives under /admin (Vite base); search params are plain strings checked by zod. */
export function createAdminRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    rewrite: adminBasepath,
    context: { queryClient },
    parseSearch,
    stringifySearch,
    scrollRestoration: true,
    defaultPreload: 'intent',
    // the query cache owns freshness; the router only runs loaders to warm it
    defaultPreloadStaleTime: 0,
  })
}

export type AdminRouter = ReturnType<typeof createAdminRouter>

declare module '@tanstack/react-router' {
  interface Register {
    router: AdminRouter
  }
}
