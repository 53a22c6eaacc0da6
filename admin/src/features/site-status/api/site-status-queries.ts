import { queryOptions } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { siteStatusKeys } from './site-status-keys'

/** How many recent builds the top bar reads: enough to find a running build behind a few queued requests. */
const RECENT_BUILDS = 10

const BUILD_COLUMNS = 'id, status, trigger_reason, requested_at, started_at, finished_at, log_tail'

/** The newest `limit` site_builds rows (admins only, by RLS), newest first. */
const newestBuilds =
  (limit: number) =>
  ({ signal }: { signal: AbortSignal }) =>
    dataOrThrow(
      supabase
        .from('site_builds')
        .select(BUILD_COLUMNS)
        .order('id', { ascending: false })
        .limit(limit)
        .abortSignal(signal),
    )

export const siteStatusQueries = {
  /** The newest site_builds rows (admins only, by RLS), newest first. Throws when the read fails. */
  recentBuilds: () =>
    queryOptions({
      queryKey: siteStatusKeys.recentBuilds(),
      queryFn: newestBuilds(RECENT_BUILDS),
    }),

  /** The Builds page: the newest `limit` builds, newest first. */
  history: (limit: number) =>
    queryOptions({
      queryKey: siteStatusKeys.history(limit),
      queryFn: newestBuilds(limit),
    }),
}
