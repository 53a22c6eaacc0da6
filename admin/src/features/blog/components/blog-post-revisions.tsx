import { useQuery } from '@tanstack/react-query'
import { format } from 'date-fns'

import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { adminQueries } from '@/features/crm/api/crm-queries'
import type { RevisionSnapshot } from '../api/blog-queries'
import { revisionQueries } from '../api/blog-queries'

type BlogPostRevisionsProps = {
  postId: string
  /** Puts a revision's fields into the editor; saving then keeps it (and records a new revision). */
  onRestore: (snapshot: RevisionSnapshot, savedAt: string) => void
}

/**
 * The post's saved revisions, newest first: when, who (an administrator's email, or 'system' for saves by the AI
 * pipeline or imports) and the title then; each can be viewed (its text) and restored into the editor.
 */
export function BlogPostRevisions({ postId, onRestore }: BlogPostRevisionsProps) {
  const revisions = useQuery(revisionQueries.list(postId))
  const admins = useQuery(adminQueries.list())
  const who = (id: string | null) =>
    id ? (admins.data?.find((admin) => admin.id === id)?.email ?? 'a former administrator') : 'system'

  return (
    <section aria-labelledby="revisions-heading" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="revisions-heading" className="font-semibold">
        Revisions
      </h2>
      {revisions.isPending && <Skeleton className="mt-3 h-12 w-full" />}
      {revisions.isError && (
        <p className="mt-2 text-sm text-red-700">Could not load revisions: {revisions.error.message}</p>
      )}
      {revisions.isSuccess && revisions.data.length === 0 && (
        <p className="mt-2 text-sm text-slate-500">No revisions yet.</p>
      )}
      {revisions.isSuccess && revisions.data.length > 0 && (
        <ol aria-label="Revisions" className="mt-2 divide-y divide-slate-100 text-sm">
          {revisions.data.map((revision, index) => (
            <li key={revision.id} className="py-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  <time dateTime={revision.saved_at}>
                    {format(new Date(revision.saved_at), 'MMM d, yyyy HH:mm:ss')}
                  </time>{' '}
                  by {who(revision.saved_by)}
                  {index === 0 && <span className="ml-1 text-xs text-slate-500">(current)</span>}
                </span>
                {index > 0 && (
                  <Button variant="outline" size="sm" onClick={() => onRestore(revision.snapshot, revision.saved_at)}>
                    Restore
                  </Button>
                )}
              </div>
              <details className="mt-1">
                <summary className="cursor-pointer text-xs text-blue-700">View “{revision.snapshot.title}”</summary>
                <div className="mt-1 max-h-40 overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap">
                  {revision.snapshot.content.replace(/<[^>]*>/g, ' ')}
                </div>
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
