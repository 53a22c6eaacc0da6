import { createRoute, lazyRouteComponent } from '@tanstack/react-router'

import { CalendarSearchSchema } from '@/features/calendar/api/calendar-schemas'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'calendar',
  validateSearch: CalendarSearchSchema,
  component: lazyRouteComponent(() => import('@/features/calendar/components/calendar-page'), 'CalendarPage'),
})
