import { queryOptions } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { buildRecentActivity } from './dashboard-activity'
import { dashboardKeys } from './dashboard-keys'
import { type DashboardOverview, DashboardOverviewSchema } from './dashboard-schemas'

/** Items in the Recent Activity list. */
export const ACTIVITY_LIMIT = 10

/** Length of the page-view period on the dashboard, in whole UTC days (today included). */
export const PAGE_VIEW_DAYS = 30

export const dashboardQueries = {
  /**
   * Every figure of the cards and the needs-attention block in ONE request (public.dashboard_overview), so a
   * re-render never cancels and resends a batch of counts. The request is not tied to the component's lifetime
   * (no abort signal): a quick unmount and remount reuses the answer in flight.
   */
  overview: () =>
    queryOptions({
      queryKey: dashboardKeys.overview(PAGE_VIEW_DAYS),
      queryFn: async (): Promise<DashboardOverview> =>
        DashboardOverviewSchema.parse(
          await dataOrThrow(supabase.rpc('dashboard_overview', { period_days: PAGE_VIEW_DAYS })),
        ),
    }),

  /**
   * The newest ACTIVITY_LIMIT events: posts created, posts published (published_at passed), leads received and
   * generation jobs finished (completed or failed), merged newest first.
   */
  activity: () =>
    queryOptions({
      queryKey: dashboardKeys.activity(),
      queryFn: async ({ signal }) => {
        const now = new Date().toISOString()
        const [createdPosts, publishedPosts, leads, finishedJobs] = await Promise.all([
          dataOrThrow(
            supabase
              .from('blog_posts')
              .select('id, title, created_at')
              .order('created_at', { ascending: false })
              .limit(ACTIVITY_LIMIT)
              .abortSignal(signal),
          ),
          dataOrThrow(
            supabase
              .from('blog_posts')
              .select('id, title, published_at')
              .eq('status', 'published')
              .lte('published_at', now)
              .order('published_at', { ascending: false })
              .limit(ACTIVITY_LIMIT)
              .abortSignal(signal),
          ),
          dataOrThrow(
            supabase
              .from('report_requests')
              .select('id, full_name, agent_name, created_at')
              .order('created_at', { ascending: false })
              .limit(ACTIVITY_LIMIT)
              .abortSignal(signal),
          ),
          dataOrThrow(
            supabase
              .from('content_generation_jobs')
              .select('id, status, completed_at, custom_topic, blog_posts(title), trending_topics(topic)')
              .in('status', ['completed', 'failed'])
              .not('completed_at', 'is', null)
              .order('completed_at', { ascending: false })
              .limit(ACTIVITY_LIMIT)
              .abortSignal(signal),
          ),
        ])
        return buildRecentActivity({ createdPosts, publishedPosts, leads, finishedJobs }, ACTIVITY_LIMIT)
      },
    }),
}
