import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { Route as RootRoute } from './__root'

/** Everything under /admin except the login page: the admin guard and the shell (loaded with the first page). */
export const Route = createRoute({
  getParentRoute: () => RootRoute,
  id: '_shell',
  component: lazyRouteComponent(() => import('@/components/layout/admin-layout'), 'AdminLayout'),
  notFoundComponent: NotFound,
})

function NotFound() {
  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">Page not found</h1>
      <p className="mt-2 text-slate-600">There is no admin page at {window.location.pathname}.</p>
    </section>
  )
}
