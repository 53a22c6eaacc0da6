import { queryOptions } from '@tanstack/react-query'

import { supabase } from '@/lib/supabase'
import { siteStatusKeys } from './site-status-keys'
import { deriveSiteStatus } from './site-status'

/** How many recent builds the top bar reads: enough to find a running build behind a few queued requests. */
const RECENT_BUILDS = 10

export const siteStatusQueries = {
  /** The site status derived from the newest site_builds rows (admins only, by RLS). Throws when the read fails. */
  current: () =>
    queryOptions({
      queryKey: siteStatusKeys.recentBuilds(),
      queryFn: async ({ signal }) => {
        const { data, error } = await supabase
          .from('site_builds')
          .select('id, status, trigger_reason, requested_at, started_at, finished_at, log_tail')
          .order('id', { ascending: false })
          .limit(RECENT_BUILDS)
          .abortSignal(signal)
        if (error) throw error
        return deriveSiteStatus(data)
      },
    }),
}
