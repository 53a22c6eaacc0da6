/**
 * Renders an admin screen the way the app does, for component tests: the query client, the toast region and a
 * TanStack router in memory whose routes carry the app's ids ('/_shell/blog', '/_shell/crm') and search schemas, so
 * a component that reads its URL state through `getRouteApi` works unchanged.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'

import { ToastProvider } from '@/components/ui/toast'
import { ANALYTICS_SEARCH_DEFAULTS, AnalyticsSearchParamsSchema } from '@/features/analytics/api/analytics-period'
import { BLOG_SEARCH_DEFAULTS, BlogSearchSchema } from '@/features/blog/api/blog-schemas'
import { LEAD_SEARCH_DEFAULTS, LeadSearchSchema } from '@/features/crm/api/crm-schemas'
import { parseSearch, searchWithDefaults, stringifySearch } from '@/lib/search-params'

/**
 * Renders `component` at `url` ('/blog?new=1'): under /blog, /crm or /analytics it is that route's component, anywhere else the
 * page at '/'. Resolves once the router has rendered; returns the router (its `state.location`) and a user-event
 * session.
 */
export async function renderRoute(component: () => ReactNode, url: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  const root = createRootRoute({
    component: () => (
      <ToastProvider>
        <Outlet />
      </ToastProvider>
    ),
  })
  const shell = createRoute({ getParentRoute: () => root, id: '_shell' })
  const path = new URL(url, 'http://admin.test').pathname
  const routes = [
    createRoute({
      getParentRoute: () => shell,
      path: 'blog',
      ...searchWithDefaults(BlogSearchSchema, BLOG_SEARCH_DEFAULTS),
      component: path === '/blog' ? component : () => null,
    }),
    createRoute({
      getParentRoute: () => shell,
      path: 'crm',
      ...searchWithDefaults(LeadSearchSchema, LEAD_SEARCH_DEFAULTS),
      component: path === '/crm' ? component : () => null,
    }),
    createRoute({
      getParentRoute: () => shell,
      path: 'analytics',
      ...searchWithDefaults(AnalyticsSearchParamsSchema, ANALYTICS_SEARCH_DEFAULTS),
      component: path === '/analytics' ? component : () => null,
    }),
    createRoute({ getParentRoute: () => shell, path: '/', component: path === '/' ? component : () => null }),
  ]
  const router = createRouter({
    routeTree: root.addChildren([shell.addChildren(routes)]),
    history: createMemoryHistory({ initialEntries: [url] }),
    parseSearch,
    stringifySearch,
  })
  await router.load()
  const user = userEvent.setup()
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
  return { ...view, router, queryClient, user }
}
