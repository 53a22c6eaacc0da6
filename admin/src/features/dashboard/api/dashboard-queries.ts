import { queryOptions } from '@tanstack/react-query'

import { supabase } from '@/lib/supabase'
import { periodRange } from '@/features/analytics/api/analytics-period'
import { fetchAnalyticsSummary } from '@/features/analytics/api/analytics-queries'
import { buildRecentActivity } from './dashboard-activity'
import { dashboardKeys } from './dashboard-keys'

/** Items in the Recent Activity list. */
export const ACTIVITY_LIMIT = 10

/** Length of the page-view period on the dashboard, in whole UTC days (today included). */
export const PAGE_VIEW_DAYS = 30

/** Rows matched by a filtered head request: the exact count, without fetching any row. */
async function count(query: PromiseLike<{ count: number | null; error: Error | null }>): Promise<number> {
  const { count: total, error } = await query
  if (error) throw error
  if (total === null) throw new Error('The API did not return a row count')
  return total
}

export type DashboardStats = {
  /** Published posts whose published_at has passed (live on the site). */
  publishedPosts: number
  /** Published posts with a future published_at. */
  scheduledPosts: number
  draftPosts: number
  /** report_requests with status 'pending'. */
  leadsAwaitingContact: number
  /** Page views in the last PAGE_VIEW_DAYS UTC days. */
  pageViews: number
}

export const dashboardQueries = {
  /** The four stat cards' figures, read in parallel; throws the first error. */
  stats: () =>
    queryOptions({
      queryKey: dashboardKeys.stats(),
      queryFn: async ({ signal }): Promise<DashboardStats> => {
        const now = new Date().toISOString()
        const posts = () => supabase.from('blog_posts').select('id', { count: 'exact', head: true }).abortSignal(signal)
        const [publishedPosts, scheduledPosts, draftPosts, leadsAwaitingContact, summary] = await Promise.all([
          count(posts().eq('status', 'published').lte('published_at', now)),
          count(posts().eq('status', 'published').gt('published_at', now)),
          count(posts().eq('status', 'draft')),
          count(supabase.from('report_requests').select('id', { count: 'exact', head: true }).eq('status', 'pending').abortSignal(signal)),
          fetchAnalyticsSummary(periodRange(PAGE_VIEW_DAYS), signal),
        ])
        return { publishedPosts, scheduledPosts, draftPosts, leadsAwaitingContact, pageViews: summary.page_views }
      },
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
          supabase.from('blog_posts').select('id, title, created_at').order('created_at', { ascending: false }).limit(ACTIVITY_LIMIT).abortSignal(signal),
          supabase
            .from('blog_posts')
            .select('id, title, published_at')
            .eq('status', 'published')
            .lte('published_at', now)
            .order('published_at', { ascending: false })
            .limit(ACTIVITY_LIMIT)
            .abortSignal(signal),
          supabase
            .from('report_requests')
            .select('id, full_name, agent_name, created_at')
            .order('created_at', { ascending: false })
            .limit(ACTIVITY_LIMIT)
            .abortSignal(signal),
          supabase
            .from('content_generation_jobs')
            .select('id, status, completed_at, custom_topic, blog_posts(title), trending_topics(topic)')
            .in('status', ['completed', 'failed'])
            .not('completed_at', 'is', null)
            .order('completed_at', { ascending: false })
            .limit(ACTIVITY_LIMIT)
            .abortSignal(signal),
        ])
        for (const result of [createdPosts, publishedPosts, leads, finishedJobs]) if (result.error) throw result.error
        return buildRecentActivity(
          {
            createdPosts: createdPosts.data ?? [],
            publishedPosts: publishedPosts.data ?? [],
            leads: leads.data ?? [],
            finishedJobs: finishedJobs.data ?? [],
          },
          ACTIVITY_LIMIT,
        )
      },
    }),
}
