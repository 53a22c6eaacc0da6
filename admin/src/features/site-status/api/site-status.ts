import type { Database } from '@shared/database.types.ts'

export type SiteBuildRow = Pick<
  Database['public']['Tables']['site_builds']['Row'],
  'id' | 'status' | 'trigger_reason' | 'requested_at' | 'started_at' | 'finished_at' | 'log_tail'
>

/**
 * What the top bar says about the public site:
 * - `live`: the last build succeeded (or none was ever recorded);
 * - `rebuilding`: the local builder has a build running or queued, or this browser just made a change that asks
 *   for one and its row has not appeared yet; `since` is when it started (or was asked for);
 * - `requested`: production, a static host's build hook was called at `requestedAt`; the host reports nothing
 *   back, so this is all we honestly know;
 * - `failed`: the newest finished build failed; the last good site is still being served.
 * Timestamps are ISO 8601 strings.
 */
export type SiteStatus =
  | { kind: 'live' }
  | { kind: 'rebuilding'; since: string }
  | { kind: 'requested'; requestedAt: string }
  | { kind: 'failed'; build: SiteBuildRow }

/** A change made from this browser that will make the builder record a new site_builds row. */
export type BuildExpectation = {
  /** The newest site_builds id known when the change was saved (0 when none); the build asked for comes after it. */
  afterId: number
  /** When the change was saved, ms since the epoch (browser clock). */
  at: number
}

/** How long a saved change counts as 'rebuilding' while no new site_builds row has appeared (no hook configured). */
export const EXPECTATION_TIMEOUT_MS = 30_000

/**
 * Derives the site status from the newest site_builds rows (any order) and, optionally, a change this browser just
 * saved. A running or queued build wins; then a saved change whose build row has not appeared yet (the webhook
 * takes a moment), so the pill never says Live right after Publish; otherwise the newest row decides.
 */
export function deriveSiteStatus(
  rows: readonly SiteBuildRow[],
  expectation: BuildExpectation | null = null,
  now: number = Date.now(),
): SiteStatus {
  const newestFirst = [...rows].sort((a, b) => b.id - a.id)
  const building = newestFirst.find((row) => row.status === 'building')
  if (building) return { kind: 'rebuilding', since: building.started_at ?? building.requested_at }
  const queued = newestFirst.filter((row) => row.status === 'queued').at(-1)
  if (queued) return { kind: 'rebuilding', since: queued.requested_at }
  const newest = newestFirst[0]
  if (expectation && (newest?.id ?? 0) <= expectation.afterId && now - expectation.at < EXPECTATION_TIMEOUT_MS) {
    return { kind: 'rebuilding', since: new Date(expectation.at).toISOString() }
  }
  if (!newest || newest.status === 'succeeded') return { kind: 'live' }
  if (newest.status === 'requested') return { kind: 'requested', requestedAt: newest.requested_at }
  return { kind: 'failed', build: newest }
}

/**
 * The newest id among `rows` whose build has started (any status but `queued`), 0 when there is none: a change saved
 * now is in every build after it. A queued build has not read the database yet, and the builder adds a new request's
 * reason to a queued build instead of recording another, so that queued build carries the change.
 */
export function newestStartedBuildId(rows: readonly Pick<SiteBuildRow, 'id' | 'status'>[] | undefined): number {
  return (rows ?? []).reduce((max, row) => (row.status === 'queued' ? max : Math.max(max, row.id)), 0)
}

/**
 * Whether a post saved live after build `afterId` is on the site now: a build recorded after it succeeded and
 * nothing is pending. Read from site_builds only, never by requesting the public URL.
 */
export function isLiveAfter(rows: readonly SiteBuildRow[], afterId: number, status: SiteStatus): boolean {
  return status.kind === 'live' && rows.some((row) => row.id > afterId && row.status === 'succeeded')
}

/** Poll every second while a build runs or is expected (the admin waits for it), every 10 s otherwise. */
export function siteStatusPollMs(status: SiteStatus | undefined): number {
  return status?.kind === 'rebuilding' ? 1_000 : 10_000
}
