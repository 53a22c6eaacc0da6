import { getRouteApi } from '@tanstack/react-router'
import { format, parse, startOfMonth } from 'date-fns'

import { CalendarMonth } from './calendar-month'

const route = getRouteApi('/_shell/calendar')

/** /admin/calendar: the content calendar on its own page; the month and an opened day live in the URL. */
export function CalendarPage() {
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const month = search.month ? parse(search.month, 'yyyy-MM', new Date()) : startOfMonth(new Date())
  const day = search.day ? parse(search.day, 'yyyy-MM-dd', new Date()) : null
  return (
    <section>
      <h1 className="mb-6 text-2xl font-bold tracking-tight">Content Calendar</h1>
      <CalendarMonth
        month={month}
        onMonthChange={(next) => void navigate({ search: { month: format(next, 'yyyy-MM') }, replace: true })}
        expandedDay={day}
        onExpandDay={(next) =>
          void navigate({ search: (prev) => ({ ...prev, day: next ? format(next, 'yyyy-MM-dd') : undefined }) })
        }
      />
    </section>
  )
}
