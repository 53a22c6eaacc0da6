import { queryOptions } from '@tanstack/react-query'
import { endOfMonth, format, parse, startOfMonth } from 'date-fns'
import { z } from 'zod'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { categoryKeys, postKeys } from './blog-keys'
import type { PostFilters } from './blog-schemas'

/** Columns the admin list shows; the body stays on the server until a post is previewed or edited. */
const LIST_COLUMNS = 'id, title, slug, excerpt, status, published_at, created_at, updated_at, blog_categories(name)'

/**
 * A substring search as one value of a PostgREST `or=(...)` filter: LIKE wildcards escaped (a search for '50%'
 * matches the text '50%'), and the characters that structure the filter (`,` `(` `)` `"`) matched by LIKE's one-character
 * wildcard instead, so they stay part of the search without quoting (which not every PostgREST implementation reads).
 */
function orFilterPattern(search: string): string {
  const escaped = search.replace(/[\\%_]/g, (char) => `\\${char}`).replace(/[,()"]/g, '_')
  return `%${escaped}%`
}

export const postQueries = {
  /**
   * Every post (drafts too, which RLS shows admins only), newest first, filtered by status and by a case-insensitive
   * substring of the title or the excerpt.
   */
  list: (filters: PostFilters) =>
    queryOptions({
      queryKey: postKeys.list(filters),
      queryFn: ({ signal }) => {
        let query = supabase.from('blog_posts').select(LIST_COLUMNS).order('created_at', { ascending: false })
        if (filters.status !== 'all') query = query.eq('status', filters.status)
        const search = filters.search.trim()
        if (search) query = query.or(`title.ilike.${orFilterPattern(search)},excerpt.ilike.${orFilterPattern(search)}`)
        return dataOrThrow(query.abortSignal(signal))
      },
    }),

  /** One post with every column, for the editor and the preview. */
  detail: (id: string) =>
    queryOptions({
      queryKey: postKeys.detail(id),
      queryFn: ({ signal }) =>
        dataOrThrow(
          supabase
            .from('blog_posts')
            .select('*, blog_categories(name, slug)')
            .eq('id', id)
            .abortSignal(signal)
            .single(),
        ),
    }),

  /**
   * Posts placed in the month containing `monthStart`: by published_at, or created_at when the post has never
   * been published (the calendar's rule).
   */
  month: (monthStart: Date) =>
    queryOptions({
      queryKey: postKeys.month(format(monthStart, 'yyyy-MM')),
      queryFn: ({ queryKey, signal }) => {
        const month = parse(queryKey[2], 'yyyy-MM', new Date())
        const from = startOfMonth(month).toISOString()
        const to = endOfMonth(month).toISOString()
        return dataOrThrow(
          supabase
            .from('blog_posts')
            .select('id, title, slug, status, published_at, created_at')
            .or(
              `and(published_at.gte."${from}",published_at.lte."${to}"),and(published_at.is.null,created_at.gte."${from}",created_at.lte."${to}")`,
            )
            .order('created_at', { ascending: true })
            .abortSignal(signal),
        )
      },
    }),
}

/** A revision's snapshot (blog_post_revisions.snapshot, written by trigger): the editable columns as saved. */
export const RevisionSnapshotSchema = z.object({
  title: z.string(),
  slug: z.string(),
  content: z.string(),
  excerpt: z.string().nullable(),
  featured_image_url: z.string().nullable(),
  category_id: z.string().nullable(),
  meta_title: z.string().nullable(),
  meta_description: z.string().nullable(),
  location: z.string().nullable(),
  hack_density_score: z.number().nullable(),
  insights: z.array(z.string()),
  published_at: z.string().nullable(),
})
export type RevisionSnapshot = z.infer<typeof RevisionSnapshotSchema>

export const revisionQueries = {
  /** The newest 50 revisions of a post with who saved them (admin emails come from public.list_admins()). */
  list: (postId: string) =>
    queryOptions({
      queryKey: postKeys.revisions(postId),
      queryFn: async ({ signal }) => {
        const data = await dataOrThrow(
          supabase
            .from('blog_post_revisions')
            .select('id, saved_at, saved_by, status, snapshot')
            .eq('post_id', postId)
            .order('id', { ascending: false })
            .limit(50)
            .abortSignal(signal),
        )
        return data.map((row) => ({ ...row, snapshot: RevisionSnapshotSchema.parse(row.snapshot) }))
      },
    }),
}

export type PostListItem = Awaited<ReturnType<NonNullable<ReturnType<typeof postQueries.list>['queryFn']>>>[number]
export type PostDetail = Awaited<ReturnType<NonNullable<ReturnType<typeof postQueries.detail>['queryFn']>>>
export type CalendarPost = Awaited<ReturnType<NonNullable<ReturnType<typeof postQueries.month>['queryFn']>>>[number]

export const categoryQueries = {
  list: () =>
    queryOptions({
      queryKey: categoryKeys.list(),
      queryFn: ({ signal }) =>
        dataOrThrow(supabase.from('blog_categories').select('id, name').order('name').abortSignal(signal)),
      staleTime: 5 * 60_000,
    }),
}
