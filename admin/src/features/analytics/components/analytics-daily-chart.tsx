import { format, parseISO } from 'date-fns'
import { Area, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'

import type { AnalyticsDay } from '../api/analytics-queries'

const dayLabel = (day: string) => format(parseISO(day), 'MMM d')

/**
 * Page views and visitors per UTC day as an area chart, with the previous period's page views as a dashed line
 * (day n of this period against day n of the previous one) when `previous` is given.
 */
export function AnalyticsDailyChart({ days, previous }: { days: AnalyticsDay[]; previous?: AnalyticsDay[] }) {
  const total = days.reduce((sum, day) => sum + day.page_views, 0)
  const previousTotal = previous?.reduce((sum, day) => sum + day.page_views, 0)
  const data = days.map((day, index) => ({ ...day, previous_page_views: previous?.[index]?.page_views }))
  return (
    <figure aria-label="Page views per day" className="m-0">
      <div className="h-72 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis dataKey="day" tickFormatter={dayLabel} tick={{ fontSize: 12 }} minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={40} />
            <Tooltip labelFormatter={(label) => dayLabel(String(label))} />
            <Legend />
            <Area type="monotone" dataKey="page_views" name="Page views" stroke="#1d4ed8" fill="#bfdbfe" />
            <Area type="monotone" dataKey="visitors" name="Visitors" stroke="#047857" fill="#a7f3d0" />
            {previous && (
              <Line
                type="monotone"
                dataKey="previous_page_views"
                name="Page views, previous period"
                stroke="#64748b"
                strokeDasharray="5 4"
                dot={false}
              />
            )}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="sr-only">
        {total} page views from {dayLabel(days[0]?.day ?? '1970-01-01')} to {dayLabel(days.at(-1)?.day ?? '1970-01-01')}{' '}
        (UTC days)
        {previousTotal === undefined ? '.' : `; ${previousTotal} in the previous period.`}
      </figcaption>
    </figure>
  )
}
