import { format } from 'date-fns'
import { useId, useRef, useState } from 'react'

import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { Select, Textarea } from '@/components/ui/textarea'
import { useToast } from '@/components/ui/toast'
import { useUpdateLeadNotesMutation, useUpdateLeadStatusMutation } from '../api/crm-mutations'
import type { Lead } from '../api/crm-schemas'
import { formatWaiting, LEAD_STATUS_LABELS, LEAD_STATUSES, LeadStatusSchema, reportDelivery, waitingMs } from '../api/crm-schemas'

const NOT_PROVIDED = 'Not provided'

function formatDateTime(value: string | null): string | null {
  return value ? format(new Date(value), 'MMM d, yyyy h:mm a') : null
}

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  const empty = value == null || value.trim() === ''
  return (
    <div>
      <dt className="text-xs font-medium text-slate-500 uppercase">{label}</dt>
      <dd className={empty ? 'text-slate-400 italic' : 'break-words text-slate-900'}>{empty ? NOT_PROVIDED : value}</dd>
    </div>
  )
}

type LeadDetailsDialogProps = {
  /** The lead as the cache holds it; the dialog shows what the database stored. */
  lead: Lead
  customerType: 'Returning' | 'New'
  now: Date
  onClose: () => void
}

/**
 * Lead Details: every field ('Not provided' when empty), the customer type, a status selector and the notes,
 * saved when the textarea loses focus. The shown status and stored notes change only after a successful write.
 */
export function LeadDetailsDialog({ lead, customerType, now, onClose }: LeadDetailsDialogProps) {
  const { toast } = useToast()
  const statusMutation = useUpdateLeadStatusMutation()
  const notesMutation = useUpdateLeadNotesMutation()
  const [notes, setNotes] = useState(lead.notes ?? '')
  // the notes last sent to the server, so a blur followed by closing the dialog saves once
  const submittedNotes = useRef(lead.notes ?? '')
  const statusId = useId()
  const notesId = useId()

  const saveNotes = () => {
    if (notes === submittedNotes.current) return
    const previous = submittedNotes.current
    submittedNotes.current = notes
    notesMutation.mutate(
      { id: lead.id, notes },
      {
        onSuccess: (stored) => {
          toast({ title: 'Notes Saved', description: `Notes for ${stored.full_name} were saved.` })
        },
        onError: (error) => {
          submittedNotes.current = previous
          toast({ title: 'Notes Not Saved', description: error.message, variant: 'error' })
        },
      },
    )
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (open) return
        // Escape closes without a blur event; keep what was typed
        saveNotes()
        onClose()
      }}
    >
      <DialogContent className="max-w-2xl">
        <DialogTitle>Lead Details</DialogTitle>
        <DialogDescription>
          Report request from {lead.full_name}, received {formatDateTime(lead.created_at)}.
        </DialogDescription>

        <dl className="mt-5 grid gap-4 text-sm sm:grid-cols-2">
          <Field label="Name" value={lead.full_name} />
          <Field label="Email" value={lead.email} />
          <Field label="Phone" value={lead.phone} />
          <Field label="Property Address" value={lead.property_address} />
          <Field label="Agent" value={lead.agent_name} />
          <Field label="Agent Location" value={lead.agent_location} />
          <Field label="Customer Type" value={customerType} />
          <Field label="Created" value={formatDateTime(lead.created_at)} />
          <Field label="First Contacted" value={formatDateTime(lead.contacted_at)} />
          <Field label="Waiting" value={formatWaiting(waitingMs(lead, now))} />
          <Field
            label="PDF Report"
            value={lead.report_sent_at ? `Sent ${formatDateTime(lead.report_sent_at)}` : reportDelivery(lead).text}
          />
        </dl>

        <div className="mt-6 space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor={statusId}>Status</Label>
            <Select
              id={statusId}
              value={lead.status}
              disabled={statusMutation.isPending}
              onChange={(event) => {
                const status = LeadStatusSchema.parse(event.target.value)
                statusMutation.mutate(
                  { id: lead.id, status },
                  {
                    onSuccess: (stored) =>
                      toast({
                        title: 'Status Updated',
                        description: `${stored.full_name} is now ${LEAD_STATUS_LABELS[status]}.`,
                      }),
                    onError: (error) => toast({ title: 'Status Not Updated', description: error.message, variant: 'error' }),
                  },
                )
              }}
            >
              {LEAD_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {LEAD_STATUS_LABELS[status]}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={notesId}>Notes</Label>
            <Textarea
              id={notesId}
              rows={5}
              maxLength={10_000}
              placeholder="Add notes about this lead (saved when you leave the field)"
              value={notes}
              onChange={(event) => setNotes(event.target.value)}
              onBlur={saveNotes}
            />
            <p className="text-xs text-slate-500" aria-live="polite">
              {notesMutation.isPending ? 'Saving notes...' : 'Notes are saved when you leave the field.'}
            </p>
          </div>
        </div>
        <div className="mt-6 flex justify-end">
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </div>
      </DialogContent>
    </Dialog>
  )
}
