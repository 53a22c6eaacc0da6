import { createRoute } from '@tanstack/react-router'

import { CalendarPage } from '@/features/calendar/components/calendar-page'
import { CalendarSearchSchema } from '@/features/calendar/api/calendar-schemas'
import { Route as ShellRoute } from '../_shell'

export const Route = createRoute({
  getParentRoute: () => ShellRoute,
  path: 'calendar',
  validateSearch: CalendarSearchSchema,
  staticData: { title: 'Calendar' },
  component: CalendarPage,
})
