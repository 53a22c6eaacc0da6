/** Query keys of the public site's build status; invalidate through these, never through hand-typed arrays. */
export const siteStatusKeys = {
  all: ['site-status'] as const,
  /** The newest rows of public.site_builds (the top bar). */
  recentBuilds: () => [...siteStatusKeys.all, 'recent-builds'] as const,
  /** The Builds page's history. */
  history: (limit: number) => [...siteStatusKeys.all, 'history', limit] as const,
}
