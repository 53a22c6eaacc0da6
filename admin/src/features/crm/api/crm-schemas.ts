/**
 * Lead (report_requests) domain rules of the CRM: the statuses of the table's check constraint, the counters,
 * the search and status filter, "Returning" customers and the time a lead waited for first contact.
 */
import { z } from 'zod'

/** The values allowed by report_requests.status (check constraint in the core schema), in pipeline order. */
export const LEAD_STATUSES = ['pending', 'contacted', 'qualified', 'closed'] as const
export const LeadStatusSchema = z.enum(LEAD_STATUSES, { error: 'Status must be pending, contacted, qualified or closed.' })
export type LeadStatus = z.infer<typeof LeadStatusSchema>

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  pending: 'Pending',
  contacted: 'Contacted',
  qualified: 'Qualified',
  closed: 'Closed',
}

export const LeadStatusFilterSchema = z.enum(['all', ...LEAD_STATUSES])
export type LeadStatusFilter = z.infer<typeof LeadStatusFilterSchema>

/** Notes as the textarea holds them → the notes column (null when blank; the column allows 10,000 characters). */
export const LeadNotesSchema = z
  .string()
  .max(10_000, { error: 'Notes must be at most 10,000 characters.' })
  .transform((value) => (value.trim() === '' ? null : value))

/** The lead columns the CRM reads. */
export type Lead = {
  id: string
  full_name: string
  email: string
  phone: string | null
  property_address: string | null
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
}

/**
 * The CRM's line on the PDF report mailed to the lead (send-agent-report): 'Sent' with the time, 'Not sent: <reason>'
 * or 'Sending…' right after the request (the webhook mails within seconds).
 */
export function reportDelivery(lead: Pick<Lead, 'report_sent_at' | 'report_error'>): { state: 'sent' | 'failed' | 'pending'; text: string } {
  if (lead.report_sent_at) return { state: 'sent', text: 'Sent' }
  if (lead.report_error) return { state: 'failed', text: `Not sent: ${lead.report_error}` }
  return { state: 'pending', text: 'Sending…' }
}

export type LeadFilters = {
  /** Case-insensitive substring of the name, email, agent name or agent location; '' for no search. */
  search: string
  status: LeadStatusFilter
}

/** Leads matching the search (name, email, agent name, agent location; case-insensitive) and the status. */
export function filterLeads<T extends Lead>(leads: readonly T[], filters: LeadFilters): T[] {
  const needle = filters.search.trim().toLocaleLowerCase()
  return leads.filter((lead) => {
    if (filters.status !== 'all' && lead.status !== filters.status) return false
    if (!needle) return true
    return [lead.full_name, lead.email, lead.agent_name, lead.agent_location].some(
      (value) => value != null && value.toLocaleLowerCase().includes(needle),
    )
  })
}

export type LeadCounters = {
  total: number
  /** status pending: nobody has answered yet */
  pending: number
  /** contacted or qualified: being worked */
  contacted: number
  /** of which qualified */
  qualified: number
  /** status closed: converted (the pipeline's end) */
  closed: number
}

/** The four CRM counters over every lead (not the filtered ones). */
export function countLeads(leads: readonly Pick<Lead, 'status'>[]): LeadCounters {
  const counters: LeadCounters = { total: leads.length, pending: 0, contacted: 0, qualified: 0, closed: 0 }
  for (const lead of leads) {
    if (lead.status === 'pending') counters.pending += 1
    else if (lead.status === 'contacted') counters.contacted += 1
    else if (lead.status === 'qualified') {
      counters.contacted += 1
      counters.qualified += 1
    } else if (lead.status === 'closed') counters.closed += 1
  }
  return counters
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
