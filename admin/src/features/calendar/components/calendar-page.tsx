import { CalendarMonth } from './calendar-month'

/** /admin/calendar: the content calendar on its own page. */
export function CalendarPage() {
  return (
    <section>
      <h1 className="mb-6 text-2xl font-bold tracking-tight">Content Calendar</h1>
      <CalendarMonth />
    </section>
  )
}
