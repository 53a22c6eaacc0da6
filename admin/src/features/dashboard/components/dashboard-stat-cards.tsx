import { useQuery } from '@tanstack/react-query'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { formatCount } from '@/features/analytics/api/analytics-format'
import { AnalyticsStatCard } from '@/features/analytics/components/analytics-stat-card'
import { dashboardQueries, PAGE_VIEW_DAYS } from '../api/dashboard-queries'

/** Published Posts, Drafts, Leads awaiting contact and Page Views (last 30 days), counted in the database. */
export function DashboardStatCards() {
  const stats = useQuery(dashboardQueries.stats())
  const value = (pick: (data: NonNullable<typeof stats.data>) => number) => (stats.data ? formatCount(pick(stats.data)) : undefined)

  if (stats.isError) {
    return (
      <Alert className="flex flex-wrap items-center justify-between gap-2">
        <span>Could not load the dashboard figures: {stats.error.message}</span>
        <Button variant="outline" size="sm" onClick={() => void stats.refetch()}>
          Retry
        </Button>
      </Alert>
    )
  }

  const scheduled = stats.data?.scheduledPosts ?? 0
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <AnalyticsStatCard
        title="Published Posts"
        value={value((data) => data.publishedPosts)}
        description={scheduled > 0 ? `Live on the blog, ${scheduled} more scheduled` : 'Live on the blog'}
      />
      <AnalyticsStatCard title="Drafts" value={value((data) => data.draftPosts)} description="Not yet published" />
      <AnalyticsStatCard title="Leads Awaiting Contact" value={value((data) => data.leadsAwaitingContact)} description="Pending report requests" />
      <AnalyticsStatCard title="Page Views" value={value((data) => data.pageViews)} description={`Last ${PAGE_VIEW_DAYS} days`} />
    </div>
  )
}
