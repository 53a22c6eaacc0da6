import { zodResolver } from '@hookform/resolvers/zod'
import { useId } from 'react'
import { useForm, useWatch } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormField, fieldErrorId } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { useToast } from '@/components/ui/toast'
import { useDecideMutation } from '../api/agents-mutations'
import {
  DECIDED_LABELS,
  DECISION_LABELS,
  decisionFormSchema,
  kindLabel,
  reasonRequired,
  type Decision,
  type DecisionForm,
  type ReviewItem,
} from '../api/agents-schemas'

const SUBJECT_WORDS = { claim: 'claim', correction: 'correction', visibility: 'visibility request' } as const

/** What deciding does, said before the administrator confirms. */
function consequence(item: ReviewItem, decision: Decision): string {
  const agent = item.agent?.name ?? 'this agent'
  if (item.subject === 'claim') {
    if (decision === 'approve') return `${item.email ?? 'The user'} becomes the owner of ${agent}'s profile.`
    if (decision === 'revoke')
      return `${agent}'s profile is unclaimed again; the bio, specialties, languages and photo its owner wrote are removed.`
    return 'The claim is closed; the user may claim again.'
  }
  if (item.subject === 'correction') {
    if (decision === 'accept')
      return `${kindLabel(item.kind)}: the figures of ${agent} are recomputed with it at once. The MLS record is not changed.`
    return `${kindLabel(item.kind)}: nothing changes on the profile.`
  }
  return decision === 'accept'
    ? `The profile of ${agent} is shown as requested after the next build.`
    : 'Nothing changes on the profile.'
}

/**
 * Confirms a decision on a claim, correction or visibility request with a reason mailed to the agent (required to
 * reject or revoke). The dialog stays open with the function's message when the decision is refused.
 */
export function DecisionDialog({
  item,
  decision,
  onClose,
}: {
  item: ReviewItem
  decision: Decision
  onClose: () => void
}) {
  const { toast } = useToast()
  const mutation = useDecideMutation()
  const reasonId = useId()
  const form = useForm<DecisionForm>({
    resolver: zodResolver(decisionFormSchema(decision)),
    defaultValues: { reason: '' },
  })
  const reasonError = form.formState.errors.reason?.message
  const draft = useWatch({ control: form.control, name: 'reason' })
  const title = `${DECISION_LABELS[decision]} ${SUBJECT_WORDS[item.subject]}`

  const submit = form.handleSubmit(({ reason }) =>
    mutation.mutate(
      { subject: item.subject, id: item.id, decision, ...(reason ? { reason } : {}) },
      {
        onSuccess: ({ mailed }) => {
          toast({
            title: DECIDED_LABELS[decision],
            description: mailed > 0 ? 'The agent was emailed.' : 'The email will be sent with the next decision.',
          })
          onClose()
        },
      },
    ),
  )

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
    >
      <DialogContent>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{consequence(item, decision)}</DialogDescription>
        <form className="mt-4 space-y-4" onSubmit={submit} noValidate>
          <FormField
            htmlFor={reasonId}
            label={
              reasonRequired(decision) ? 'Reason (emailed to the agent)' : 'Reason (optional, emailed to the agent)'
            }
            counter={`${draft.length}/1000`}
            error={reasonError}
          >
            <Textarea
              id={reasonId}
              rows={4}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? fieldErrorId(reasonId) : undefined}
              {...form.register('reason')}
            />
          </FormField>
          {mutation.isError && <Alert>{mutation.error.message}</Alert>}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant={decision === 'reject' || decision === 'revoke' ? 'destructive' : 'default'}
              disabled={mutation.isPending}
            >
              {mutation.isPending ? 'Saving…' : DECISION_LABELS[decision]}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
