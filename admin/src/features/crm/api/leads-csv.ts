/**
 * CSV export of leads: the seed's columns first (Date, Name, Email, Phone, Address, Agent Name, Agent Location,
 * Status; spec "CSV export"), then the pipeline's (Owner, Follow-up, Source Page, UTM Source, UTM Medium,
 * UTM Campaign, UTM Term, UTM Content). RFC 4180 via csv-stringify (quotes doubled, fields with a comma, quote or line break quoted, CRLF
 * rows), with spreadsheet formula neutralization (OWASP "CSV Injection") for cells a spreadsheet would evaluate.
 */
import { stringify } from 'csv-stringify/browser/esm/sync'
import { format } from 'date-fns'
import { neutralizeFormula } from '@shared/spreadsheet-cell.ts'

import type { Lead } from './crm-schemas'
import { LEAD_STATUS_LABELS, LeadStatusSchema } from './crm-schemas'

export const LEAD_CSV_COLUMNS = [
  'Date',
  'Name',
  'Email',
  'Phone',
  'Address',
  'Agent Name',
  'Agent Location',
  'Status',
  'Owner',
  'Follow-up',
  'Source Page',
  'UTM Source',
  'UTM Medium',
  'UTM Campaign',
  'UTM Term',
  'UTM Content',
] as const

/** Prefixes a cell a spreadsheet would run as a formula with an apostrophe (the shared rule). */
export { neutralizeFormula }

function statusLabel(status: string): string {
  const parsed = LeadStatusSchema.safeParse(status)
  return parsed.success ? LEAD_STATUS_LABELS[parsed.data] : status
}

/**
 * The CSV of `leads` in the given order: a header row (LEAD_CSV_COLUMNS) and one row per lead; empty values are
 * empty cells, Date is the local day of the request (yyyy-MM-dd). `ownerEmails` maps owner ids to addresses.
 * Rows end in CRLF. No byte-order mark.
 */
export function buildLeadsCsv(leads: readonly Lead[], ownerEmails: ReadonlyMap<string, string> = new Map()): string {
  const rows = leads.map((lead) =>
    [
      format(new Date(lead.created_at), 'yyyy-MM-dd'),
      lead.full_name,
      lead.email,
      lead.phone ?? '',
      lead.property_address ?? '',
      lead.agent_name ?? '',
      lead.agent_location ?? '',
      statusLabel(lead.status),
      lead.owner_id ? (ownerEmails.get(lead.owner_id) ?? lead.owner_id) : '',
      lead.follow_up_on ?? '',
      lead.source_page ?? '',
      lead.utm_source ?? '',
      lead.utm_medium ?? '',
      lead.utm_campaign ?? '',
      lead.utm_term ?? '',
      lead.utm_content ?? '',
    ].map(neutralizeFormula),
  )
  return stringify([[...LEAD_CSV_COLUMNS], ...rows], { record_delimiter: 'windows' })
}

/** `report-requests-yyyy-MM-dd.csv` for the given day (local date; spec "CSV export"). */
export function leadsExportFileName(day: Date): string {
  return `report-requests-${format(day, 'yyyy-MM-dd')}.csv`
}
