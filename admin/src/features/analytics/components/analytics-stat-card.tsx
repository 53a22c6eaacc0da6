import { useId } from 'react'

import { Card } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'

type AnalyticsStatCardProps = {
  title: string
  /** The figure, already formatted; undefined while loading. */
  value: string | undefined
  description?: string
  /** A comparison with the previous period, e.g. '+3 vs previous 30 days'. */
  trend?: { text: string; direction: 'up' | 'down' | 'flat' }
}

const TREND_STYLES = { up: 'text-green-700', down: 'text-red-700', flat: 'text-slate-500' } as const
const TREND_ARROWS = { up: '▲', down: '▼', flat: '•' } as const

/**
 * One figure in a card, a region named by its title (so tests and screen readers find "Page Views" and read its
 * value). Shared by the Analytics page and the dashboard.
 */
export function AnalyticsStatCard({ title, value, description, trend }: AnalyticsStatCardProps) {
  const titleId = useId()
  return (
    <Card aria-labelledby={titleId} aria-busy={value === undefined} className="p-5">
      <h2 id={titleId} className="text-sm font-medium text-slate-500">
        {title}
      </h2>
      {value === undefined ? (
        <Skeleton className="mt-2 h-8 w-24" />
      ) : (
        <p data-testid="stat-value" className="mt-1 text-3xl font-bold tracking-tight text-slate-900">
          {value}
        </p>
      )}
      {description && <p className="mt-1 text-xs text-slate-500">{description}</p>}
      {trend && value !== undefined && (
        <p data-testid="stat-trend" className={`mt-1 text-xs font-medium ${TREND_STYLES[trend.direction]}`}>
          <span aria-hidden="true">{TREND_ARROWS[trend.direction]} </span>
          {trend.text}
        </p>
      )}
    </Card>
  )
}
