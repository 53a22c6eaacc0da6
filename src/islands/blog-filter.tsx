import { useEffect, useId, useSyncExternalStore, type SubmitEvent } from 'react'
import { z } from 'zod'

export interface FilterablePost {
  slug: string
  title: string
  excerpt: string | null
  categorySlug: string | null
}

export interface FilterCategory {
  name: string
  slug: string
}

/** /blog?search=&category= as the page accepts them; anything malformed is dropped rather than failing the page. */
export const BlogFilterParamsSchema = z.object({
  search: z.string().trim().max(200).catch(''),
  category: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    .nullable()
    .catch(null),
})

export type BlogFilterParams = z.infer<typeof BlogFilterParamsSchema>

export function parseBlogFilterParams(search: string): BlogFilterParams {
  const params = new URLSearchParams(search)
  return BlogFilterParamsSchema.parse({ search: params.get('search') ?? '', category: params.get('category') })
}

/** Case-insensitive substring match on title or excerpt, and exact category slug when one is chosen. */
export function matchesFilter(post: FilterablePost, { search, category }: BlogFilterParams): boolean {
  if (category && post.categorySlug !== category) return false
  const needle = search.toLowerCase()
  if (!needle) return true
  return post.title.toLowerCase().includes(needle) || (post.excerpt ?? '').toLowerCase().includes(needle)
}

// The URL is the filter's only state: it survives reloads, can be shared, and Back/Forward step through filters.
const listeners = new Set<() => void>()
function subscribe(listener: () => void) {
  listeners.add(listener)
  window.addEventListener('popstate', listener)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('popstate', listener)
  }
}
const getSnapshot = () => window.location.search
// The prebuilt HTML is the unfiltered list.
const getServerSnapshot = () => ''

function navigate(next: BlogFilterParams) {
  const url = new URL(window.location.href)
  if (next.search) url.searchParams.set('search', next.search)
  else url.searchParams.delete('search')
  if (next.category) url.searchParams.set('category', next.category)
  else url.searchParams.delete('category')
  window.history.pushState(null, '', url)
  listeners.forEach((listener) => listener())
}

interface Props {
  posts: FilterablePost[]
  categories: FilterCategory[]
}

/**
 * Search box and category buttons of /blog. The cards are prebuilt HTML (`[data-post-card=<slug>]`); this island
 * hides the ones that do not match the URL's `search` and `category` params and shows an empty state when none do.
 */
export function BlogFilter({ posts, categories }: Props) {
  const id = useId()
  const query = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot)
  const filter = parseBlogFilterParams(query)
  const visible = new Set(posts.filter((post) => matchesFilter(post, filter)).map((post) => post.slug))
  const filtering = filter.search !== '' || filter.category !== null
  const visibleKey = [...visible].join(',')

  useEffect(() => {
    const shown = new Set(visibleKey.split(','))
    document.querySelectorAll<HTMLElement>('[data-post-card]').forEach((card) => {
      const item = card.closest('li') ?? card
      item.hidden = !shown.has(card.dataset.postCard ?? '')
    })
    // Featured articles are a browsing aid; while a filter is on, the one filtered list is clearer.
    document.querySelectorAll<HTMLElement>('[data-hide-when-filtering]').forEach((section) => {
      section.hidden = filtering
    })
  }, [visibleKey, filtering])

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    const search = String(new FormData(event.currentTarget).get('search') ?? '').trim()
    navigate({ ...filter, search })
  }

  return (
    <div>
      <form role="search" onSubmit={onSubmit} action="/blog" method="get" className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={`${id}-search`} className="sr-only">
          Search articles
        </label>
        <input
          key={filter.search}
          id={`${id}-search`}
          type="search"
          name="search"
          defaultValue={filter.search}
          placeholder="Search articles..."
          className="min-w-0 flex-1 rounded-md border border-slate-400 bg-white px-4 py-2.5 text-slate-900 focus:border-blue-700 focus:outline-2 focus:outline-blue-700"
        />
        <button
          type="submit"
          className="rounded-md bg-blue-700 px-5 py-2.5 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          Search
        </button>
      </form>
      <div role="group" aria-label="Filter by category" className="mt-4 flex flex-wrap gap-2">
        {categories.map((category) => {
          const pressed = filter.category === category.slug
          return (
            <button
              key={category.slug}
              type="button"
              aria-pressed={pressed}
              onClick={() => navigate({ ...filter, category: pressed ? null : category.slug })}
              className="rounded-full border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:border-blue-700 focus-visible:outline-2 focus-visible:outline-blue-700 aria-pressed:border-blue-700 aria-pressed:bg-blue-700 aria-pressed:text-white"
            >
              {category.name}
            </button>
          )
        })}
      </div>
      <div aria-live="polite" className="mt-4">
        {filtering && visible.size > 0 && (
          <p className="text-sm text-slate-700">
            {visible.size} {visible.size === 1 ? 'article matches' : 'articles match'} your filters.
          </p>
        )}
        {visible.size === 0 && (
          <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
            <p className="text-lg font-semibold text-slate-900">No articles found</p>
            <p className="mt-1 text-slate-700">Try adjusting your search or filter criteria.</p>
          </div>
        )}
      </div>
    </div>
  )
}
