import { useMutation, useQueryClient } from '@tanstack/react-query'

import type { Database } from '@shared/database.types.ts'
import { dataOrThrow, supabase } from '@/lib/supabase'
import { useAfterPublicChange } from '@/features/site-status/api/site-status-mutations'
import { postKeys } from './blog-keys'
import type { PostFormOutput } from './blog-schemas'

/** Postgres unique_violation: the only unique column an editor can collide on is the slug. */
const UNIQUE_VIOLATION = '23505'

/** A write's answer, with a slug collision (the only unique column an editor can hit) said in words. */
async function writeOrThrow<TAnswer extends { data: unknown; error: Error | null }>(request: PromiseLike<TAnswer>) {
  try {
    return await dataOrThrow(request)
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION)
      throw new Error('A post with this slug already exists. Choose another slug.', { cause: error })
    throw error
  }
}

type PostUpdate = Database['public']['Tables']['blog_posts']['Update']

/** What a write returns: enough to follow a published post onto the public site. */
const WRITTEN_COLUMNS = 'id, slug, title, status, published_at'
type WrittenPost = { id: string; slug: string; title: string; status: string; published_at: string | null }

const isLive = (post: Pick<WrittenPost, 'status' | 'published_at'>) =>
  post.status === 'published' && post.published_at !== null && new Date(post.published_at).getTime() <= Date.now()

/**
 * Updates one post and returns what was written. An update that RLS hides from us matches no row without an error,
 * so "no row came back" is reported as an error rather than a silent success.
 */
async function updatePost(id: string, values: PostUpdate): Promise<WrittenPost> {
  const post = await writeOrThrow(
    supabase.from('blog_posts').update(values).eq('id', id).select(WRITTEN_COLUMNS).maybeSingle(),
  )
  if (!post) throw new Error('The post no longer exists or you may not change it.')
  return post
}

function useInvalidatePosts() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: postKeys.all })
}

/** Publishes a post now: status 'published', published_at the current time. */
export function usePublishPostMutation() {
  const invalidate = useInvalidatePosts()
  const afterPublicChange = useAfterPublicChange()
  return useMutation({
    mutationFn: (id: string) => updatePost(id, { status: 'published', published_at: new Date().toISOString() }),
    // the site-status notices offer 'View live post' after the rebuild this publish fired
    onSuccess: (post) => afterPublicChange(post),
    onSettled: invalidate,
  })
}

/** Takes a post off the site (status 'draft'); published_at is kept as the record of when it last went live. */
export function useUnpublishPostMutation() {
  const invalidate = useInvalidatePosts()
  const afterPublicChange = useAfterPublicChange()
  return useMutation({
    mutationFn: (id: string) => updatePost(id, { status: 'draft' }),
    onSuccess: () => afterPublicChange(),
    onSettled: invalidate,
  })
}

/** Moves a post to the trash (public.delete_post; restorable with its revisions from Deleted posts). */
export function useDeletePostMutation() {
  const invalidate = useInvalidatePosts()
  const afterPublicChange = useAfterPublicChange()
  return useMutation({
    mutationFn: async (id: string) => {
      const [deleted] = await dataOrThrow(supabase.rpc('delete_post', { post_id: id }))
      if (!deleted) throw new Error('The post no longer exists or you may not delete it.')
      return deleted
    },
    onSuccess: (deleted) => {
      if (isLive(deleted)) afterPublicChange()
    },
    onSettled: invalidate,
  })
}

export type SavePostInput = {
  /** Undefined for a new post. */
  id?: string
  values: PostFormOutput['fields']
  status: 'draft' | 'published'
  /** The published_at to write: kept for an update of a published post, now when publishing. */
  publishedAt: string | null
  /** Whether the post was live before this save (its edit or removal rebuilds the site). */
  wasLive?: boolean
}

/** Creates or updates a post from the editor; returns the row's id. */
export function useSavePostMutation() {
  const invalidate = useInvalidatePosts()
  const afterPublicChange = useAfterPublicChange()
  return useMutation({
    mutationFn: async ({ id, values, status, publishedAt }: SavePostInput) => {
      const row = { ...values, status, published_at: publishedAt }
      if (id) return updatePost(id, row)
      const { session } = await dataOrThrow(supabase.auth.getSession())
      return writeOrThrow(
        supabase
          .from('blog_posts')
          .insert({ ...row, author_id: session?.user.id ?? null })
          .select(WRITTEN_COLUMNS)
          .single(),
      )
    },
    // a newly published post gets a 'View live post' notice (the editor stamps it now); an edit of a live post
    // (or taking one down) is a public change too; a scheduled post waits for its time (the cron job rebuilds then)
    onSuccess: (post, { id, publishedAt, wasLive }) => {
      if (isLive(post) && publishedAt && Date.now() - new Date(publishedAt).getTime() < 60_000 && !wasLive)
        afterPublicChange(post)
      else if (isLive(post) || (id && wasLive)) afterPublicChange()
    },
    onSettled: invalidate,
  })
}
