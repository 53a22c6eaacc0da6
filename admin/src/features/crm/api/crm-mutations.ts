import { useMutation, useQueryClient } from '@tanstack/react-query'

import type { Database } from '@shared/database.types.ts'
import { supabase } from '@/lib/supabase'
import { leadKeys } from './crm-keys'
import { LEAD_COLUMNS, leadQueries } from './crm-queries'
import type { Lead, LeadStatus } from './crm-schemas'
import { LeadNotesSchema, LeadStatusSchema } from './crm-schemas'

type LeadUpdate = Database['public']['Tables']['report_requests']['Update']

/**
 * Updates one lead and returns the stored row (contacted_at and updated_at as the triggers set them). An update
 * RLS hides matches no row without an error, so "no row came back" is an error, not a silent success.
 */
async function updateLead(id: string, values: LeadUpdate): Promise<Lead> {
  const { data, error } = await supabase.from('report_requests').update(values).eq('id', id).select(LEAD_COLUMNS).maybeSingle()
  if (error) throw new Error(error.message)
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
      queryClient.setQueryData(leadQueries.list().queryKey, (leads) => leads?.map((lead) => (lead.id === stored.id ? stored : lead)))
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: leadKeys.lists() }),
  }
}

/** Moves a lead to another status; the first move out of pending stamps contacted_at (database trigger). */
export function useUpdateLeadStatusMutation() {
  return useMutation({
    mutationFn: async ({ id, status }: { id: string; status: LeadStatus }) => updateLead(id, { status: LeadStatusSchema.parse(status) }),
    ...useApplyStoredLead(),
  })
}

/** Saves a lead's notes as typed ('' or whitespace clears them). @throws when over 10,000 characters. */
export function useUpdateLeadNotesMutation() {
  return useMutation({
    mutationFn: async ({ id, notes }: { id: string; notes: string }) => {
      const parsed = LeadNotesSchema.safeParse(notes)
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Notes are invalid.')
      return updateLead(id, { notes: parsed.data })
    },
    ...useApplyStoredLead(),
  })
}
