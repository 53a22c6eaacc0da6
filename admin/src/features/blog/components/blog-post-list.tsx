import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { format } from 'date-fns'
import { lazy, Suspense, useState } from 'react'

import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { Select } from '@/components/ui/textarea'
import { useToast } from '@/components/ui/toast'
import { Alert } from '@/components/ui/alert'
import { navigate } from '@/lib/navigation'
import { useDeletePostMutation, usePublishPostMutation, useUnpublishPostMutation } from '../api/blog-mutations'
import type { PostListItem } from '../api/blog-queries'
import { postQueries } from '../api/blog-queries'
import type { PostStatusFilter } from '../api/blog-schemas'
import { PostStatusFilterSchema } from '../api/blog-schemas'
import { postUrl } from '@shared/urls.ts'

const SKELETON_ROWS = 5

// The preview pulls in the public site's HTML sanitizer, which is most of the bundle: load it on first use.
const BlogPostPreviewDialog = lazy(() =>
  import('./blog-post-preview-dialog').then((module) => ({ default: module.BlogPostPreviewDialog })),
)

function formatDate(value: string | null): string {
  return value ? format(new Date(value), 'MMM d, yyyy') : '—'
}

/** The Blog Posts tab: search, status filter, and one row per post with its actions. */
export function BlogPostList() {
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<PostStatusFilter>('all')
  const posts = useQuery({ ...postQueries.list({ search, status }), placeholderData: keepPreviousData })
  const filtered = search.trim() !== '' || status !== 'all'

  const [previewId, setPreviewId] = useState<string | null>(null)
  const [deleteTarget, setDeleteTarget] = useState<PostListItem | null>(null)
  const { toast } = useToast()
  const publish = usePublishPostMutation()
  const unpublish = useUnpublishPostMutation()
  const remove = useDeletePostMutation()

  const onError = (error: Error) => toast({ title: 'Error', description: error.message, variant: 'error' })

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <Input
          type="search"
          aria-label="Search posts"
          placeholder="Search posts by title..."
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="sm:max-w-xs"
        />
        <Select
          aria-label="Filter by status"
          value={status}
          onChange={(event) => setStatus(PostStatusFilterSchema.parse(event.target.value))}
          className="sm:w-40"
        >
          <option value="all">All Posts</option>
          <option value="draft">Drafts</option>
          <option value="published">Published</option>
        </Select>
        <Button className="sm:ml-auto" onClick={() => navigate('/admin/blog?new=1')}>
          New Post
        </Button>
      </div>

      {posts.isError && <Alert>Could not load posts: {posts.error.message}</Alert>}

      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">Title</th>
              <th scope="col" className="px-4 py-3">Status</th>
              <th scope="col" className="px-4 py-3">Category</th>
              <th scope="col" className="px-4 py-3">Created</th>
              <th scope="col" className="px-4 py-3">Published</th>
              <th scope="col" className="px-4 py-3 text-right">Actions</th>
            </tr>
          </thead>
          <tbody aria-busy={posts.isPending}>
            {posts.isPending &&
              Array.from({ length: SKELETON_ROWS }, (_, index) => (
                <tr key={index} data-testid="post-skeleton-row" className="border-b border-slate-100">
                  {Array.from({ length: 6 }, (_, cell) => (
                    <td key={cell} className="px-4 py-3">
                      <Skeleton className="h-4 w-full" />
                    </td>
                  ))}
                </tr>
              ))}
            {posts.isSuccess && posts.data.length === 0 && (
              <tr>
                <td colSpan={6} className="px-4 py-12 text-center">
                  <p className="font-medium text-slate-900">No posts found</p>
                  <p className="mt-1 text-slate-500">
                    {filtered ? 'Try adjusting your search or filter' : 'Create your first blog post to get started'}
                  </p>
                </td>
              </tr>
            )}
            {posts.data?.map((post) => {
              const published = post.status === 'published'
              return (
                <tr key={post.id} className="border-b border-slate-100 last:border-0">
                  <td className="px-4 py-3">
                    <p className="font-medium text-slate-900">{post.title}</p>
                    <p className="text-xs text-slate-500">/blog/{post.slug}</p>
                  </td>
                  <td className="px-4 py-3">
                    <Badge variant={published ? 'success' : 'warning'}>{published ? 'Published' : 'Draft'}</Badge>
                  </td>
                  <td className="px-4 py-3 text-slate-600">{post.blog_categories?.name ?? '—'}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatDate(post.created_at)}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-600">{published ? formatDate(post.published_at) : '—'}</td>
                  <td className="px-4 py-3">
                    <div className="flex flex-wrap justify-end gap-1">
                      {published && (
                        <Button asChild variant="ghost" size="sm">
                          <a href={postUrl(post.slug)} target="_blank" rel="noopener noreferrer">
                            View Live
                          </a>
                        </Button>
                      )}
                      <Button variant="ghost" size="sm" onClick={() => setPreviewId(post.id)}>
                        Preview
                      </Button>
                      <Button variant="ghost" size="sm" onClick={() => navigate(`/admin/blog?edit=${post.id}`)}>
                        Edit
                      </Button>
                      {published ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={unpublish.isPending}
                          onClick={() =>
                            unpublish.mutate(post.id, {
                              onSuccess: () => toast({ title: 'Post Unpublished', description: `"${post.title}" is now a draft.` }),
                              onError,
                            })
                          }
                        >
                          Unpublish
                        </Button>
                      ) : (
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={publish.isPending}
                          onClick={() =>
                            publish.mutate(post.id, {
                              onSuccess: () => toast({ title: 'Post Published', description: `"${post.title}" is live.` }),
                              onError,
                            })
                          }
                        >
                          Publish
                        </Button>
                      )}
                      <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50" onClick={() => setDeleteTarget(post)}>
                        Delete
                      </Button>
                    </div>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>

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
        description={`"${deleteTarget?.title ?? ''}" will be removed permanently. This cannot be undone.`}
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleteTarget) return
          const { id, title } = deleteTarget
          remove.mutate(id, {
            onSuccess: () => {
              setDeleteTarget(null)
              toast({ title: 'Post Deleted', description: `"${title}" was deleted.` })
            },
            onError: (error) => {
              setDeleteTarget(null)
              onError(error)
            },
          })
        }}
      />
    </div>
  )
}
