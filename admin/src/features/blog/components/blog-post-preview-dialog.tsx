import { useQuery } from '@tanstack/react-query'
import { format } from 'date-fns'

import { renderPostContent } from '@shared/post-content.ts'
import { Badge } from '@/components/ui/badge'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { Skeleton } from '@/components/ui/skeleton'
import type { PostDetail } from '../api/blog-queries'
import { postQueries } from '../api/blog-queries'

type BlogPostPreviewDialogProps = {
  /** The post to show; null keeps the dialog closed. */
  postId: string | null
  onClose: () => void
}

/** The post as the public article renders it (same sanitizer, same heading ids), plus its insight cards. */
export function BlogPostPreviewDialog({ postId, onClose }: BlogPostPreviewDialogProps) {
  return (
    <Dialog
      open={postId !== null}
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
    >
      <DialogContent className="max-w-3xl" aria-describedby={undefined}>
        {postId && <PreviewBody postId={postId} />}
      </DialogContent>
    </Dialog>
  )
}

function PreviewBody({ postId }: { postId: string }) {
  const post = useQuery(postQueries.detail(postId))

  if (post.isPending) {
    return (
      <>
        <DialogTitle>Loading preview...</DialogTitle>
        <div className="mt-4 space-y-3">
          <Skeleton className="h-6 w-2/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-5/6" />
        </div>
      </>
    )
  }
  if (post.isError || !post.data.content.trim()) {
    return (
      <>
        <DialogTitle>{post.data?.title ?? 'Preview'}</DialogTitle>
        <p role="alert" className="mt-4 text-red-700">
          Failed to load post content.
        </p>
      </>
    )
  }
  return <PreviewArticle post={post.data} />
}

function PreviewArticle({ post }: { post: PostDetail }) {
  const { html } = renderPostContent(post.content)
  const date = post.published_at ?? post.created_at
  return (
    <article>
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
        <Badge variant={post.status === 'published' ? 'success' : 'warning'}>
          {post.status === 'published' ? 'Published' : 'Draft'}
        </Badge>
        {post.blog_categories && <span>{post.blog_categories.name}</span>}
        {post.location && <span>· {post.location}</span>}
        <span>· {format(new Date(date), 'MMMM d, yyyy')}</span>
      </div>
      <DialogTitle className="mt-2 text-2xl">{post.title}</DialogTitle>
      {post.excerpt && <DialogDescription className="text-base">{post.excerpt}</DialogDescription>}
      {post.featured_image_url && (
        <img src={post.featured_image_url} alt="" className="mt-4 max-h-72 w-full rounded-lg object-cover" />
      )}
      {post.insights.length > 0 && (
        <section aria-label="Key insights" className="mt-6 grid gap-3 sm:grid-cols-2">
          {post.insights.map((insight, index) => (
            <div key={index} className="rounded-lg border border-blue-100 bg-blue-50 p-3 text-sm text-blue-900">
              <p className="text-xs font-semibold tracking-wide text-blue-700 uppercase">Insight {index + 1}</p>
              <p className="mt-1">{insight}</p>
            </div>
          ))}
        </section>
      )}
      <div
        data-testid="post-preview-content"
        className="prose mt-6 max-w-none text-slate-800 [&_a]:text-blue-700 [&_a]:underline [&_h1]:mt-6 [&_h1]:text-2xl [&_h1]:font-bold [&_h2]:mt-6 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_p]:mt-3 [&_ul]:list-disc [&_[data-callout]]:mt-4 [&_[data-callout]]:rounded-lg [&_[data-callout]]:border [&_[data-callout]]:border-blue-100 [&_[data-callout]]:bg-blue-50 [&_[data-callout]]:p-4 [&_[data-callout]]:text-blue-900"
        // Safe: renderPostContent sanitizes against the public site's allow-list.
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </article>
  )
}
