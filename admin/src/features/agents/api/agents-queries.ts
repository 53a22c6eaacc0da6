import { queryOptions } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import type { AuditEntry } from '@/features/audit/api/audit-schemas'
import { agentReviewKeys } from './agents-keys'
import {
  statusesOf,
  TRAIL_LIMIT,
  TRAIL_TABLES,
  type AgentReviewFilters,
  type ClaimItem,
  type CorrectionItem,
  type ReviewAgent,
  type ReviewItem,
  type VisibilityItem,
} from './agents-schemas'

/** Items a queue loads at once, newest first. */
export const QUEUE_LIMIT = 200

const CLAIM_COLUMNS =
  'id, agent_id, user_id, status, method, license_number, message, code_sent_to, decision_reason, decided_at, created_at'
const CORRECTION_COLUMNS =
  'id, agent_id, user_id, status, kind, property_id, listing_number, address, side, close_price, close_date, recorded_role, recorded_close_price, recorded_close_date, list_price, recorded_list_price, explanation, decision_reason, decided_at, created_at'
const VISIBILITY_COLUMNS =
  'id, agent_id, user_id, status, hide_phone, hide_email, noindex, note, decision_reason, decided_at, created_at'

/** The queue's rows of one table, with the status filter applied, newest first. */
async function queueRows(filters: AgentReviewFilters, signal: AbortSignal): Promise<Record<string, unknown>[]> {
  const statuses = statusesOf(filters.tab, filters.status)
  const table =
    filters.tab === 'claims'
      ? 'agent_claims'
      : filters.tab === 'corrections'
        ? 'agent_corrections'
        : 'agent_visibility_requests'
  const columns =
    filters.tab === 'claims' ? CLAIM_COLUMNS : filters.tab === 'corrections' ? CORRECTION_COLUMNS : VISIBILITY_COLUMNS
  // one of three tables: the rows are typed by the item types below, not by the query builder
  let request = supabase.from(table).select(columns)
  if (statuses) request = request.in('status', statuses)
  const rows = await dataOrThrow(
    request.order('created_at', { ascending: false }).limit(QUEUE_LIMIT).abortSignal(signal),
  )
  return rows as unknown as Record<string, unknown>[]
}

export const agentReviewQueries = {
  /**
   * One queue (claims, corrections or visibility requests) for a status filter, newest first, at most 200 items,
   * each with its agent (name, brokerage, the MLS license number and email to compare a claim with) and the account
   * email of the user who filed it (public.agent_review_people). Administrators at aal2 read every row (RLS).
   */
  list: (filters: AgentReviewFilters) =>
    queryOptions({
      queryKey: agentReviewKeys.list(filters),
      queryFn: async ({ signal }): Promise<ReviewItem[]> => {
        const rows = await queueRows(filters, signal)
        const agentIds = [...new Set(rows.map((row) => row.agent_id as string))]
        const userIds = [...new Set(rows.map((row) => row.user_id as string))]
        const [agents, people] = await Promise.all([
          agentIds.length
            ? dataOrThrow(
                supabase
                  .from('agents')
                  .select('id, name, brokerage, license_number, email')
                  .in('id', agentIds)
                  .abortSignal(signal),
              )
            : Promise.resolve([] as ReviewAgent[]),
          userIds.length
            ? dataOrThrow(supabase.rpc('agent_review_people', { user_ids: userIds }).abortSignal(signal))
            : Promise.resolve([] as { user_id: string; email: string }[]),
        ])
        const agentById = new Map(agents.map((agent) => [agent.id, agent]))
        const emailById = new Map(people.map((person) => [person.user_id, person.email]))
        const subject = filters.tab === 'claims' ? 'claim' : filters.tab === 'corrections' ? 'correction' : 'visibility'
        return rows.map(
          (row) =>
            ({
              ...row,
              subject,
              agent: agentById.get(row.agent_id as string) ?? null,
              email: emailById.get(row.user_id as string) ?? null,
            }) as ClaimItem | CorrectionItem | VisibilityItem,
        )
      },
    }),

  /**
   * The audit trail of claims, corrections and visibility requests (public.audit_log, newest first, 100 entries):
   * who filed, who decided what and when.
   */
  trail: () =>
    queryOptions({
      queryKey: agentReviewKeys.trail(),
      queryFn: async ({ signal }) => {
        const data = await dataOrThrow(
          supabase
            .from('audit_log')
            .select('id, at, actor_email, table_name, row_id, action, before, after')
            .in('table_name', [...TRAIL_TABLES])
            .order('id', { ascending: false })
            .limit(TRAIL_LIMIT)
            .abortSignal(signal),
        )
        return data as AuditEntry[]
      },
    }),
}
