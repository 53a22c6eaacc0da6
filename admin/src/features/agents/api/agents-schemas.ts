import { z } from 'zod'

import {
  CLAIM_STATUS_LABELS,
  CORRECTION_KIND_LABELS,
  PROFILE_LIMITS,
  REQUEST_STATUS_LABELS,
  type CorrectionKind,
} from '@shared/agent-claims.ts'

/** The queues of Admin -> Agents, and the audit trail of their decisions. */
export const AGENT_REVIEW_TABS = ['claims', 'corrections', 'visibility', 'trail'] as const
export type AgentReviewTab = (typeof AGENT_REVIEW_TABS)[number]
export type QueueTab = Exclude<AgentReviewTab, 'trail'>

export const TAB_LABELS: Record<AgentReviewTab, string> = {
  claims: 'Claims',
  corrections: 'Corrections',
  visibility: 'Visibility',
  trail: 'Audit trail',
}

/** Which items a queue shows: waiting for a decision, decided, or all. */
export const STATUS_FILTERS = ['open', 'decided', 'all'] as const
export type StatusFilter = (typeof STATUS_FILTERS)[number]
export const STATUS_FILTER_LABELS: Record<StatusFilter, string> = {
  open: 'To review',
  decided: 'Decided',
  all: 'All',
}

/** The statuses each filter stands for, per queue (the tables' status columns). */
export function statusesOf(tab: QueueTab, filter: StatusFilter): string[] | null {
  if (filter === 'all') return null
  if (tab === 'claims')
    return filter === 'open' ? ['code_sent', 'review_requested'] : ['approved', 'rejected', 'revoked']
  return filter === 'open' ? ['pending'] : ['accepted', 'rejected', 'withdrawn']
}

export const AGENT_REVIEW_SEARCH_DEFAULTS = { tab: 'claims', status: 'open', q: '' } as const

/** Admin -> Agents' URL state: `?tab=&status=&q=` (q: an agent's name or an account email, case ignored). */
export const AgentReviewSearchSchema = z.object({
  tab: z.enum(AGENT_REVIEW_TABS).default('claims').catch('claims'),
  status: z.enum(STATUS_FILTERS).default('open').catch('open'),
  q: z.string().trim().max(100).default('').catch(''),
})
export type AgentReviewSearch = z.infer<typeof AgentReviewSearchSchema>
export type AgentReviewFilters = { tab: QueueTab; status: StatusFilter }

/** A decision an administrator takes; the reason is mailed to the agent. */
export type Decision = 'approve' | 'accept' | 'reject' | 'revoke'

export const DECISION_LABELS: Record<Decision, string> = {
  approve: 'Approve',
  accept: 'Accept',
  reject: 'Reject',
  revoke: 'Revoke',
}

/** The toast after a decision. */
export const DECIDED_LABELS: Record<Decision, string> = {
  approve: 'Claim approved',
  accept: 'Accepted',
  reject: 'Rejected',
  revoke: 'Claim revoked',
}

/** Whether a decision needs a reason (a refusal or a revocation is always explained to the agent). */
export const reasonRequired = (decision: Decision) => decision === 'reject' || decision === 'revoke'

/** The decision dialog's form: the reason, required to reject or revoke, at most 1,000 characters. */
export function decisionFormSchema(decision: Decision) {
  return z.object({
    reason: z
      .string()
      .trim()
      .max(PROFILE_LIMITS.reason, 'Keep the reason to 1,000 characters')
      .refine((reason) => !reasonRequired(decision) || reason !== '', 'Give a reason: it is mailed to the agent'),
  })
}
export type DecisionForm = { reason: string }

/** The agent a queue item is about, as the reviewer needs it (MLS license number and email to compare). */
export type ReviewAgent = {
  id: string
  name: string
  brokerage: string | null
  license_number: string | null
  email: string | null
}

type Common = {
  id: string
  agent_id: string
  user_id: string
  status: string
  decision_reason: string | null
  decided_at: string | null
  created_at: string
  agent: ReviewAgent | null
  /** The account email of the user who filed it. */
  email: string | null
}

export type ClaimItem = Common & {
  subject: 'claim'
  method: string | null
  license_number: string | null
  message: string | null
  code_sent_to: string | null
}

export type CorrectionItem = Common & {
  subject: 'correction'
  kind: CorrectionKind
  property_id: string | null
  listing_number: string | null
  address: string | null
  side: string | null
  close_price: number | null
  close_date: string | null
  recorded_role: string | null
  recorded_close_price: number | null
  recorded_close_date: string | null
  list_price: number | null
  recorded_list_price: number | null
  explanation: string | null
}

export type VisibilityItem = Common & {
  subject: 'visibility'
  hide_phone: boolean
  hide_email: boolean
  noindex: boolean
  note: string | null
}

export type ReviewItem = ClaimItem | CorrectionItem | VisibilityItem

/** The status of an item in words. */
export function statusLabel(item: Pick<ReviewItem, 'subject' | 'status'>): string {
  const labels: Record<string, string> = item.subject === 'claim' ? CLAIM_STATUS_LABELS : REQUEST_STATUS_LABELS
  return labels[item.status] ?? item.status
}

/** The decisions an item can take now (none once it is decided, withdrawn or revoked). */
export function decisionsFor(item: Pick<ReviewItem, 'subject' | 'status'>): Decision[] {
  if (item.subject === 'claim') {
    if (item.status === 'code_sent' || item.status === 'review_requested') return ['approve', 'reject']
    if (item.status === 'approved') return ['revoke']
    return []
  }
  return item.status === 'pending' ? ['accept', 'reject'] : []
}

/** Whether an item matches the search text: the agent's name or the account email contains it (case ignored). */
export function matchesQuery(item: Pick<ReviewItem, 'agent' | 'email'>, query: string): boolean {
  const needle = query.trim().toLowerCase()
  if (!needle) return true
  return [item.agent?.name, item.email].some((value) => value?.toLowerCase().includes(needle))
}

/** What a visibility request asks for, in words. */
export function visibilityWords(item: Pick<VisibilityItem, 'hide_phone' | 'hide_email' | 'noindex'>): string {
  return [
    item.hide_phone ? 'hide phone' : 'show phone',
    item.hide_email ? 'hide email' : 'show email',
    item.noindex ? 'out of search engines' : 'in search engines',
  ].join(', ')
}

export const kindLabel = (kind: CorrectionKind) => CORRECTION_KIND_LABELS[kind] ?? kind

/** The tables whose audit_log entries make the trail of claims and their decisions. */
export const TRAIL_TABLES = ['agent_claims', 'agent_corrections', 'agent_visibility_requests'] as const
export const TRAIL_TABLE_LABELS: Record<(typeof TRAIL_TABLES)[number], string> = {
  agent_claims: 'Claim',
  agent_corrections: 'Correction',
  agent_visibility_requests: 'Visibility request',
}
/** Entries of the audit trail shown. */
export const TRAIL_LIMIT = 100
