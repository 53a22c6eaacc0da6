import { queryOptions } from '@tanstack/react-query'

import { supabase } from '@/lib/supabase'
import { siteStatusKeys } from './site-status-keys'

/** How many recent builds the top bar reads: enough to find a running build behind a few queued requests. */
const RECENT_BUILDS = 10

const BUILD_COLUMNS = 'id, status, trigger_reason, requested_at, started_at, finished_at, log_tail'

export const siteStatusQueries = {
  /** The newest site_builds rows (admins only, by RLS), newest first. Throws when the read fails. */
  recentBuilds: () =>
    queryOptions({
      queryKey: siteStatusKeys.recentBuilds(),
      queryFn: async ({ signal }) => {
        const { data, error } = await supabase.from('site_builds').select(BUILD_COLUMNS).order('id', { ascending: false }).limit(RECENT_BUILDS).abortSignal(signal)
        if (error) throw error
        return data
      },
    }),

  /** The Builds page: the newest `limit` builds, newest first. */
  history: (limit: number) =>
    queryOptions({
      queryKey: siteStatusKeys.history(limit),
      queryFn: async ({ signal }) => {
        const { data, error } = await supabase.from('site_builds').select(BUILD_COLUMNS).order('id', { ascending: false }).limit(limit).abortSignal(signal)
        if (error) throw error
        return data
      },
    }),
}
