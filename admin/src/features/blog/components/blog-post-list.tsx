import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { format } from 'date-fns'
import { lazy, Suspense, useState } from 'react'

import { Button } from '@/components/ui/button'
import { TrashButton } from '@/features/audit/components/trash-dialog'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Input } from '@/components/ui/input'
import { DATA_CARD_CLASS, DataCards, DataTable, EmptyState } from '@/components/ui/data-table'
import { useToast } from '@/components/ui/toast'
import { useIsMobile } from '@/hooks/use-media-query'
import { Alert } from '@/components/ui/alert'
import { useDeletePostMutation, usePublishPostMutation, useUnpublishPostMutation } from '../api/blog-mutations'
import type { PostListItem } from '../api/blog-queries'
import { postQueries } from '../api/blog-queries'
import type { PostStatusFilter } from '../api/blog-schemas'
import { postState } from '../api/blog-schemas'
import { postUrl } from '@shared/urls.ts'
import { BlogPostStatusBadge } from './blog-post-status-badge'
import { siteLink } from '@/lib/site-link'

const route = getRouteApi('/_shell/blog')

const SKELETON_ROWS = 5

const POST_COLUMNS = [
  { header: 'Title' },
  { header: 'Status' },
  { header: 'Category' },
  { header: 'Created' },
  { header: 'Published' },
  { header: 'Actions', className: 'text-right' },
]

// The preview pulls in the public site's HTML sanitizer, which is most of the bundle: load it on first use.
const BlogPostPreviewDialog = lazy(() =>
  import('./blog-post-preview-dialog').then((module) => ({ default: module.BlogPostPreviewDialog })),
)

/** The status filter's buttons, in display order. */
const STATUS_FILTERS: { value: PostStatusFilter; label: string }[] = [
  { value: 'all', label: 'All Posts' },
  { value: 'draft', label: 'Drafts' },
  { value: 'published', label: 'Published' },
]

/** A failed write's toast description: the error's own message, or the generic one when it has none. */
const failureText = (error: Error, fallback: string) => error.message.trim() || fallback

function formatDate(value: string | null): string {
  return value ? format(new Date(value), 'MMM d, yyyy') : '—'
}

/**
 * The Blog Posts tab: search (title or excerpt) and the All Posts / Drafts / Published filter (kept in the URL as
 * `?q=` and `?status=`, so they survive the editor and a reload), and one row per post with its actions: a table
 * from 768 px, cards below.
 */
