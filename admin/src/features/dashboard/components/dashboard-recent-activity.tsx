import { useQuery } from '@tanstack/react-query'
import { format, formatDistanceToNow } from 'date-fns'

import { NavLink } from '@/components/layout/nav-link'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import type { ActivityKind } from '../api/dashboard-activity'
import { dashboardQueries } from '../api/dashboard-queries'

const KIND_DOT: Record<ActivityKind, string> = {
  post_created: 'bg-slate-400',
  post_published: 'bg-green-600',
  lead_received: 'bg-blue-600',
  job_completed: 'bg-violet-600',
  job_failed: 'bg-red-600',
}

/** The ten newest events (posts created and published, leads received, generation jobs finished). */
export function DashboardRecentActivity() {
  const activity = useQuery(dashboardQueries.activity())

  return (
    <Card aria-labelledby="recent-activity-title">
      <h2 id="recent-activity-title" className="text-lg font-semibold">
        Recent Activity
      </h2>
      <div className="mt-4">
        {activity.isPending && (
          <ul aria-busy="true" className="space-y-3">
            {Array.from({ length: 5 }, (_, index) => (
              <li key={index}>
                <Skeleton className="h-5 w-full" />
              </li>
            ))}
          </ul>
        )}
        {activity.isError && (
          <Alert className="flex flex-wrap items-center justify-between gap-2">
            <span>Could not load recent activity: {activity.error.message}</span>
            <Button variant="outline" size="sm" onClick={() => void activity.refetch()}>
              Retry
            </Button>
          </Alert>
        )}
        {activity.isSuccess && activity.data.length === 0 && <p className="text-sm text-slate-500">No activity yet.</p>}
        {activity.isSuccess && activity.data.length > 0 && (
          <ul aria-label="Recent activity" className="divide-y divide-slate-100">
            {activity.data.map((item) => (
              <li key={item.key} className="flex items-start gap-3 py-2.5 text-sm">
                <span aria-hidden="true" className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${KIND_DOT[item.kind]}`} />
                <NavLink href={item.href} className="min-w-0 flex-1 text-slate-800 hover:text-blue-700 hover:underline">
                  {item.text}
                </NavLink>
                <time
                  dateTime={item.at}
                  title={format(new Date(item.at), 'PPpp')}
                  className="shrink-0 text-xs text-slate-500"
                >
                  {formatDistanceToNow(new Date(item.at), { addSuffix: true })}
                </time>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  )
}
