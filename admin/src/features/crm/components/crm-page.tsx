import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/textarea'
import { leadQueries } from '../api/crm-queries'
import type { Lead, LeadStatusFilter } from '../api/crm-schemas'
import {
  countLeads,
  customerType,
  filterLeads,
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  LeadStatusFilterSchema,
  requestsPerEmail,
} from '../api/crm-schemas'
import { buildLeadsCsv, leadsExportFileName } from '../api/leads-csv'
import { LeadCounters } from './lead-counters'
import { LeadDetailsDialog } from './lead-details-dialog'
import { LeadTable } from './lead-table'

/** How often the Waiting column of pending leads moves on, in milliseconds. */
const CLOCK_TICK_MS = 60_000

/** Offers `csv` as a download; the UTF-8 byte-order mark makes Excel read accents correctly. */
function downloadCsv(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob(['\ufeff', csv], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  // revoke after the click has been handled, or some browsers cancel the download
  window.setTimeout(() => URL.revokeObjectURL(url), 1000)
}

function useNow(): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), CLOCK_TICK_MS)
    return () => window.clearInterval(timer)
  }, [])
  return now
}

/** /admin/crm: lead counters, search, status filter, the leads table, Lead Details and the CSV export. */
export function CrmPage() {
  const leads = useQuery(leadQueries.list())
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<LeadStatusFilter>('all')
  const [openId, setOpenId] = useState<string | null>(null)
  const now = useNow()

  const counters = useMemo(() => (leads.data ? countLeads(leads.data) : undefined), [leads.data])
  const emailCounts = useMemo(() => requestsPerEmail(leads.data ?? []), [leads.data])
  const visible = useMemo(() => (leads.data ? filterLeads(leads.data, { search, status }) : undefined), [leads.data, search, status])
  const openLead: Lead | undefined = openId ? leads.data?.find((lead) => lead.id === openId) : undefined

  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">CRM Dashboard</h1>
      <p className="mt-1 text-sm text-slate-500">Manage leads and report requests</p>

      <div className="mt-6">
        <LeadCounters counters={counters} />
      </div>

      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center">
        <Input
          type="search"
          aria-label="Search leads"
          placeholder="Search by name, email, agent or location..."
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="sm:max-w-sm"
        />
        <Select
          aria-label="Filter by status"
          value={status}
          onChange={(event) => setStatus(LeadStatusFilterSchema.parse(event.target.value))}
          className="sm:w-44"
        >
          <option value="all">All Statuses</option>
          {LEAD_STATUSES.map((value) => (
            <option key={value} value={value}>
              {LEAD_STATUS_LABELS[value]}
            </option>
          ))}
        </Select>
        <Button
          variant="outline"
          className="sm:ml-auto"
          disabled={!visible}
          onClick={() => visible && downloadCsv(buildLeadsCsv(visible), leadsExportFileName(new Date()))}
        >
          Export CSV
        </Button>
      </div>

      {leads.isError && <Alert className="mt-4">Could not load leads: {leads.error.message}</Alert>}

      <div className="mt-4">
        <LeadTable
          leads={visible}
          loading={leads.isPending}
          filtered={search.trim() !== '' || status !== 'all'}
          now={now}
          onOpen={(lead) => setOpenId(lead.id)}
        />
      </div>

      {openLead && (
        <LeadDetailsDialog
          key={openLead.id}
          lead={openLead}
          customerType={customerType(openLead.email, emailCounts)}
          now={now}
          onClose={() => setOpenId(null)}
        />
      )}
    </section>
  )
}
