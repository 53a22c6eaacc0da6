import { useQueries } from '@tanstack/react-query'
import { useMemo } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardDescription } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { countTrend, formatCount, formatRate } from '../api/analytics-format'
import { filtersOf, periodRange, previousRange, type AnalyticsSearchParams } from '../api/analytics-period'
import type { AnalyticsGoal } from '../api/analytics-queries'
import { analyticsQueries } from '../api/analytics-queries'

/** How each goal reads on the tab, and what completes it. */
const GOAL_TEXT: Record<AnalyticsGoal['goal'], { name: string; description: string }> = {
  report_request: { name: 'Report request', description: 'A visitor asked for an agent report (a new lead).' },
  newsletter_confirm: {
    name: 'Newsletter confirm',
    description: 'A subscriber confirmed the newsletter (double opt-in).',
  },
}

/**
 * The Conversions tab: each goal's completions and conversion rate (completions / visitors) over the Traffic tab's
 * period and filters (`?period=&page=&source=&exclude=`), with the change against the previous period of the same
 * length (analytics_goals). A goal that its rows cannot attribute to the filters shows 'Not attributable'.
 */
export function AnalyticsConversionsTab({ search }: { search: AnalyticsSearchParams }) {
  const { period } = search
  const args = useMemo(() => ({ ...periodRange(period), ...filtersOf(search) }), [period, search])
  const [current, previous] = useQueries({
    queries: [analyticsQueries.goals(args), analyticsQueries.goals({ ...args, ...previousRange(args) })],
  })
  const previousByGoal = new Map(previous.data?.map((goal) => [goal.goal, goal]))

  if (current.isError) {
    return (
      <Alert className="flex flex-wrap items-center justify-between gap-2">
        <span>Could not load the goals: {current.error.message}</span>
        <Button variant="outline" size="sm" onClick={() => void current.refetch()}>
          Retry
        </Button>
      </Alert>
    )
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        Last {period} days{search.page || search.source || search.exclude ? ', with the Traffic tab’s filters' : ''};
        trends compare with the {period} days before.
      </p>
      {current.data && current.data.every((goal) => !goal.completions) ? (
        <Card className="py-10 text-center">
          <p className="font-medium text-slate-900">No conversions in this period yet</p>
          <CardDescription>
            Report requests and newsletter confirmations appear here as visitors complete them.
          </CardDescription>
        </Card>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        {(current.data ?? [undefined, undefined]).map((goal, index) => {
          const key = goal?.goal ?? String(index)
          const before = goal ? previousByGoal.get(goal.goal) : undefined
          return (
            <Card
              key={key}
              aria-label={goal ? GOAL_TEXT[goal.goal].name : 'Loading goal'}
              aria-busy={!goal}
              className="p-5"
            >
              {goal ? (
                <>
                  <h2 className="text-base font-semibold text-slate-900">{GOAL_TEXT[goal.goal].name}</h2>
                  <p className="text-xs text-slate-500">{GOAL_TEXT[goal.goal].description}</p>
                  {goal.completions === null ? (
                    <p data-testid="goal-completions" className="mt-3 text-sm text-slate-600">
                      Not attributable: subscriptions store no page or source. Clear the page and source filters to see
                      it.
                    </p>
                  ) : (
                    <>
                      <dl className="mt-3 grid grid-cols-2 gap-2">
                        <div>
                          <dt className="text-xs text-slate-500">Completions</dt>
                          <dd data-testid="goal-completions" className="text-2xl font-bold tabular-nums">
                            {formatCount(goal.completions)}
                          </dd>
                        </div>
                        <div>
                          <dt className="text-xs text-slate-500">Conversion rate</dt>
                          <dd data-testid="goal-rate" className="text-2xl font-bold tabular-nums">
                            {formatRate(goal.conversion_rate)}
                          </dd>
                        </div>
                      </dl>
                      {before && before.completions !== null && (
                        <p className="mt-2 text-xs text-slate-600" data-testid="goal-trend">
                          {countTrend(goal.completions, before.completions, period).text} (
                          {formatCount(before.completions)})
                        </p>
                      )}
                    </>
                  )}
                </>
              ) : (
                <Skeleton className="h-24 w-full" />
              )}
            </Card>
          )
        })}
      </div>
    </div>
  )
}
