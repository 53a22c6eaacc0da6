import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'

import { Card } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { dashboardQueries } from '../api/dashboard-queries'

/**
 * What an operator should look at now: pending leads older than a day, overdue follow-ups, a failed last site
 * build, failed generation jobs (7 days) and posts scheduled in the next 24 hours; each links to where it is
 * handled. Says so when nothing needs attention.
 */
export function DashboardNeedsAttention() {
  const overview = useQuery(dashboardQueries.overview())
  const data = overview.data
  const items = data
    ? [
        {
          count: data.pending_leads_over_a_day,
          text: 'pending leads waiting more than a day',
          link: (
            <Link to="/crm" search={{ status: 'pending' }}>
              Open CRM
            </Link>
          ),
        },
        {
          count: data.overdue_follow_ups,
          text: 'overdue follow-ups',
          link: (
            <Link to="/crm" search={{ followUp: 'overdue' }}>
              Show overdue
            </Link>
          ),
        },
        { count: data.failed_builds, text: 'failed last site build', link: <Link to="/builds">Open Builds</Link> },
        {
          count: data.failed_jobs,
          text: 'failed generation jobs this week',
          link: (
            <Link to="/blog" search={{ tab: 'generation' }}>
              Open jobs
            </Link>
          ),
        },
        {
          count: data.scheduled_today,
          text: 'posts scheduled in the next 24 hours',
          link: <Link to="/calendar">Open calendar</Link>,
        },
      ].filter((item) => item.count > 0)
    : []

  return (
    <Card aria-labelledby="needs-attention-heading" className="p-5">
      <h2 id="needs-attention-heading" className="text-lg font-semibold">
        Needs attention
      </h2>
      {overview.isPending && <Skeleton className="mt-3 h-16 w-full" />}
      {overview.isError && <p className="mt-2 text-sm text-red-700">Could not load: {overview.error.message}</p>}
      {data && items.length === 0 && <p className="mt-2 text-sm text-slate-600">Nothing needs attention right now.</p>}
      {items.length > 0 && (
        <ul aria-label="Needs attention" className="mt-3 divide-y divide-slate-100">
          {items.map((item) => (
            <li key={item.text} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span>
                <strong className="tabular-nums">{item.count}</strong> {item.text}
              </span>
              <span className="font-medium text-blue-700 hover:underline">{item.link}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
