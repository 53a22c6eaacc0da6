/** Query keys of the public site's build status; invalidate through these, never through hand-typed arrays. */
export const siteStatusKeys = {
  all: ['site-status'] as const,
  /** The newest rows of public.site_builds. */
  recentBuilds: () => [...siteStatusKeys.all, 'recent-builds'] as const,
  /** Whether a just-published post's public URL answers yet. */
  livePost: (slug: string, publishedAt: number) => [...siteStatusKeys.all, 'live-post', slug, publishedAt] as const,
}
