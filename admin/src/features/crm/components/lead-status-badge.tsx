import { cn } from '@/lib/utils'
import { LEAD_STATUS_LABELS, LeadStatusSchema } from '../api/crm-schemas'
import type { LeadStatus } from '../api/crm-schemas'

/** One colour per status, pending (needs attention) to closed (done). */
const STATUS_COLOURS: Record<LeadStatus, string> = {
  pending: 'bg-amber-100 text-amber-800',
  contacted: 'bg-blue-100 text-blue-800',
  qualified: 'bg-violet-100 text-violet-800',
  closed: 'bg-green-100 text-green-800',
}

/** The status of a lead as a coloured pill; an unknown value (should not happen: check constraint) is grey. */
export function LeadStatusBadge({ status }: { status: string }) {
  const parsed = LeadStatusSchema.safeParse(status)
  return (
    <span
      data-status={status}
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium',
        parsed.success ? STATUS_COLOURS[parsed.data] : 'bg-slate-100 text-slate-700',
      )}
    >
      {parsed.success ? LEAD_STATUS_LABELS[parsed.data] : status}
    </span>
  )
}
