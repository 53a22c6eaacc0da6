import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { BLOG_SEARCH_DEFAULTS, BlogSearchSchema } from '@/features/blog/api/blog-schemas'
import { searchWithDefaults } from '@/lib/search-params'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'blog',
  ...searchWithDefaults(BlogSearchSchema, BLOG_SEARCH_DEFAULTS),
  component: lazyRouteComponent(() => import('@/features/blog/components/blog-admin-page'), 'BlogAdminPage'),
})
