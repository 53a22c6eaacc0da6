import { z } from 'zod'

const Count = z.number().int().nonnegative()
const Pair = z.object({ current: Count, previous: Count })

/** The JSON object public.dashboard_overview() returns (see its migration); checked before the cards trust it. */
export const DashboardOverviewSchema = z.object({
  period_days: z.number().int(),
  published_posts: Count,
  scheduled_posts: Count,
  draft_posts: Count,
  pending_leads: Count,
  posts_published: Pair,
  posts_created: Pair,
  leads: Pair,
  page_views: Pair,
  /** Median minutes from request to first contact over the period's contacted leads; null when none. */
  median_minutes_to_contact: z.number().nonnegative().nullable(),
  contacted_leads: Count,
  pending_leads_over_a_day: Count,
  overdue_follow_ups: Count,
  failed_builds: Count,
  failed_jobs: Count,
  scheduled_today: Count,
})
export type DashboardOverview = z.infer<typeof DashboardOverviewSchema>

/**
 * '+3 vs previous 30 days' / '−2 …' / 'same as previous …', and the direction for colouring.
 * @param days length of each period, in days.
 */
export function describeTrend(
  { current, previous }: { current: number; previous: number },
  days: number,
): { text: string; direction: 'up' | 'down' | 'flat' } {
  const delta = current - previous
  if (delta === 0) return { text: `same as previous ${days} days`, direction: 'flat' }
  const sign = delta > 0 ? '+' : '−'
  return {
    text: `${sign}${Math.abs(delta).toLocaleString('en-US')} vs previous ${days} days`,
    direction: delta > 0 ? 'up' : 'down',
  }
}

/** Minutes as '45 min', '3.5 h' or '2.1 days'. */
export function formatMinutes(minutes: number): string {
  if (minutes < 60) return `${Math.round(minutes)} min`
  if (minutes < 48 * 60) return `${(minutes / 60).toFixed(1)} h`
  return `${(minutes / 1440).toFixed(1)} days`
}
