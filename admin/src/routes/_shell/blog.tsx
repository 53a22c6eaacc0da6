import { createRoute, lazyRouteComponent, stripSearchParams } from '@tanstack/react-router'

import { BLOG_SEARCH_DEFAULTS, BlogSearchSchema } from '@/features/blog/api/blog-schemas'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'blog',
  validateSearch: BlogSearchSchema,
  // the default state keeps a bare URL
  search: { middlewares: [stripSearchParams(BLOG_SEARCH_DEFAULTS)] },
  staticData: { title: 'Blog' },
  component: lazyRouteComponent(() => import('@/features/blog/components/blog-admin-page'), 'BlogAdminPage'),
})
