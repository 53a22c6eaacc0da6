import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogCloseFooter, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { useRestoreMutation } from '../api/audit-mutations'
import { trashQueries } from '../api/audit-queries'
import type { TrashKind } from '../api/audit-schemas'

const WORDS: Record<TrashKind, { button: string; title: string; description: string; empty: string; item: string }> = {
  lead: {
    button: 'Deleted leads',
    title: 'Deleted leads',
    description: 'Leads moved to the trash, with their notes. Restore one to bring it back to the CRM.',
    empty: 'No deleted leads.',
    item: 'Lead',
  },
  post: {
    button: 'Deleted posts',
    title: 'Deleted posts',
    description:
      'Posts moved to the trash, with their revisions. A restored published post goes live again after the rebuild.',
    empty: 'No deleted posts.',
    item: 'Post',
  },
}

function formatDateTime(value: string): string {
  return new Date(value).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })
}

/**
 * The trash of leads or posts: a button opening a dialog that lists what was deleted, when and by whom, with Restore
 * on each (public.trash_items, public.restore_lead / restore_post). Nothing an administrator deletes is gone.
 */
export function TrashButton({ kind }: { kind: TrashKind }) {
  const [open, setOpen] = useState(false)
  const words = WORDS[kind]
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" onClick={() => setOpen(true)}>
        {words.button}
      </Button>
      {open && (
        <DialogContent className="max-w-2xl">
          <DialogTitle>{words.title}</DialogTitle>
          <DialogDescription>{words.description}</DialogDescription>
          <TrashList kind={kind} />
          <DialogCloseFooter />
        </DialogContent>
      )}
    </Dialog>
  )
}

function TrashList({ kind }: { kind: TrashKind }) {
  const items = useQuery(trashQueries.list(kind))
  const restore = useRestoreMutation(kind)
  const { toast } = useToast()
  const words = WORDS[kind]

  if (items.isPending)
    return (
      <div role="status" className="mt-4 space-y-2">
        <span className="sr-only">Loading the trash</span>
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    )
  if (items.isError) return <Alert className="mt-4">Could not load the trash: {items.error.message}</Alert>
  if (items.data.length === 0) return <p className="mt-6 text-center text-sm text-slate-500">{words.empty}</p>
  return (
    <>
      {restore.error && <Alert className="mt-4">Could not restore: {restore.error.message}</Alert>}
      <ul className="mt-4 divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label={words.title}>
        {items.data.map((item) => (
          <li key={item.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-slate-900">{item.title}</p>
              <p className="truncate text-xs text-slate-500">{item.detail}</p>
              <p className="text-xs text-slate-500">
                Deleted {formatDateTime(item.deleted_at)}
                {item.deleted_by_email ? ` by ${item.deleted_by_email}` : ''}
              </p>
            </div>
            <Button
              variant="outline"
              size="sm"
              aria-label={`Restore ${item.title}`}
              disabled={restore.isPending}
              onClick={() =>
                restore.mutate(item.id, {
                  onSuccess: () => toast({ title: `${words.item} Restored`, description: `"${item.title}" is back.` }),
                })
              }
            >
              Restore
            </Button>
          </li>
        ))}
      </ul>
    </>
  )
}
