/**
 * Lead (report_requests) domain rules of the CRM: the statuses of the table's check constraint, the counters,
 * the search and status filter, "Returning" customers and the time a lead waited for first contact.
 */
import { z } from 'zod'

/** The values allowed by report_requests.status (check constraint in the core schema), in pipeline order. */
export const LEAD_STATUSES = ['pending', 'contacted', 'qualified', 'closed'] as const
export const LeadStatusSchema = z.enum(LEAD_STATUSES, {
  error: 'Status must be pending, contacted, qualified or closed.',
})
export type LeadStatus = z.infer<typeof LeadStatusSchema>

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  pending: 'Pending',
  contacted: 'Contacted',
  qualified: 'Qualified',
  closed: 'Closed',
}

export const LeadStatusFilterSchema = z.enum(['all', ...LEAD_STATUSES])
export type LeadStatusFilter = z.infer<typeof LeadStatusFilterSchema>

/** Owner filter: everyone's leads, mine, nobody's, or one administrator's (user id). */
export const LeadOwnerFilterSchema = z.union([z.enum(['all', 'me', 'unassigned']), z.uuid()])
export type LeadOwnerFilter = z.infer<typeof LeadOwnerFilterSchema>

/** Follow-up filter: all leads, those whose follow-up day is before today, or due today. */
export const LeadFollowUpFilterSchema = z.enum(['all', 'overdue', 'today'])
export type LeadFollowUpFilter = z.infer<typeof LeadFollowUpFilterSchema>

/** Rows per page of the leads table. */
export const LEADS_PER_PAGE = 50

export const LEAD_SEARCH_DEFAULTS = { q: '', status: 'all', owner: 'all', followUp: 'all', page: 1 } as const

/**
 * The CRM's URL state (validated by the /crm route): search `q`, `status`, `owner`, `followUp`, the table `page`
 * (1-based) and the open `lead`. Unreadable values fall back to the defaults.
 */
