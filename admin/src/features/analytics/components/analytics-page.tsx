import { getRouteApi } from '@tanstack/react-router'
import { useEffect } from 'react'

import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { excludeThisBrowserFromAnalytics } from '../api/analytics-exclusion'
import { ANALYTICS_TABS } from '../api/analytics-period'
import { AnalyticsConversionsTab } from './analytics-conversions-tab'
import { AnalyticsTrafficTab } from './analytics-traffic-tab'

/** /admin/analytics: Traffic (first-party page views and leads) and Conversions (goals), with Content and Users to come. */
const route = getRouteApi('/_shell/analytics')

export function AnalyticsPage() {
  const search = route.useSearch()
  const { tab } = search
  const navigate = route.useNavigate()

  useEffect(excludeThisBrowserFromAnalytics, [])

  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">Analytics</h1>
      <p className="mt-1 text-sm text-slate-500">
        Cookie-free, first-party traffic of the public site and the leads it brings.
      </p>
      <Tabs
        value={tab}
        onValueChange={(value) => {
          const next = ANALYTICS_TABS.find((item) => item === value) ?? 'traffic'
          void navigate({ search: (prev) => ({ ...prev, tab: next }), replace: true })
        }}
        className="mt-6"
      >
        <TabsList>
          <TabsTrigger value="traffic">Traffic</TabsTrigger>
          <TabsTrigger value="content">Content</TabsTrigger>
          <TabsTrigger value="users">Users</TabsTrigger>
          <TabsTrigger value="conversions">Conversions</TabsTrigger>
        </TabsList>
        <TabsContent value="traffic">
          <AnalyticsTrafficTab search={search} />
        </TabsContent>
        <TabsContent value="conversions">
          <AnalyticsConversionsTab search={search} />
        </TabsContent>
        {(['content', 'users'] as const).map((tab) => (
          <TabsContent key={tab} value={tab}>
            <p className="text-slate-600">Coming soon...</p>
          </TabsContent>
        ))}
      </Tabs>
    </section>
  )
}