export function BlogPostList() {
  const { q: search, status } = route.useSearch()
  const navigate = route.useNavigate()
  const posts = useQuery({ ...postQueries.list({ search, status }), placeholderData: keepPreviousData })
  const filtered = search.trim() !== '' || status !== 'all'
  const isMobile = useIsMobile()
  const empty =
    posts.isSuccess && posts.data.length === 0 ? (
      <EmptyState
        title="No blog posts found"
        hint={
          filtered ? 'Try adjusting your filters or search terms.' : 'Generate your first blog post to get started.'
        }
      />
    ) : null

  const [previewId, setPreviewId] = useState<string | null>(null)
  const [deleteTarget, setDeleteTarget] = useState<PostListItem | null>(null)
  const { toast } = useToast()
  const publish = usePublishPostMutation()
  const unpublish = useUnpublishPostMutation()
  const remove = useDeletePostMutation()

  function renderActions(post: PostListItem) {
    const live = postState(post) === 'published'
    // a published post (live or scheduled) can go back to draft; a draft can go out
    const toggle =
      post.status === 'published'
        ? {
            label: 'Unpublish',
            mutation: unpublish,
            onSuccess: () => toast({ title: 'Post Unpublished', description: 'Blog post status changed to draft' }),
            onError: (error: Error) =>
              toast({
                title: 'Update Failed',
                description: failureText(error, 'Failed to update post'),
                variant: 'error',
              }),
          }
        : {
            label: 'Publish',
            mutation: publish,
            onSuccess: () => toast({ title: 'Post Published', description: 'Blog post status changed to published' }),
            onError: (error: Error) =>
              toast({
                title: 'Publish Failed',
                description: failureText(error, 'Failed to publish post'),
                variant: 'error',
              }),
          }
    return (
      <div className="flex flex-wrap justify-end gap-1">
        {live && (
          <Button asChild variant="ghost" size="sm">
            <a href={siteLink(postUrl(post.slug))} target="_blank" rel="noopener noreferrer">
              View Live
            </a>
          </Button>
        )}
        <Button variant="ghost" size="sm" onClick={() => setPreviewId(post.id)}>
          Preview
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => void navigate({ search: (prev) => ({ ...prev, edit: post.id }) })}
        >
          Edit
        </Button>
        <Button
          variant="ghost"
          size="sm"
          disabled={toggle.mutation.isPending}
          onClick={() => toggle.mutation.mutate(post.id, { onSuccess: toggle.onSuccess, onError: toggle.onError })}
        >
          {toggle.label}
        </Button>
        <Button variant="ghost-destructive" size="sm" onClick={() => setDeleteTarget(post)}>
          Delete
        </Button>
      </div>
    )
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <Input
          type="search"
          aria-label="Search posts"
          placeholder="Search posts by title or excerpt..."
          defaultValue={search}
          onChange={(event) => void navigate({ search: (prev) => ({ ...prev, q: event.target.value }), replace: true })}
          className="sm:max-w-xs"
        />
        <div role="group" aria-label="Filter by status" className="flex gap-1">
          {STATUS_FILTERS.map((filter) => (
            <Button
              key={filter.value}
              size="sm"
              variant={status === filter.value ? 'default' : 'outline'}
              aria-pressed={status === filter.value}
              onClick={() => void navigate({ search: (prev) => ({ ...prev, status: filter.value }), replace: true })}
            >
              {filter.label}
            </Button>
          ))}
        </div>
        <div className="flex gap-2 sm:ml-auto">
          <TrashButton kind="post" />
          <Button onClick={() => void navigate({ search: (prev) => ({ ...prev, new: '1' }) })}>New Post</Button>
        </div>
      </div>

      {posts.isError && <Alert>Could not load posts: {posts.error.message}</Alert>}

      {!isMobile && (
        <DataTable columns={POST_COLUMNS} loading={posts.isPending} skeletonRows={SKELETON_ROWS} empty={empty}>
          {posts.data?.map((post) => (
            <tr key={post.id} className="border-b border-slate-100 last:border-0">
              <td className="px-4 py-3">
                <p className="font-medium text-slate-900">{post.title}</p>
                <p className="text-xs text-slate-500">/blog/{post.slug}</p>
              </td>
              <td className="px-4 py-3">
                <BlogPostStatusBadge post={post} />
              </td>
              <td className="px-4 py-3 text-slate-600">{post.blog_categories?.name ?? '—'}</td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatDate(post.created_at)}</td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">
                {post.status === 'published' ? formatDate(post.published_at) : '—'}
              </td>
              <td className="px-4 py-3">{renderActions(post)}</td>
            </tr>
          ))}
        </DataTable>
      )}

      {/* under 768 px: one card per post, title on its own line and the actions below it */}
      {isMobile && (
        <DataCards label="Blog posts" loading={posts.isPending} skeletonRows={SKELETON_ROWS} empty={empty}>
          {posts.data?.map((post) => (
            <li key={post.id} data-testid="post-card" className={DATA_CARD_CLASS}>
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="font-medium break-words text-slate-900">{post.title}</p>
                  <p className="truncate text-xs text-slate-500">/blog/{post.slug}</p>
                </div>
                <BlogPostStatusBadge post={post} />
              </div>
              <p className="mt-2 text-xs text-slate-500">
                {post.blog_categories?.name ?? 'No category'} · created {formatDate(post.created_at)}
                {post.status === 'published' ? ` · published ${formatDate(post.published_at)}` : ''}
              </p>
              <div className="mt-3 border-t border-slate-100 pt-2">{renderActions(post)}</div>
            </li>
          ))}
        </DataCards>
      )}

      {previewId && (
        <Suspense fallback={null}>
          <BlogPostPreviewDialog postId={previewId} onClose={() => setPreviewId(null)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={deleteTarget !== null}
        onOpenChange={(open) => {
          if (!open) setDeleteTarget(null)
        }}
        title="Delete this post?"
        description={`"${deleteTarget?.title ?? ''}" moves to the trash and leaves the site. Restore it from Deleted posts.`}
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleteTarget) return
          const { id } = deleteTarget
          remove.mutate(id, {
            onSuccess: () => {
              setDeleteTarget(null)
              toast({ title: 'Post Deleted', description: 'Blog post has been moved to the trash' })
            },
            onError: (error) => {
              setDeleteTarget(null)
              toast({
                title: 'Delete Failed',
                description: failureText(error, 'Failed to delete post'),
                variant: 'error',
              })
            },
          })
        }}
      />
    </div>
  )
}
