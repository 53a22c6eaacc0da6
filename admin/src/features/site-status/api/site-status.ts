import type { Database } from '@shared/database.types.ts'

export type SiteBuildRow = Pick<
  Database['public']['Tables']['site_builds']['Row'],
  'id' | 'status' | 'trigger_reason' | 'requested_at' | 'started_at' | 'finished_at' | 'log_tail'
>

/**
 * What the top bar says about the public site:
 * - `live`: the last build succeeded (or none was ever recorded);
 * - `rebuilding`: the local builder has a build running or queued, `since` is when it started (or was queued);
 * - `requested`: production, a static host's build hook was called at `requestedAt`; the host reports nothing
 *   back, so this is all we honestly know;
 * - `failed`: the newest finished build failed; the last good site is still being served.
 * Timestamps are ISO 8601 strings from the database.
 */
export type SiteStatus =
  | { kind: 'live' }
  | { kind: 'rebuilding'; since: string }
  | { kind: 'requested'; requestedAt: string }
  | { kind: 'failed'; build: SiteBuildRow }

/**
 * Derives the site status from the newest site_builds rows (any order). A running or queued build wins; otherwise
 * the newest row decides.
 */
export function deriveSiteStatus(rows: readonly SiteBuildRow[]): SiteStatus {
  const newestFirst = [...rows].sort((a, b) => b.id - a.id)
  const building = newestFirst.find((row) => row.status === 'building')
  if (building) return { kind: 'rebuilding', since: building.started_at ?? building.requested_at }
  const queued = newestFirst.filter((row) => row.status === 'queued').at(-1)
  if (queued) return { kind: 'rebuilding', since: queued.requested_at }
  const newest = newestFirst[0]
  if (!newest || newest.status === 'succeeded') return { kind: 'live' }
  if (newest.status === 'requested') return { kind: 'requested', requestedAt: newest.requested_at }
  return { kind: 'failed', build: newest }
}

/** Poll every 2 s while a build runs (the admin waits for it), every 10 s otherwise (a publish elsewhere starts one). */
export function siteStatusPollMs(status: SiteStatus | undefined): number {
  return status?.kind === 'rebuilding' ? 2_000 : 10_000
}
