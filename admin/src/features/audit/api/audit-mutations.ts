import { useMutation, useQueryClient } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { postKeys } from '@/features/blog/api/blog-keys'
import { leadKeys } from '@/features/crm/api/crm-keys'
import { auditKeys, trashKeys } from './audit-keys'
import type { TrashKind } from './audit-schemas'

/** Brings a lead or a post back from the trash; the lists it returns to, the trash and the audit log refresh. */
export function useRestoreMutation(kind: TrashKind) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      dataOrThrow(
        kind === 'lead' ? supabase.rpc('restore_lead', { lead_id: id }) : supabase.rpc('restore_post', { post_id: id }),
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trashKeys.list(kind) }),
        queryClient.invalidateQueries({ queryKey: kind === 'lead' ? leadKeys.all : postKeys.all }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  })
}
