import { useQuery } from '@tanstack/react-query'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { formatCount } from '@/features/analytics/api/analytics-format'
import { AnalyticsStatCard } from '@/features/analytics/components/analytics-stat-card'
import { dashboardQueries, PAGE_VIEW_DAYS } from '../api/dashboard-queries'
import { describeTrend, formatMinutes } from '../api/dashboard-schemas'

/**
 * Published Posts, Drafts, Leads Awaiting Contact and Page Views (last 30 UTC days), each with a comparison to the
 * 30 days before, and Speed to Lead (median time to first contact), all from one database call.
 */
export function DashboardStatCards() {
  const overview = useQuery(dashboardQueries.overview())
  const data = overview.data
  const value = (pick: (figures: NonNullable<typeof data>) => number) => (data ? formatCount(pick(data)) : undefined)

  if (overview.isError) {
    return (
      <Alert className="flex flex-wrap items-center justify-between gap-2">
        <span>Could not load the dashboard figures: {overview.error.message}</span>
        <Button variant="outline" size="sm" onClick={() => void overview.refetch()}>
          Retry
        </Button>
      </Alert>
    )
  }

  const scheduled = data?.scheduled_posts ?? 0
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
      <AnalyticsStatCard
        title="Published Posts"
        value={value((figures) => figures.published_posts)}
        description={scheduled > 0 ? `Live on the blog, ${scheduled} more scheduled` : 'Live on the blog'}
        trend={
          data && {
            ...describeTrend(data.posts_published, PAGE_VIEW_DAYS),
            text: `${data.posts_published.current} published, ${describeTrend(data.posts_published, PAGE_VIEW_DAYS).text}`,
          }
        }
      />
      <AnalyticsStatCard
        title="Drafts"
        value={value((figures) => figures.draft_posts)}
        description="Not yet published"
        trend={
          data && {
            ...describeTrend(data.posts_created, PAGE_VIEW_DAYS),
            text: `${data.posts_created.current} written, ${describeTrend(data.posts_created, PAGE_VIEW_DAYS).text}`,
          }
        }
      />
      <AnalyticsStatCard
        title="Leads Awaiting Contact"
        value={value((figures) => figures.pending_leads)}
        description="Pending report requests"
        trend={
          data && {
            ...describeTrend(data.leads, PAGE_VIEW_DAYS),
            text: `${data.leads.current} new, ${describeTrend(data.leads, PAGE_VIEW_DAYS).text}`,
          }
        }
      />
      <AnalyticsStatCard
        title="Page Views"
        value={value((figures) => figures.page_views.current)}
        description={`Last ${PAGE_VIEW_DAYS} days`}
        trend={data && describeTrend(data.page_views, PAGE_VIEW_DAYS)}
      />
      <AnalyticsStatCard
        title="Speed to Lead"
        value={
          data
            ? data.median_minutes_to_contact === null
              ? '—'
              : formatMinutes(data.median_minutes_to_contact)
            : undefined
        }
        description={
          data
            ? `Median time to first contact, ${data.contacted_leads} leads in ${PAGE_VIEW_DAYS} days`
            : 'Median time to first contact'
        }
      />
    </div>
  )
}
