import { useMutation, useQueryClient } from '@tanstack/react-query'

import type { Database } from '@shared/database.types.ts'
import { dataOrThrow, supabase } from '@/lib/supabase'
import { leadKeys } from './crm-keys'
import { LEAD_COLUMNS, leadQueries } from './crm-queries'
import type { Lead, LeadStatus } from './crm-schemas'
import { FollowUpSchema, LeadNoteBodySchema, LeadStatusSchema } from './crm-schemas'

type LeadUpdate = Database['public']['Tables']['report_requests']['Update']

/**
 * Updates one lead and returns the stored row (contacted_at and updated_at as the triggers set them). An update
 * RLS hides matches no row without an error, so "no row came back" is an error, not a silent success.
 */
async function updateLead(id: string, values: LeadUpdate): Promise<Lead> {
  const data = await dataOrThrow(
    supabase.from('report_requests').update(values).eq('id', id).select(LEAD_COLUMNS).maybeSingle(),
  )
  if (!data) throw new Error('The lead no longer exists or you may not change it.')
  return data
}

/**
 * After a successful write only: puts the stored row into the cached list (so the table and dialog change when the
 * database did), then refetches in the background.
 */
function useApplyStoredLead() {
  const queryClient = useQueryClient()
  return {
    onSuccess: (stored: Lead) => {
      queryClient.setQueryData(leadQueries.list().queryKey, (leads) =>
        leads?.map((lead) => (lead.id === stored.id ? stored : lead)),
      )
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: leadKeys.lists() }),
  }
}

/** Moves a lead to another status; the first move out of pending stamps contacted_at (database trigger). */
export function useUpdateLeadStatusMutation() {
  return useMutation({
    mutationFn: async ({ id, status }: { id: string; status: LeadStatus }) =>
      updateLead(id, { status: LeadStatusSchema.parse(status) }),
    ...useApplyStoredLead(),
  })
}

/** Assigns the lead to an administrator (user id) or, with null, to nobody. */
export function useAssignLeadMutation() {
  return useMutation({
    mutationFn: async ({ id, ownerId }: { id: string; ownerId: string | null }) =>
      updateLead(id, { owner_id: ownerId }),
    ...useApplyStoredLead(),
  })
}

/** Sets the next follow-up day ('yyyy-MM-dd', or '' to clear it). @throws naming the field when it is not a date. */
export function useSetFollowUpMutation() {
  return useMutation({
    mutationFn: async ({ id, followUpOn }: { id: string; followUpOn: string }) => {
      const parsed = FollowUpSchema.safeParse(followUpOn)
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Follow-up must be a date.')
      return updateLead(id, { follow_up_on: parsed.data })
    },
    ...useApplyStoredLead(),
  })
}

/** Adds a timestamped note by the signed-in administrator to a lead's history. */
export function useAddLeadNoteMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ leadId, body }: { leadId: string; body: string }) => {
      const parsed = LeadNoteBodySchema.safeParse(body)
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'The note is invalid.')
      const { session } = await dataOrThrow(supabase.auth.getSession())
      return dataOrThrow(
        supabase
          .from('lead_notes')
          .insert({ report_request_id: leadId, body: parsed.data, author_id: session?.user.id ?? null })
          .select('id')
          .single(),
      )
    },
    onSettled: (_data, _error, { leadId }) => queryClient.invalidateQueries({ queryKey: leadKeys.notes(leadId) }),
  })
}

/**
 * Merges duplicate requests (same email) into `keepId` through public.merge_leads: their notes move over, a note
 * records each, and they move to the trash. Resolves to how many were merged.
 */
export function useMergeLeadsMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ keepId, mergeIds }: { keepId: string; mergeIds: string[] }) =>
      dataOrThrow(supabase.rpc('merge_leads', { keep_id: keepId, merge_ids: mergeIds })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: leadKeys.all }),
  })
}

/** Moves one lead to the trash (public.delete_lead); Deleted leads on the CRM page restores it. */
export function useDeleteLeadMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => dataOrThrow(supabase.rpc('delete_lead', { lead_id: id })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: leadKeys.all }),
  })
}

/** Moves many leads to one status in a single request; resolves to how many rows changed. */
export function useBulkLeadStatusMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ ids, status }: { ids: string[]; status: LeadStatus }) => {
      if (ids.length === 0) throw new Error('Select at least one lead.')
      const rows = await dataOrThrow(
        supabase
          .from('report_requests')
          .update({ status: LeadStatusSchema.parse(status) })
          .in('id', ids)
          .select('id'),
      )
      return rows.length
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: leadKeys.lists() }),
  })
}
