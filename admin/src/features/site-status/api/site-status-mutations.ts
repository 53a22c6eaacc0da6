import { useMutation, useQueryClient } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { expectSiteBuild, watchLivePost } from './live-post-watch'
import { newestStartedBuildId, type SiteBuildRow } from './site-status'
import { siteStatusKeys } from './site-status-keys'

/**
 * After a save that changes the public site: remember the newest build known now to have started (the build that
 * carries the change comes after it), start the fast poll of site_builds, and, for a post that just went live, its "View live post" notice.
 */
export function useAfterPublicChange() {
  const queryClient = useQueryClient()
  return (post?: { id: string; slug: string; title: string }) => {
    const afterId = newestStartedBuildId(queryClient.getQueryData<SiteBuildRow[]>(siteStatusKeys.recentBuilds()))
    if (post) watchLivePost({ ...post, afterBuildId: afterId })
    else expectSiteBuild(afterId)
    void queryClient.invalidateQueries({ queryKey: siteStatusKeys.all })
  }
}

/** Rebuild now: asks for a rebuild through public.request_site_rebuild() (admins only). */
export function useRebuildSiteMutation() {
  const afterPublicChange = useAfterPublicChange()
  return useMutation({
    mutationFn: () => dataOrThrow(supabase.rpc('request_site_rebuild')),
    onSuccess: () => afterPublicChange(),
  })
}
