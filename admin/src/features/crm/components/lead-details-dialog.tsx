import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { format } from 'date-fns'
import { useId, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import type { z } from 'zod'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Dialog, DialogCloseFooter, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormField, Label } from '@/components/ui/label'
import { Select, Textarea } from '@/components/ui/textarea'
import { useToast } from '@/components/ui/toast'
import { Input } from '@/components/ui/input'
import {
  useAddLeadNoteMutation,
  useAssignLeadMutation,
  useMergeLeadsMutation,
  useSetFollowUpMutation,
  useUpdateLeadStatusMutation,
  useDeleteLeadMutation,
} from '../api/crm-mutations'
import { leadNoteQueries } from '../api/crm-queries'
import type { Lead } from '../api/crm-schemas'
import { describeLeadSource } from '@shared/lead-source.ts'
import {
  duplicatesOf,
  formatWaiting,
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  LeadNoteFormSchema,
  LeadStatusSchema,
  emailConfirmation,
  reportDelivery,
  waitingMs,
} from '../api/crm-schemas'

const NOT_PROVIDED = 'Not provided'

function formatDateTime(value: string | null): string | null {
  return value ? format(new Date(value), 'MMM d, yyyy h:mm a') : null
}

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  const empty = value == null || value.trim() === ''
  return (
    <div>
      <dt className="text-xs font-medium text-slate-500 uppercase">{label}</dt>
      <dd className={empty ? 'text-slate-500 italic' : 'break-words text-slate-900'}>{empty ? NOT_PROVIDED : value}</dd>
    </div>
  )
}

type LeadDetailsDialogProps = {
  /** The lead as the cache holds it; the dialog shows what the database stored. */
  lead: Lead
  /** Every lead, to find this one's duplicates (same email). */
  allLeads: readonly Lead[]
  /** Administrators who can own a lead. */
  admins: readonly { id: string; email: string }[]
  customerType: 'Returning' | 'New'
  now: Date
  onClose: () => void
}

/**
 * Lead Details: every field ('Not provided' when empty), the customer type and source, and the pipeline: status,
 * owner, next follow-up, the notes history (add a note; each is timestamped with its author) and, when other
 * requests share the email, merging them into this one. What is shown changes only after a successful write.
 */
