import type { PostFilters } from './blog-schemas'

/** Query keys of blog posts; invalidate through these, never through hand-typed arrays. */
export const postKeys = {
  all: ['posts'] as const,
  lists: () => [...postKeys.all, 'list'] as const,
  list: (filters: PostFilters) => [...postKeys.lists(), filters] as const,
  details: () => [...postKeys.all, 'detail'] as const,
  detail: (id: string) => [...postKeys.details(), id] as const,
  /** Saved revisions of one post, newest first. */
  revisions: (id: string) => [...postKeys.all, 'revisions', id] as const,
  /** Posts placed in one calendar month; `month` is 'yyyy-MM'. */
  month: (month: string) => [...postKeys.all, 'month', month] as const,
}

export const categoryKeys = {
  all: ['blog-categories'] as const,
  list: () => [...categoryKeys.all, 'list'] as const,
}
