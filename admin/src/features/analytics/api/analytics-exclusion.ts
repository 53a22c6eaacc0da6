/**
 * The localStorage flag the public site's beacon (src/components/AnalyticsBeacon.astro) checks: when it is '1',
 * this browser sends no page views. Site and admin share one origin, so the admin app can set it.
 */
export const EXCLUDE_ANALYTICS_KEY = 'ai_exclude_analytics'

/**
 * Marks this browser as an operator's, so their own visits to the public site are not counted. Called when an
 * administrator opens the dashboard (where sign-in lands) or the analytics page. Storage errors (private mode,
 * storage disabled) are ignored: the worst case is an operator's visit being counted.
 */
export function excludeThisBrowserFromAnalytics(): void {
  try {
    window.localStorage.setItem(EXCLUDE_ANALYTICS_KEY, '1')
  } catch {
    // storage unavailable: nothing to remember, nothing to break
  }
}
