const countFormat = new Intl.NumberFormat('en-US')
const percentFormat = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
})

/** 12345 → '12,345'. */
export function formatCount(value: number): string {
  return countFormat.format(value)
}

/** A FRACTION 0-1 as a percent with one decimal (2/3 → '66.7%'); null (no visitors) → '—'. */
export function formatRate(fraction: number | null): string {
  return fraction === null ? '—' : percentFormat.format(fraction)
}

/** A figure compared with the previous period, for a stat card's trend line. */
export interface PeriodTrend {
  text: string
  direction: 'up' | 'down' | 'flat'
}

/**
 * A count against the previous period of `days` days: the relative change in whole percent ('+25% vs previous 30
 * days'), 'New vs previous 30 days' when the previous count was 0, 'Same as previous 30 days' when equal.
 */
export function countTrend(current: number, previous: number, days: number): PeriodTrend {
  const span = `previous ${days} days`
  if (current === previous) return { text: `Same as ${span}`, direction: 'flat' }
  if (previous === 0) return { text: `New vs ${span} (0)`, direction: 'up' }
  const change = Math.round(((current - previous) / previous) * 100)
  return { text: `${change > 0 ? '+' : ''}${change}% vs ${span}`, direction: current > previous ? 'up' : 'down' }
}

/**
 * A rate (FRACTION 0-1, null without visitors) against the previous period, in percentage points with one decimal
 * ('+1.5 pts vs previous 7 days'); '—' comparisons (a side without visitors) say so.
 */
export function rateTrend(current: number | null, previous: number | null, days: number): PeriodTrend {
  const span = `previous ${days} days`
  if (current === null || previous === null)
    return { text: `No comparison: no visitors in one period`, direction: 'flat' }
  const points = Math.round((current - previous) * 1000) / 10
  if (points === 0) return { text: `Same as ${span}`, direction: 'flat' }
  return { text: `${points > 0 ? '+' : ''}${points.toFixed(1)} pts vs ${span}`, direction: points > 0 ? 'up' : 'down' }
}
