/** Query keys of the dashboard; invalidate through these, never through hand-typed arrays. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  /** The figures of the last `days` UTC days (public.dashboard_overview). */
  overview: (days: number) => [...dashboardKeys.all, 'overview', days] as const,
  activity: () => [...dashboardKeys.all, 'activity'] as const,
}
