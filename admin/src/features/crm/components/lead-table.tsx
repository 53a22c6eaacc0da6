import { format } from 'date-fns'

import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { DATA_CARD_CLASS, DataCards, DataTable, EmptyState } from '@/components/ui/data-table'
import { useIsMobile } from '@/hooks/use-media-query'
import type { Lead } from '../api/crm-schemas'
import { followUpState, formatWaiting, waitingMs } from '../api/crm-schemas'
import { LeadStatusBadge } from './lead-status-badge'

/** Marks a lead from the /contact form (report_requests.lead_type 'contact') beside its name. */
function ContactBadge() {
  return (
    <Badge variant="accent" className="ml-2 align-middle">
      Contact message
    </Badge>
  )
}

const LEAD_COLUMNS = [
  { header: 'Date' },
  { header: 'Name' },
  { header: 'Email' },
  { header: 'Agent Search' },
  { header: 'Status' },
  { header: 'Owner' },
  { header: 'Follow-up' },
  { header: 'Actions', className: 'text-right' },
]

const LOADING_TEXT = 'Loading report requests...'

type LeadTableProps = {
  leads: Lead[] | undefined
  loading: boolean
  /** True when a search or filter is applied (changes the empty-state hint). */
  filtered: boolean
  /** Reference time for the Waiting column of pending leads. */
  now: Date
  /** Today as 'yyyy-MM-dd' (the operator's day), for overdue follow-ups. */
  today: string
  /** Owner id → email. */
  owners: ReadonlyMap<string, string>
  selected: ReadonlySet<string>
  onToggle: (id: string, selected: boolean) => void
  onToggleAll: (selected: boolean) => void
  onOpen: (lead: Lead) => void
}

function FollowUp({ lead, today }: { lead: Lead; today: string }) {
  const state = followUpState(lead.follow_up_on, today)
  if (!state) return <span className="text-slate-500">—</span>
  const label = format(new Date(`${lead.follow_up_on}T00:00:00`), 'MMM d')
  if (state === 'overdue') return <span className="font-medium text-red-700">{label} (overdue)</span>
  if (state === 'today') return <span className="font-medium text-amber-700">{label} (today)</span>
  return <span>{label}</span>
}

/**
 * The leads: a table from 768 px (Date, Name, Email, Agent Search, Status, Owner, Follow-up, Waiting, Actions),
 * one card per lead below it. Rows have a checkbox for bulk status changes.
 */
export function LeadTable({
  leads,
  loading,
  filtered,
  now,
  today,
  owners,
  selected,
  onToggle,
  onToggleAll,
  onOpen,
}: LeadTableProps) {
  const isMobile = useIsMobile()
  const allSelected = Boolean(leads?.length) && leads!.every((lead) => selected.has(lead.id))
  const empty =
    !loading && leads?.length === 0 ? (
      <EmptyState
        title="No report requests found"
        hint={filtered ? 'Try adjusting your search or filters' : 'Report requests from the site will appear here'}
      />
    ) : null
  if (!isMobile) {
    const columns = [
      {
        header: (
          <input
            type="checkbox"
            aria-label="Select all leads on this page"
            checked={allSelected}
            onChange={(event) => onToggleAll(event.target.checked)}
          />
        ),
        className: 'w-10',
      },
      ...LEAD_COLUMNS,
    ]
    return (
      <DataTable columns={columns} loading={loading} loadingText={LOADING_TEXT} empty={empty}>
        {leads?.map((lead) => (
          <tr
            key={lead.id}
            data-lead-id={lead.id}
            className="border-b border-slate-100 last:border-0 hover:bg-slate-50"
          >
            <td className="px-4 py-3">
              <input
                type="checkbox"
                aria-label={`Select ${lead.full_name}`}
                checked={selected.has(lead.id)}
                onChange={(event) => onToggle(lead.id, event.target.checked)}
              />
            </td>
            <td className="px-4 py-3 whitespace-nowrap text-slate-600">
              <time dateTime={lead.created_at}>{format(new Date(lead.created_at), 'MMM dd, yyyy h:mm a')}</time>
              <span
                className="block text-xs text-slate-600"
                title="Time to first contact, or time since the request while pending"
              >
                waited {formatWaiting(waitingMs(lead, now))}
              </span>
            </td>
            <td className="px-4 py-3 font-medium text-slate-900">
              {lead.full_name}
              {lead.lead_type === 'contact' && <ContactBadge />}
            </td>
            <td className="px-4 py-3 text-slate-600">{lead.email}</td>
            <td className="px-4 py-3 text-slate-600">
              {lead.lead_type === 'contact' ? 'Contact form' : (lead.agent_name ?? '—')}
              {lead.agent_location && <span className="block text-xs text-slate-500">{lead.agent_location}</span>}
            </td>
            <td className="px-4 py-3">
              <LeadStatusBadge status={lead.status} />
            </td>
            <td className="px-4 py-3 text-slate-600">
              {lead.owner_id ? (owners.get(lead.owner_id) ?? 'Unknown') : 'Unassigned'}
            </td>
            <td className="px-4 py-3 whitespace-nowrap text-slate-600">
              <FollowUp lead={lead} today={today} />
            </td>
            <td className="px-4 py-3 text-right">
              <Button
                variant="ghost"
                size="sm"
                aria-label={`View details for ${lead.full_name}`}
                onClick={() => onOpen(lead)}
              >
                View
              </Button>
            </td>
          </tr>
        ))}
      </DataTable>
    )
  }
  // under 768 px: cards, the action inside the card rather than 700 px to the right
  return (
    <DataCards label="Report requests" loading={loading} loadingText={LOADING_TEXT} empty={empty}>
      {leads?.map((lead) => (
        <li key={lead.id} data-lead-card={lead.id} className={DATA_CARD_CLASS}>
          <div className="flex items-start gap-3">
            <input
              type="checkbox"
              className="mt-1"
              aria-label={`Select ${lead.full_name}`}
              checked={selected.has(lead.id)}
              onChange={(event) => onToggle(lead.id, event.target.checked)}
            />
            <div className="min-w-0 flex-1">
              <div className="flex items-start justify-between gap-2">
                <p className="font-medium break-words text-slate-900">
                  {lead.full_name}
                  {lead.lead_type === 'contact' && <ContactBadge />}
                </p>
                <LeadStatusBadge status={lead.status} />
              </div>
              <p className="truncate text-sm text-slate-600">{lead.email}</p>
              <p className="mt-1 text-xs text-slate-500">
                {format(new Date(lead.created_at), 'MMM dd, yyyy h:mm a')} ·{' '}
                {lead.lead_type === 'contact' ? 'Contact form' : (lead.agent_name ?? 'No agent')}
                {lead.agent_location ? `, ${lead.agent_location}` : ''}
              </p>
              <p className="mt-1 text-xs text-slate-500">
                {lead.owner_id ? (owners.get(lead.owner_id) ?? 'Unknown') : 'Unassigned'} · follow-up{' '}
                <FollowUp lead={lead} today={today} />
              </p>
              <Button
                variant="outline"
                size="sm"
                className="mt-3 w-full"
                aria-label={`View details for ${lead.full_name}`}
                onClick={() => onOpen(lead)}
              >
                View
              </Button>
            </div>
          </div>
        </li>
      ))}
    </DataCards>
  )
}
