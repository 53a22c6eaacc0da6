import { queryOptions } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { auditKeys, trashKeys } from './audit-keys'
import { AUDIT_PAGE_SIZE, type AuditEntry, type AuditFilters, type TrashKind } from './audit-schemas'

export const auditQueries = {
  /**
   * One page of the audit log, newest first, for one table or all (public.audit_log: admins at aal2 read it), plus
   * one entry more than a page, which tells whether an older page exists.
   */
  list: (filters: AuditFilters) =>
    queryOptions({
      queryKey: auditKeys.list(filters),
      queryFn: async ({ signal }) => {
        const from = (filters.page - 1) * AUDIT_PAGE_SIZE
        let request = supabase
          .from('audit_log')
          .select('id, at, actor_email, table_name, row_id, action, before, after')
          .order('id', { ascending: false })
          .range(from, from + AUDIT_PAGE_SIZE)
        if (filters.table !== 'all') request = request.eq('table_name', filters.table)
        const data = await dataOrThrow(request.abortSignal(signal))
        // action is checked by the table (insert, update, delete, trash, restore); before/after are JSON objects
        return data as AuditEntry[]
      },
    }),
}

export const trashQueries = {
  /** The deleted leads or posts, newest deletion first (public.trash_items). */
  list: (kind: TrashKind) =>
    queryOptions({
      queryKey: trashKeys.list(kind),
      queryFn: ({ signal }) => dataOrThrow(supabase.rpc('trash_items', { item_type: kind }).abortSignal(signal)),
    }),
}
