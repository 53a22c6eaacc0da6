import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { format } from 'date-fns'
import { lazy, Suspense, useEffect, useMemo, useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/textarea'
import { useToast } from '@/components/ui/toast'
import { TrashButton } from '@/features/audit/components/trash-dialog'
import { authQueries } from '@/features/auth/api/auth-queries'
import { useBulkLeadStatusMutation } from '../api/crm-mutations'
import { adminQueries, leadQueries } from '../api/crm-queries'
import type { Lead, LeadStatus } from '../api/crm-schemas'
import {
  countLeads,
  customerType,
  filterLeads,
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  LeadFollowUpFilterSchema,
  LEADS_PER_PAGE,
  LeadOwnerFilterSchema,
  LeadStatusFilterSchema,
  LeadStatusSchema,
  requestsPerEmail,
} from '../api/crm-schemas'
import { LeadCounters } from './lead-counters'
import { LeadTable } from './lead-table'

const route = getRouteApi('/_shell/crm')

/** How often the Waiting column of pending leads moves on, in milliseconds. */
const CLOCK_TICK_MS = 60_000

/** Offers `csv` as a download; the UTF-8 byte-order mark makes Excel read accents correctly. */
// loaded on first use: the dialog (notes, merge, owner) and the CSV writer are not needed to show the list
const LeadDetailsDialog = lazy(() =>
  import('./lead-details-dialog').then((module) => ({ default: module.LeadDetailsDialog })),
)

/** Downloads `leads` as the CRM's CSV export (csv-stringify is fetched on the first export). */
async function exportCsv(leads: readonly Lead[], owners: ReadonlyMap<string, string>): Promise<void> {
  const { buildLeadsCsv, leadsExportFileName } = await import('../api/leads-csv')
  downloadCsv(buildLeadsCsv(leads, owners), leadsExportFileName(new Date()))
}

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

/** Says 'Failed to load report requests' once per failed read of the leads (and logs the cause). */
function useLoadFailureToast(error: Error | null, toast: ReturnType<typeof useToast>['toast']) {
  useEffect(() => {
    if (!error) return
    console.error('Failed to load report requests', error)
    toast({ title: 'Failed to load report requests', description: error.message, variant: 'error' })
  }, [error, toast])
}

function useNow(): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), CLOCK_TICK_MS)
    return () => window.clearInterval(timer)
  }, [])
  return now
}

/**
 * /admin/crm: counters, search and filters (status, owner, overdue follow-ups; all in the URL), the paged leads
 * table with bulk status change, Lead Details (`?lead=`) and the CSV export of the filtered rows.
 */
