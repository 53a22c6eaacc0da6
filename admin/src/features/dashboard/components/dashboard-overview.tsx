import { useEffect } from 'react'

import { excludeThisBrowserFromAnalytics } from '@/features/analytics/api/analytics-exclusion'
import { DashboardNeedsAttention } from './dashboard-needs-attention'
import { DashboardRecentActivity } from './dashboard-recent-activity'
import { DashboardStatCards } from './dashboard-stat-cards'
import { DashboardToolCards } from './dashboard-tool-cards'

/**
 * /admin, where sign-in lands: four figures from the database, the admin tools, and the latest events. Opening it
 * also marks this browser as an operator's so the public site's beacon stops counting its visits.
 */
export function DashboardOverview() {
  useEffect(excludeThisBrowserFromAnalytics, [])

  return (
    <section className="space-y-8">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Dashboard</h1>
        <p className="mt-1 text-sm text-slate-500">Welcome back. Here is what is happening on AgentInsight.</p>
      </div>
      <DashboardStatCards />
      <DashboardNeedsAttention />
      <DashboardToolCards />
      <DashboardRecentActivity />
    </section>
  )
}
