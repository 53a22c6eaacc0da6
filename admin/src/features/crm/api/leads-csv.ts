/**
 * CSV export of leads: RFC 4180 (quotes doubled, fields with a comma, quote or line break quoted, CRLF rows) via
 * csv-stringify, with spreadsheet formula neutralization (OWASP "CSV Injection"): a cell that starts with
 * = + - @, a tab or a carriage return gets a leading apostrophe so Excel and Sheets show it as text.
 */
import { stringify } from 'csv-stringify/browser/esm/sync'
import { format } from 'date-fns'

import type { Lead } from './crm-schemas'
import { LEAD_STATUS_LABELS, LeadStatusSchema } from './crm-schemas'

export const LEAD_CSV_COLUMNS = [
  'Name',
  'Email',
  'Phone',
  'Property Address',
  'Agent',
  'Agent Location',
  'Status',
  'Notes',
  'Created',
] as const

const FORMULA_START = /^[=+\-@\t\r]/

/** Prefixes a cell that a spreadsheet would run as a formula with an apostrophe (OWASP CSV injection). */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value
}

function statusLabel(status: string): string {
  const parsed = LeadStatusSchema.safeParse(status)
  return parsed.success ? LEAD_STATUS_LABELS[parsed.data] : status
}

/**
 * The CSV of `leads` in the given order: a header row (LEAD_CSV_COLUMNS) and one row per lead; empty values are
 * empty cells, Created is local time as yyyy-MM-dd HH:mm. Rows end in CRLF. No byte-order mark.
 */
export function buildLeadsCsv(leads: readonly Lead[]): string {
  const rows = leads.map((lead) =>
    [
      lead.full_name,
      lead.email,
      lead.phone ?? '',
      lead.property_address ?? '',
      lead.agent_name ?? '',
      lead.agent_location ?? '',
      statusLabel(lead.status),
      lead.notes ?? '',
      format(new Date(lead.created_at), 'yyyy-MM-dd HH:mm'),
    ].map(neutralizeFormula),
  )
  return stringify([[...LEAD_CSV_COLUMNS], ...rows], { record_delimiter: 'windows' })
}

/** `leads-export-YYYY-MM-DD.csv` for the given day (local date). */
export function leadsExportFileName(day: Date): string {
  return `leads-export-${format(day, 'yyyy-MM-dd')}.csv`
}
