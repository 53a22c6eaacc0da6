import { useQueries } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { lazy, Suspense, useMemo } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardDescription } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { Skeleton } from '@/components/ui/skeleton'
import { Select } from '@/components/ui/textarea'
import { countTrend, formatCount, formatRate, rateTrend } from '../api/analytics-format'
import {
  AnalyticsSearchParamsSchema,
  filtersOf,
  periodRange,
  previousRange,
  type AnalyticsSearchParams,
} from '../api/analytics-period'
import { analyticsQueries } from '../api/analytics-queries'
import { AnalyticsFilterBar } from './analytics-filter-bar'
import { AnalyticsStatCard } from './analytics-stat-card'
import { AnalyticsTopPages } from './analytics-top-pages'

// recharts is most of this page's weight: load it with the charts, not with the admin app (the dashboard shares
// this feature's stat card).
const AnalyticsDailyChart = lazy(() =>
  import('./analytics-daily-chart').then((module) => ({ default: module.AnalyticsDailyChart })),
)
const AnalyticsSources = lazy(() =>
  import('./analytics-sources').then((module) => ({ default: module.AnalyticsSources })),
)

/**
 * The Traffic tab: a period selector (7/30/90 whole UTC days, kept in `?period=`), the filters (page, source,
 * excluded path; AnalyticsFilterBar), four metric cards compared with the previous period of the same length, page
 * views per day against that period, traffic sources and top pages, each from the analytics_* SQL functions.
 */
const route = getRouteApi('/_shell/analytics')

export function AnalyticsTrafficTab({ search }: { search: AnalyticsSearchParams }) {
  const navigate = route.useNavigate()
  const { period } = search
  const args = useMemo(() => ({ ...periodRange(period), ...filtersOf(search) }), [period, search])
  const previousArgs = useMemo(() => ({ ...args, ...previousRange(args) }), [args])
  const queries = useQueries({
    queries: [
      analyticsQueries.summary(args),
      analyticsQueries.daily(args),
      analyticsQueries.topPages(args),
      analyticsQueries.sources(args),
      analyticsQueries.summary(previousArgs),
      analyticsQueries.daily(previousArgs),
    ],
  })
  const [summary, daily, topPages, sources] = queries
  const previous = queries[4].data
  const previousDaily = queries[5].data
  const failed = queries.find((query) => query.isError)
  const empty = summary.isSuccess && summary.data.page_views === 0
  const trend = previous && summary.data

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <Label htmlFor="analytics-period">Period</Label>
        <Select
          id="analytics-period"
          className="w-44"
          value={String(period)}
          onChange={(event) => {
            const next = AnalyticsSearchParamsSchema.parse({ period: event.target.value }).period
            void navigate({ search: (prev) => ({ ...prev, period: next }), replace: true })
          }}
        >
          <option value="7">Last 7 days</option>
          <option value="30">Last 30 days</option>
          <option value="90">Last 90 days</option>
        </Select>
        <p className="text-xs text-slate-500">
          Days are UTC days, today included; trends compare with the {period} days before.
        </p>
      </div>

      <AnalyticsFilterBar
        search={search}
        pages={topPages.data?.map((page) => page.path) ?? []}
        sources={sources.data?.map((source) => source.source) ?? []}
      />

      {failed && (
        <Alert className="flex flex-wrap items-center justify-between gap-2">
          <span>Could not load traffic figures: {failed.error?.message}</span>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              for (const query of queries) if (query.isError) void query.refetch()
            }}
          >
            Retry
          </Button>
        </Alert>
      )}

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <AnalyticsStatCard
          title="Visitors"
          value={summary.data && formatCount(summary.data.visitors)}
          description="Unique per day, no cookies"
          trend={trend ? countTrend(summary.data!.visitors, previous.visitors, period) : undefined}
        />
        <AnalyticsStatCard
          title="Page Views"
          value={summary.data && formatCount(summary.data.page_views)}
          trend={trend ? countTrend(summary.data!.page_views, previous.page_views, period) : undefined}
        />
        <AnalyticsStatCard
          title="Report Requests"
          value={summary.data && formatCount(summary.data.report_requests)}
          description="Agent reports requested"
          trend={trend ? countTrend(summary.data!.report_requests, previous.report_requests, period) : undefined}
        />
        <AnalyticsStatCard
          title="Conversion Rate"
          value={summary.data && formatRate(summary.data.conversion_rate)}
          description="Report requests / visitors"
          trend={trend ? rateTrend(summary.data!.conversion_rate, previous.conversion_rate, period) : undefined}
        />
      </div>

      {empty ? (
        <Card className="py-12 text-center">
          <p className="font-medium text-slate-900">No page views in this period yet</p>
          <CardDescription>Views appear here as soon as visitors open the public site.</CardDescription>
        </Card>
      ) : (
        <>
          <Card>
            <h2 className="text-lg font-semibold">Page views per day</h2>
            <div className="mt-4">
              <Suspense fallback={<Skeleton className="h-72 w-full" />}>
                {daily.data ? (
                  <AnalyticsDailyChart days={daily.data} previous={previousDaily} />
                ) : (
                  <Skeleton className="h-72 w-full" />
                )}
              </Suspense>
            </div>
          </Card>
          <div className="grid gap-6 lg:grid-cols-2">
            <Card>
              <h2 className="text-lg font-semibold">Top pages</h2>
              <div className="mt-4">
                {topPages.data ? <AnalyticsTopPages pages={topPages.data} /> : <LoadingRows />}
              </div>
            </Card>
            <Card>
              <h2 className="text-lg font-semibold">Traffic sources</h2>
              <div className="mt-4">
                <Suspense fallback={<LoadingRows />}>
                  {sources.data ? <AnalyticsSources sources={sources.data} /> : <LoadingRows />}
                </Suspense>
              </div>
            </Card>
          </div>
        </>
      )}
    </div>
  )
}

function LoadingRows() {
  return (
    <div className="space-y-2" aria-busy="true">
      {Array.from({ length: 5 }, (_, index) => (
        <Skeleton key={index} className="h-5 w-full" />
      ))}
    </div>
  )
}
