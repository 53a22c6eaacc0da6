import { Badge } from '@/components/ui/badge'
import { postState, type PostState } from '../api/blog-schemas'

const LABELS: Record<PostState, string> = { draft: 'Draft', scheduled: 'Scheduled', published: 'Published' }
const VARIANTS = { draft: 'warning', scheduled: 'info', published: 'success' } as const

/** Draft (amber), Scheduled (blue: published with a future date) or Published (green). */
export function BlogPostStatusBadge({
  post,
  now,
}: {
  post: { status: string; published_at: string | null }
  now?: Date
}) {
  const state = postState(post, now)
  return <Badge variant={VARIANTS[state]}>{LABELS[state]}</Badge>
}