export const LeadSearchSchema = z.object({
  q: z.string().max(200).default('').catch(''),
  status: LeadStatusFilterSchema.default('all').catch('all'),
  owner: LeadOwnerFilterSchema.default('all').catch('all'),
  followUp: LeadFollowUpFilterSchema.default('all').catch('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1).catch(1),
  lead: z.uuid().optional().catch(undefined),
})
export type LeadSearch = z.infer<typeof LeadSearchSchema>

/** A new note as typed: 1 to 5,000 characters after trimming (lead_notes.body). */
export const LeadNoteBodySchema = z
  .string()
  .trim()
  .min(1, { error: 'Write a note first.' })
  .max(5000, { error: 'A note must be at most 5,000 characters.' })

/** The note form of Lead Details: one field, the note's text. */
export const LeadNoteFormSchema = z.object({ body: LeadNoteBodySchema })

/** A follow-up day as the date input gives it ('' clears it). */
export const FollowUpSchema = z.union([
  z.literal('').transform(() => null),
  z.iso.date({ error: 'Follow-up must be a date (yyyy-mm-dd).' }),
])

/** The lead columns the CRM reads. */
export type Lead = {
  id: string
  /** 'report' (Get Report on an agent page) or 'contact' (the /contact form). */
  lead_type: string
  full_name: string
  email: string
  phone: string | null
  property_address: string | null
  /** The visitor's message of a contact lead; null for report requests. */
  message: string | null
  agent_id: string | null
  agent_name: string | null
  agent_location: string | null
  status: string
  notes: string | null
  created_at: string
  updated_at: string
  contacted_at: string | null
  /** When send-agent-report mailed the PDF report; null while not sent. */
  report_sent_at: string | null
  /** Why the report could not be sent; null after success or while pending. */
  report_error: string | null
  /** When the visitor confirmed the address (the report goes only to a confirmed one); null while unconfirmed. */
  email_confirmed_at: string | null
  /** 'link' (the confirmation email) or 'account' (signed in with that confirmed email); null while unconfirmed. */
  email_confirmed_via: string | null
  /** The administrator working the lead, null while unassigned. */
  owner_id: string | null
  /** Next follow-up day, 'yyyy-MM-dd'. */
  follow_up_on: string | null
  /** Site path the request came from, and the visit's UTM tags. */
  source_page: string | null
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  utm_term: string | null
  utm_content: string | null
}

/**
 * The CRM's line on the PDF report mailed to the lead (send-agent-report): 'Sent' with the time, 'Not sent: <reason>'
 * or 'Sending…' right after the request (the webhook mails within seconds).
 */
export function reportDelivery(
  lead: Pick<Lead, 'report_sent_at' | 'report_error'> & Partial<Pick<Lead, 'email_confirmed_at'>>,
): {
  state: 'sent' | 'failed' | 'pending'
  text: string
} {
  if (lead.report_sent_at) return { state: 'sent', text: 'Sent' }
  if (lead.report_error) return { state: 'failed', text: `Not sent: ${lead.report_error}` }
  if (lead.email_confirmed_at === null)
    return { state: 'pending', text: 'Waiting for the visitor to confirm their email' }
  return { state: 'pending', text: 'Sending…' }
}

/** The CRM's line on the lead's email address: confirmed (how and when) or not yet. */
export function emailConfirmation(lead: Pick<Lead, 'email_confirmed_at' | 'email_confirmed_via'>): string {
  if (!lead.email_confirmed_at) return 'Not confirmed yet'
  return lead.email_confirmed_via === 'account' ? 'Confirmed (signed-in account)' : 'Confirmed (email link)'
}

export type LeadFilters = {
  /** Case-insensitive substring of the name, email, agent name or agent location; '' for no search. */
  search: string
  status: LeadStatusFilter
  owner?: LeadOwnerFilter
  followUp?: LeadFollowUpFilter
}

/** Whether `follow_up_on` ('yyyy-MM-dd') is before / equal to `today` ('yyyy-MM-dd', the operator's local day). */
export function followUpState(followUpOn: string | null, today: string): 'overdue' | 'today' | 'later' | null {
  if (!followUpOn) return null
  if (followUpOn < today) return 'overdue'
  return followUpOn === today ? 'today' : 'later'
}

/**
 * Leads matching the search (name, email, agent name, agent location; case-insensitive), the status, the owner
 * ('me' needs `context.userId`) and the follow-up filter (against `context.today`, 'yyyy-MM-dd').
 */
export function filterLeads<T extends Lead>(
  leads: readonly T[],
  filters: LeadFilters,
  context: { userId?: string; today?: string } = {},
): T[] {
  const needle = filters.search.trim().toLocaleLowerCase()
  const owner = filters.owner ?? 'all'
  const followUp = filters.followUp ?? 'all'
  return leads.filter((lead) => {
    if (filters.status !== 'all' && lead.status !== filters.status) return false
    if (owner === 'unassigned' && lead.owner_id !== null) return false
    if (owner === 'me' && lead.owner_id !== (context.userId ?? null)) return false
    if (owner !== 'all' && owner !== 'me' && owner !== 'unassigned' && lead.owner_id !== owner) return false
    if (followUp !== 'all' && followUpState(lead.follow_up_on, context.today ?? '') !== followUp) return false
    if (!needle) return true
    return [lead.full_name, lead.email, lead.agent_name, lead.agent_location].some(
      (value) => value != null && value.toLocaleLowerCase().includes(needle),
    )
  })
}

export type LeadCounters = {
  total: number
  pending: number
  contacted: number
  qualified: number
  closed: number
}

/** Requests per status over every lead (not the filtered ones); the page shows Total Requests, Pending, Contacted, Qualified. */
export function countLeads(leads: readonly Pick<Lead, 'status'>[]): LeadCounters {
  const counters: LeadCounters = { total: leads.length, pending: 0, contacted: 0, qualified: 0, closed: 0 }
  for (const lead of leads) {
    const status = LeadStatusSchema.safeParse(lead.status)
    if (status.success) counters[status.data] += 1
  }
  return counters
}

/** Other requests with the same email (case-insensitive), oldest first: the duplicates a merge would fold in. */
export function duplicatesOf<T extends Pick<Lead, 'id' | 'email' | 'created_at'>>(lead: T, leads: readonly T[]): T[] {
  const key = lead.email.trim().toLowerCase()
  return leads
    .filter((other) => other.id !== lead.id && other.email.trim().toLowerCase() === key)
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
}

/** How many requests each email address (lower-cased) has made. */
export function requestsPerEmail(leads: readonly Pick<Lead, 'email'>[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const lead of leads) {
    const key = lead.email.trim().toLowerCase()
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

/** 'Returning' when the lead's email has more than one request, else 'New'. */
export function customerType(email: string, counts: Map<string, number>): 'Returning' | 'New' {
  return (counts.get(email.trim().toLowerCase()) ?? 0) > 1 ? 'Returning' : 'New'
}

/**
 * How long the lead waited for first contact, in milliseconds: created_at → contacted_at once someone moved it out
 * of pending (contacted_at is stamped by a trigger), else created_at → `now` while it is still pending. Null for a
 * non-pending lead without contacted_at (e.g. imported already worked), where the wait is unknown.
 */
export function waitingMs(lead: Pick<Lead, 'status' | 'created_at' | 'contacted_at'>, now: Date): number | null {
  const created = Date.parse(lead.created_at)
  if (lead.contacted_at) return Math.max(0, Date.parse(lead.contacted_at) - created)
  if (lead.status === 'pending') return Math.max(0, now.getTime() - created)
  return null
}

/** A wait as the table shows it: '< 1m', '45m', '3h 5m', '2d 4h'. */
export function formatWaiting(ms: number | null): string {
  if (ms === null) return '—'
  const minutes = Math.floor(ms / 60_000)
  if (minutes < 1) return '< 1m'
  if (minutes < 60) return `${minutes}m`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours}h ${minutes % 60}m`
  return `${Math.floor(hours / 24)}d ${hours % 24}h`
}
