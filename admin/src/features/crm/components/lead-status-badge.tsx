import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { LEAD_STATUS_LABELS, LeadStatusSchema } from '../api/crm-schemas'
import type { LeadStatus } from '../api/crm-schemas'

/** One colour per status, pending (needs attention) to closed (done). */
const STATUS_VARIANTS: Record<LeadStatus, BadgeVariant> = {
  pending: 'warning',
  contacted: 'info',
  qualified: 'accent',
  closed: 'success',
}

/** The status of a lead as a coloured pill; an unknown value (should not happen: check constraint) is grey. */
export function LeadStatusBadge({ status }: { status: string }) {
  const parsed = LeadStatusSchema.safeParse(status)
  return (
    <Badge data-status={status} variant={parsed.success ? STATUS_VARIANTS[parsed.data] : 'default'}>
      {parsed.success ? LEAD_STATUS_LABELS[parsed.data] : status}
    </Badge>
  )
}