export function CrmPage() {
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const leads = useQuery(leadQueries.list())
  const admins = useQuery(adminQueries.list())
  const session = useQuery(authQueries.session())
  const bulk = useBulkLeadStatusMutation()
  const { toast } = useToast()
  useLoadFailureToast(leads.isError ? leads.error : null, toast)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [bulkStatus, setBulkStatus] = useState<LeadStatus>('contacted')
  const now = useNow()
  const today = format(now, 'yyyy-MM-dd')
  const userId = session.data?.user.id

  const owners = useMemo(() => new Map((admins.data ?? []).map((admin) => [admin.id, admin.email])), [admins.data])
  const counters = useMemo(() => (leads.data ? countLeads(leads.data) : undefined), [leads.data])
  const emailCounts = useMemo(() => requestsPerEmail(leads.data ?? []), [leads.data])
  const visible = useMemo(
    () =>
      leads.data
        ? filterLeads(
            leads.data,
            { search: search.q, status: search.status, owner: search.owner, followUp: search.followUp },
            { userId, today },
          )
        : undefined,
    [leads.data, search.q, search.status, search.owner, search.followUp, userId, today],
  )
  const pageCount = Math.max(1, Math.ceil((visible?.length ?? 0) / LEADS_PER_PAGE))
  const page = Math.min(search.page, pageCount)
  const pageRows = visible?.slice((page - 1) * LEADS_PER_PAGE, page * LEADS_PER_PAGE)
  const openLead = search.lead ? leads.data?.find((lead) => lead.id === search.lead) : undefined
  const filtered =
    search.q.trim() !== '' || search.status !== 'all' || search.owner !== 'all' || search.followUp !== 'all'

  const setSearch = (next: Partial<typeof search>) =>
    void navigate({ search: (prev) => ({ ...prev, page: undefined, ...next }), replace: true })

  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">CRM Dashboard</h1>
      <p className="mt-1 text-sm text-slate-500">Manage your report requests and leads</p>

      <div className="mt-6">
        <LeadCounters counters={counters} />
      </div>

      <div className="mt-6 flex flex-col gap-3 lg:flex-row lg:flex-wrap lg:items-center">
        <Input
          type="search"
          aria-label="Search leads"
          placeholder="Search..."
          defaultValue={search.q}
          onChange={(event) => setSearch({ q: event.target.value })}
          className="lg:max-w-xs"
        />
        <div className="grid grid-cols-3 gap-2 lg:flex">
          <Select
            aria-label="Filter by status"
            value={search.status}
            onChange={(event) => setSearch({ status: LeadStatusFilterSchema.parse(event.target.value) })}
            className="lg:w-36"
          >
            <option value="all">All Status</option>
            {LEAD_STATUSES.map((value) => (
              <option key={value} value={value}>
                {LEAD_STATUS_LABELS[value]}
              </option>
            ))}
          </Select>
          <Select
            aria-label="Filter by owner"
            value={search.owner}
            onChange={(event) => setSearch({ owner: LeadOwnerFilterSchema.parse(event.target.value) })}
            className="lg:w-44"
          >
            <option value="all">All owners</option>
            <option value="me">My leads</option>
            <option value="unassigned">Unassigned</option>
            {admins.data?.map((admin) => (
              <option key={admin.id} value={admin.id}>
                {admin.email}
              </option>
            ))}
          </Select>
          <Select
            aria-label="Filter by follow-up"
            value={search.followUp}
            onChange={(event) => setSearch({ followUp: LeadFollowUpFilterSchema.parse(event.target.value) })}
            className="lg:w-40"
          >
            <option value="all">Any follow-up</option>
            <option value="overdue">Overdue</option>
            <option value="today">Due today</option>
          </Select>
        </div>
        <div className="flex gap-2 lg:ml-auto">
          <TrashButton kind="lead" />
          <Button variant="outline" disabled={!visible} onClick={() => visible && void exportCsv(visible, owners)}>
            Export CSV
          </Button>
        </div>
      </div>

      {selected.size > 0 && (
        <div
          role="region"
          aria-label="Bulk actions"
          className="mt-4 flex flex-wrap items-center gap-2 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm"
        >
          <span className="font-medium">{selected.size} selected</span>
          <Select
            aria-label="New status for the selected leads"
            value={bulkStatus}
            onChange={(event) => setBulkStatus(LeadStatusSchema.parse(event.target.value))}
            className="w-36"
          >
            {LEAD_STATUSES.map((value) => (
              <option key={value} value={value}>
                {LEAD_STATUS_LABELS[value]}
              </option>
            ))}
          </Select>
          <Button
            size="sm"
            disabled={bulk.isPending}
            onClick={() =>
              bulk.mutate(
                { ids: [...selected], status: bulkStatus },
                {
                  onSuccess: (count) => {
                    setSelected(new Set())
                    toast({
                      title: 'Status updated successfully',
                      description: `${count} leads are now ${LEAD_STATUS_LABELS[bulkStatus]}.`,
                    })
                  },
                  onError: (error) =>
                    toast({ title: 'Failed to update status', description: error.message, variant: 'error' }),
                },
              )
            }
          >
            Apply to selected
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
        </div>
      )}

      {leads.isError && (
        <Alert className="mt-4">
          Failed to load report requests: {leads.error.message}{' '}
          <Button variant="outline" size="sm" className="ml-2" onClick={() => void leads.refetch()}>
            Try again
          </Button>
        </Alert>
      )}

      <div className="mt-4">
        <LeadTable
          leads={pageRows}
          loading={leads.isPending}
          filtered={filtered}
          now={now}
          today={today}
          owners={owners}
          selected={selected}
          onToggle={(id, on) =>
            setSelected((current) => {
              const next = new Set(current)
              if (on) next.add(id)
              else next.delete(id)
              return next
            })
          }
          onToggleAll={(on) => setSelected(on ? new Set(pageRows?.map((lead) => lead.id)) : new Set())}
          onOpen={(lead) => void navigate({ search: (prev) => ({ ...prev, lead: lead.id }) })}
        />
      </div>

      {visible && visible.length > LEADS_PER_PAGE && (
        <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-2 text-sm">
          <Button
            variant="outline"
            size="sm"
            disabled={page <= 1}
            onClick={() => void navigate({ search: (prev) => ({ ...prev, page: page - 1 }) })}
          >
            Previous
          </Button>
          <span>
            Page {page} of {pageCount} · {visible.length} requests
          </span>
          <Button
            variant="outline"
            size="sm"
            disabled={page >= pageCount}
            onClick={() => void navigate({ search: (prev) => ({ ...prev, page: page + 1 }) })}
          >
            Next
          </Button>
        </nav>
      )}

      {openLead && (
        <Suspense fallback={null}>
          <LeadDetailsDialog
            key={openLead.id}
            lead={openLead}
            allLeads={leads.data ?? []}
            admins={admins.data ?? []}
            customerType={customerType(openLead.email, emailCounts)}
            now={now}
            onClose={() => void navigate({ search: ({ lead: _lead, ...rest }) => rest })}
          />
        </Suspense>
      )}
    </section>
  )
}
