import { queryOptions } from '@tanstack/react-query'

import { supabase } from '@/lib/supabase'
import { leadKeys } from './crm-keys'
import type { Lead } from './crm-schemas'

/** The columns the CRM shows, exports and edits. */
export const LEAD_COLUMNS =
  'id, full_name, email, phone, property_address, agent_id, agent_name, agent_location, status, notes, created_at, updated_at, contacted_at, report_sent_at, report_error'

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
          const { data, error } = await supabase
            .from('report_requests')
            .select(LEAD_COLUMNS)
            .order('created_at', { ascending: false })
            .order('id', { ascending: true })
            .range(from, from + PAGE_SIZE - 1)
            .abortSignal(signal)
          if (error) throw error
          leads.push(...data)
          if (data.length < PAGE_SIZE) return leads
        }
      },
    }),
}
