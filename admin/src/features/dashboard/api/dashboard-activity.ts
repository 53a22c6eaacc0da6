/** Kinds of event the Recent Activity list shows. */
export type ActivityKind = 'post_created' | 'post_published' | 'lead_received' | 'job_completed' | 'job_failed'

export type ActivityItem = {
  /** Unique across kinds: `<kind>:<row id>`. */
  key: string
  kind: ActivityKind
  /** One line describing the event, e.g. 'New report request from Ana Díaz'. */
  text: string
  /** When it happened, ISO timestamp. */
  at: string
  /** Admin screen where the event's row is worked. */
  href: string
}

/** The rows the activity sources return (newest first, each already limited). */
export type ActivitySources = {
  createdPosts: { id: string; title: string; created_at: string }[]
  publishedPosts: { id: string; title: string; published_at: string | null }[]
  leads: { id: string; full_name: string; agent_name: string | null; created_at: string }[]
  finishedJobs: {
    id: string
    status: string
    completed_at: string | null
    custom_topic: string | null
    blog_posts: { title: string } | null
    trending_topics: { topic: string } | null
  }[]
}

/**
 * Merges the four event sources into one list, newest first (ties keep source order), cut to `limit` items.
 * Rows without their timestamp (a published post without published_at cannot exist, a finished job without
 * completed_at can) are skipped.
 */
export function buildRecentActivity(sources: ActivitySources, limit = 10): ActivityItem[] {
  const items: ActivityItem[] = [
    ...sources.createdPosts.map((post) => ({
      key: `post_created:${post.id}`,
      kind: 'post_created' as const,
      text: `Post created: "${post.title}"`,
      at: post.created_at,
      href: `/admin/blog?edit=${post.id}`,
    })),
    ...sources.publishedPosts.flatMap((post) =>
      post.published_at
        ? [
            {
              key: `post_published:${post.id}`,
              kind: 'post_published' as const,
              text: `Post published: "${post.title}"`,
              at: post.published_at,
              href: `/admin/blog?edit=${post.id}`,
            },
          ]
        : [],
    ),
    ...sources.leads.map((lead) => ({
      key: `lead_received:${lead.id}`,
      kind: 'lead_received' as const,
      text: `New report request from ${lead.full_name}${lead.agent_name ? ` about ${lead.agent_name}` : ''}`,
      at: lead.created_at,
      href: '/admin/crm',
    })),
    ...sources.finishedJobs.flatMap((job) => {
      if (!job.completed_at) return []
      const topic = job.blog_posts?.title ?? job.trending_topics?.topic ?? job.custom_topic ?? 'untitled topic'
      const failed = job.status === 'failed'
      return [
        {
          key: `${failed ? 'job_failed' : 'job_completed'}:${job.id}`,
          kind: failed ? ('job_failed' as const) : ('job_completed' as const),
          text: failed ? `Article generation failed: "${topic}"` : `Article generated: "${topic}"`,
          at: job.completed_at,
          href: '/admin/blog',
        },
      ]
    }),
  ]
  return items
    .map((item, index) => ({ item, index, time: Date.parse(item.at) }))
    .sort((a, b) => b.time - a.time || a.index - b.index)
    .slice(0, limit)
    .map(({ item }) => item)
}