export function LeadDetailsDialog({ lead, allLeads, admins, customerType, now, onClose }: LeadDetailsDialogProps) {
  const { toast } = useToast()
  const statusMutation = useUpdateLeadStatusMutation()
  const assign = useAssignLeadMutation()
  const followUp = useSetFollowUpMutation()
  const addNote = useAddLeadNoteMutation()
  const merge = useMergeLeadsMutation()
  const notes = useQuery(leadNoteQueries.list(lead.id))
  const noteForm = useForm<z.input<typeof LeadNoteFormSchema>, unknown, z.output<typeof LeadNoteFormSchema>>({
    resolver: zodResolver(LeadNoteFormSchema),
    defaultValues: { body: '' },
  })
  const draft = useWatch({ control: noteForm.control, name: 'body' })
  const noteError = noteForm.formState.errors.body?.message
  const statusId = useId()
  const ownerId = useId()
  const followUpId = useId()
  const noteId = useId()
  const duplicates = duplicatesOf(lead, allLeads)
  const authorEmail = (id: string | null) =>
    id ? (admins.find((admin) => admin.id === id)?.email ?? 'Former administrator') : 'Imported'
  const source = describeLeadSource(lead)
  const fail = (title: string) => (error: Error) => toast({ title, description: error.message, variant: 'error' })

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
    >
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto">
        <DialogTitle>Lead Details</DialogTitle>
        <DialogDescription>
          {lead.lead_type === 'contact' ? 'Contact message' : 'Report request'} from {lead.full_name}, received{' '}
          {formatDateTime(lead.created_at)}.
        </DialogDescription>

        <dl className="mt-5 grid gap-4 text-sm sm:grid-cols-2">
          <Field label="Name" value={lead.full_name} />
          <Field label="Email" value={lead.email} />
          {lead.lead_type === 'contact' && (
            <div className="sm:col-span-2">
              <Field label="Message" value={lead.message} />
            </div>
          )}
          <Field label="Email Confirmed" value={emailConfirmation(lead)} />
          <Field label="Phone" value={lead.phone} />
          <Field label="Property Address" value={lead.property_address} />
          <Field label="Agent" value={lead.agent_name} />
          <Field label="Agent Location" value={lead.agent_location} />
          <Field label="Customer Type" value={`${customerType} Customer`} />
          <Field label="Source" value={source} />
          <Field label="Created" value={formatDateTime(lead.created_at)} />
          <Field label="First Contacted" value={formatDateTime(lead.contacted_at)} />
          <Field label="Waiting" value={formatWaiting(waitingMs(lead, now))} />
          <Field
            label="PDF Report"
            value={lead.report_sent_at ? `Sent ${formatDateTime(lead.report_sent_at)}` : reportDelivery(lead).text}
          />
        </dl>

        <div className="mt-6 space-y-4">
          <FormField htmlFor={statusId} label="Status">
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
                        title: 'Status updated successfully',
                        description: `${stored.full_name} is now ${LEAD_STATUS_LABELS[status]}.`,
                      }),
                    onError: fail('Failed to update status'),
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
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField htmlFor={ownerId} label="Owner">
              <Select
                id={ownerId}
                value={lead.owner_id ?? ''}
                disabled={assign.isPending}
                onChange={(event) => {
                  const owner = event.target.value || null
                  assign.mutate(
                    { id: lead.id, ownerId: owner },
                    {
                      onSuccess: () =>
                        toast({
                          title: 'Owner Updated',
                          description: owner
                            ? `${lead.full_name} is assigned to ${authorEmail(owner)}.`
                            : `${lead.full_name} is unassigned.`,
                        }),
                      onError: fail('Failed to update owner'),
                    },
                  )
                }}
              >
                <option value="">Unassigned</option>
                {admins.map((admin) => (
                  <option key={admin.id} value={admin.id}>
                    {admin.email}
                  </option>
                ))}
              </Select>
            </FormField>
            <FormField htmlFor={followUpId} label="Next follow-up">
              <Input
                id={followUpId}
                type="date"
                defaultValue={lead.follow_up_on ?? ''}
                disabled={followUp.isPending}
                onBlur={(event) => {
                  const value = event.target.value
                  if (value === (lead.follow_up_on ?? '')) return
                  followUp.mutate(
                    { id: lead.id, followUpOn: value },
                    {
                      onSuccess: () =>
                        toast({
                          title: 'Follow-up Set',
                          description: value ? `Follow up on ${value}.` : 'No follow-up planned.',
                        }),
                      onError: fail('Failed to set follow-up'),
                    },
                  )
                }}
              />
            </FormField>
          </div>

          <section aria-labelledby={`${noteId}-heading`} className="space-y-2">
            <h3 id={`${noteId}-heading`} className="text-sm font-semibold">
              Notes
            </h3>
            {notes.isPending && <p className="text-sm text-slate-500">Loading notes...</p>}
            {notes.isError && <Alert>Could not load notes: {notes.error.message}</Alert>}
            {notes.isSuccess && notes.data.length === 0 && <p className="text-sm text-slate-500">No notes yet.</p>}
            {notes.isSuccess && notes.data.length > 0 && (
              <ol aria-label="Notes history" className="space-y-2">
                {notes.data.map((note) => (
                  <li key={note.id} className="rounded-md border border-slate-200 bg-slate-50 p-2 text-sm">
                    <p className="whitespace-pre-wrap">{note.body}</p>
                    <p className="mt-1 text-xs text-slate-500">
                      {authorEmail(note.author_id)} ·{' '}
                      <time dateTime={note.created_at}>{formatDateTime(note.created_at)}</time>
                    </p>
                  </li>
                ))}
              </ol>
            )}
            <form
              className="space-y-2"
              noValidate
              onSubmit={noteForm.handleSubmit(({ body }) =>
                addNote.mutate(
                  { leadId: lead.id, body },
                  {
                    onSuccess: () => {
                      noteForm.reset()
                      toast({ title: 'Notes updated successfully', description: 'The note is in the history.' })
                    },
                    onError: fail('Failed to update notes'),
                  },
                ),
              )}
            >
              <Label htmlFor={noteId}>New note</Label>
              <Textarea
                id={noteId}
                rows={3}
                maxLength={5000}
                aria-invalid={noteError ? true : undefined}
                {...noteForm.register('body')}
              />
              {noteError && <p className="text-xs font-medium text-red-700">{noteError}</p>}
              <Button type="submit" size="sm" disabled={addNote.isPending || draft.trim() === ''}>
                {addNote.isPending ? 'Adding...' : 'Add Note'}
              </Button>
            </form>
          </section>

          {duplicates.length > 0 && (
            <section aria-label="Duplicates" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
              <p className="font-medium">
                {duplicates.length} other {duplicates.length === 1 ? 'request' : 'requests'} with this email
              </p>
              <ul className="mt-1 list-disc pl-5 text-slate-700">
                {duplicates.map((other) => (
                  <li key={other.id}>
                    {formatDateTime(other.created_at)} · {other.agent_name ?? 'no agent'} ·{' '}
                    {LEAD_STATUS_LABELS[LeadStatusSchema.catch('pending').parse(other.status)]}
                  </li>
                ))}
              </ul>
              <Button
                size="sm"
                variant="outline"
                className="mt-2"
                disabled={merge.isPending}
                onClick={() =>
                  merge.mutate(
                    { keepId: lead.id, mergeIds: duplicates.map((other) => other.id) },
                    {
                      onSuccess: (count) =>
                        toast({
                          title: 'Leads Merged',
                          description: `${count} duplicate requests were merged into this lead.`,
                        }),
                      onError: fail('Failed to merge leads'),
                    },
                  )
                }
              >
                Merge into this lead
              </Button>
            </section>
          )}
        </div>
        <div className="mt-6 flex items-center justify-between gap-2">
          <LeadDeleteButton lead={lead} onDeleted={onClose} />
          <DialogCloseFooter className="mt-0" />
        </div>
      </DialogContent>
    </Dialog>
  )
}

/** Moves the lead to the trash after a confirmation; it can be restored from Deleted leads. */
function LeadDeleteButton({ lead, onDeleted }: { lead: Lead; onDeleted: () => void }) {
  const remove = useDeleteLeadMutation()
  const { toast } = useToast()
  const [confirming, setConfirming] = useState(false)
  return (
    <>
      <Button variant="outline" onClick={() => setConfirming(true)} disabled={remove.isPending}>
        Delete lead
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this lead?"
        description={`The request from ${lead.full_name} moves to the trash with its notes. Restore it from Deleted leads.`}
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        // awaited rather than mutate's callbacks: the refreshed list drops the lead, which closes this dialog
        // before those callbacks would run
        onConfirm={async () => {
          try {
            await remove.mutateAsync(lead.id)
            toast({ title: 'Lead Deleted', description: `${lead.full_name} was moved to the trash.` })
            onDeleted()
          } catch (error) {
            toast({ title: 'Failed to delete lead', description: (error as Error).message, variant: 'error' })
          } finally {
            setConfirming(false)
          }
        }}
      />
    </>
  )
}
