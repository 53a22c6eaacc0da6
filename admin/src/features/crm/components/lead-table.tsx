import { format } from 'date-fns'

import { Button } from '@/components/ui/button'
import type { Lead } from '../api/crm-schemas'
import { formatWaiting, waitingMs } from '../api/crm-schemas'
import { LeadStatusBadge } from './lead-status-badge'

const COLUMNS = 8

type LeadTableProps = {
  leads: Lead[] | undefined
  loading: boolean
  /** True when a search or status filter is applied (changes the empty-state hint). */
  filtered: boolean
  /** Reference time for the Waiting column of pending leads. */
  now: Date
  onOpen: (lead: Lead) => void
}

/** The leads table: one row per lead, with a button that opens its details. */
export function LeadTable({ leads, loading, filtered, now, onOpen }: LeadTableProps) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">Name</th>
            <th scope="col" className="px-4 py-3">Email</th>
            <th scope="col" className="px-4 py-3">Agent</th>
            <th scope="col" className="px-4 py-3">Location</th>
            <th scope="col" className="px-4 py-3">Status</th>
            <th scope="col" className="px-4 py-3">Created</th>
            <th scope="col" className="px-4 py-3" title="Time to first contact, or time since the request while pending">
              Waiting
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody aria-busy={loading}>
          {loading && (
            <tr>
              <td colSpan={COLUMNS} className="px-4 py-12 text-center text-slate-500">
                Loading leads...
              </td>
            </tr>
          )}
          {!loading && leads?.length === 0 && (
            <tr>
              <td colSpan={COLUMNS} className="px-4 py-12 text-center">
                <p className="font-medium text-slate-900">No leads found</p>
                <p className="mt-1 text-slate-500">
                  {filtered ? 'Try adjusting your search or filter' : 'Report requests from the site will appear here'}
                </p>
              </td>
            </tr>
          )}
          {leads?.map((lead) => (
            <tr
              key={lead.id}
              data-lead-id={lead.id}
              className="cursor-pointer border-b border-slate-100 last:border-0 hover:bg-slate-50"
              onClick={() => onOpen(lead)}
            >
              <td className="px-4 py-3 font-medium text-slate-900">{lead.full_name}</td>
              <td className="px-4 py-3 text-slate-600">{lead.email}</td>
              <td className="px-4 py-3 text-slate-600">{lead.agent_name ?? '—'}</td>
              <td className="px-4 py-3 text-slate-600">{lead.agent_location ?? '—'}</td>
              <td className="px-4 py-3">
                <LeadStatusBadge status={lead.status} />
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">
                <time dateTime={lead.created_at}>{format(new Date(lead.created_at), 'MMM d, yyyy h:mm a')}</time>
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatWaiting(waitingMs(lead, now))}</td>
              <td className="px-4 py-3 text-right">
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`View details for ${lead.full_name}`}
                  onClick={(event) => {
                    event.stopPropagation()
                    onOpen(lead)
                  }}
                >
                  View
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
