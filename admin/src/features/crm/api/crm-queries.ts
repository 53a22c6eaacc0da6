import { queryOptions } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { adminKeys, leadKeys } from './crm-keys'
import type { Lead } from './crm-schemas'

/** The columns the CRM shows, exports and edits. */
export const LEAD_COLUMNS =
  'id, lead_type, full_name, email, phone, property_address, message, agent_id, agent_name, agent_location, status, notes, created_at, updated_at, contacted_at, report_sent_at, report_error, email_confirmed_at, email_confirmed_via, owner_id, follow_up_on, source_page, utm_source, utm_medium, utm_campaign, utm_term, utm_content'

/** PostgREST returns at most `max_rows` (1000, supabase/config.toml) rows per request; we page in that size. */
const PAGE_SIZE = 1000

export const leadQueries = {
  /**
   * Every lead (RLS shows them to admins only), newest first. Counters, "Returning" and the CSV need the whole set,
   * so filtering happens on the client; pages of 1000 are fetched until a short page.
   */
  list: () =>
    queryOptions({
      queryKey: leadKeys.list(),
      queryFn: async ({ signal }): Promise<Lead[]> => {
        const leads: Lead[] = []
        for (let from = 0; ; from += PAGE_SIZE) {
          const data = await dataOrThrow(
            supabase
              .from('report_requests')
              .select(LEAD_COLUMNS)
              .order('created_at', { ascending: false })
              .order('id', { ascending: true })
              .range(from, from + PAGE_SIZE - 1)
              .abortSignal(signal),
          )
          leads.push(...data)
          if (data.length < PAGE_SIZE) return leads
        }
      },
    }),
}

export const leadNoteQueries = {
  /** The notes history of one lead, oldest first, with each author's id. */
  list: (leadId: string) =>
    queryOptions({
      queryKey: leadKeys.notes(leadId),
      queryFn: ({ signal }) =>
        dataOrThrow(
          supabase
            .from('lead_notes')
            .select('id, body, author_id, created_at')
            .eq('report_request_id', leadId)
            .order('created_at', { ascending: true })
            .order('id', { ascending: true })
            .abortSignal(signal),
        ),
    }),
}

export type LeadNote = Awaited<ReturnType<NonNullable<ReturnType<typeof leadNoteQueries.list>['queryFn']>>>[number]

export const adminQueries = {
  /** Every administrator (id, email), for the owner picker; public.list_admins() is admins-only. */
  list: () =>
    queryOptions({
      queryKey: adminKeys.list(),
      queryFn: ({ signal }) => dataOrThrow(supabase.rpc('list_admins').abortSignal(signal)),
      staleTime: 5 * 60_000,
    }),
}
