/**
 * The /blog filter: the URL's `search` and `category` params decide which prebuilt article cards show. The rules are
 * pure (`parseBlogFilterParams`, `matchesFilter`); `enhanceBlogFilter` wires the prebuilt form, category buttons and
 * live region of components/BlogFilter.astro with a small module script instead of a React island, so /blog paints
 * and filters without loading a framework. The URL is the filter's only state: it survives reloads, can be shared,
 * and Back/Forward step through filters.
 */
import { buttonReady } from '~/lib/early-click'

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

/** /blog?search=&category= as the page accepts them. */
export interface BlogFilterParams {
  /** Trimmed; '' when absent or longer than SEARCH_MAX_LENGTH. */
  search: string
  /** A category slug, or null when absent or not slug-shaped. */
  category: string | null
}

const SEARCH_MAX_LENGTH = 200
const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/

/**
 * Reads the filter from a query string; anything malformed is dropped rather than failing the page. Two plain checks
 * instead of a schema library: this module is the only script /blog loads (its JS budget is in budgets.json).
 */
export function parseBlogFilterParams(search: string): BlogFilterParams {
  const params = new URLSearchParams(search)
  const text = (params.get('search') ?? '').trim()
  const category = params.get('category')
  return {
    search: text.length <= SEARCH_MAX_LENGTH ? text : '',
    category: category !== null && SLUG_PATTERN.test(category) ? category : null,
  }
}

/** Case-insensitive substring match on title or excerpt, and exact category slug when one is chosen. */
export function matchesFilter(post: FilterablePost, { search, category }: BlogFilterParams): boolean {
  if (category && post.categorySlug !== category) return false
  const needle = search.toLowerCase()
  if (!needle) return true
  return post.title.toLowerCase().includes(needle) || (post.excerpt ?? '').toLowerCase().includes(needle)
}

/** Card markers of the prebuilt page: `[data-post-card=<slug>]` on every card, `[data-hide-when-filtering]` sections. */
const CARD = '[data-post-card]'
const HIDE_WHEN_FILTERING = '[data-hide-when-filtering]'
/** Marks a list item repeating a featured article (components/ArticleGrid.astro). */
const FEATURED_COPY = 'data-featured-copy'

/** The filter's URL: the current one with `search` and `category` set, or removed when empty. */
export function filterUrl(current: string, next: BlogFilterParams): URL {
  const url = new URL(current)
  if (next.search) url.searchParams.set('search', next.search)
  else url.searchParams.delete('search')
  if (next.category) url.searchParams.set('category', next.category)
  else url.searchParams.delete('category')
  return url
}

/**
 * Wires one prebuilt filter (`[data-blog-filter]`, its posts as JSON in `data-posts`): applies the URL's filter now
 * and on Back/Forward; Search (submit) and the category toggles push a new URL and apply it.
 * @throws Error when the markup lacks a part (a broken build, caught by the blog tests).
 */
export function enhanceBlogFilter(root: HTMLElement): void {
  const posts = JSON.parse(root.dataset.posts ?? '[]') as FilterablePost[]
  const form = root.querySelector<HTMLFormElement>('form')
  const input = form?.querySelector<HTMLInputElement>('input[name="search"]')
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('button[data-category]')]
  const status = root.querySelector<HTMLElement>('[data-filter-status]')
  const empty = root.querySelector<HTMLTemplateElement>('template[data-filter-empty]')
  if (!form || !input || !status || !empty) throw new Error('Blog filter markup is incomplete')

  let filter = parseBlogFilterParams(window.location.search)
  // The static box starts empty, which shows the URL's empty search: text typed before this script arrived (it loads
  // after the first paint) is kept, a search in the URL replaces it.
  let shownSearch = ''

  function apply() {
    filter = parseBlogFilterParams(window.location.search)
    const visible = new Set(posts.filter((post) => matchesFilter(post, filter)).map((post) => post.slug))
    const filtering = filter.search !== '' || filter.category !== null
    // the box shows the applied search; text typed but not yet searched survives a category toggle
    if (filter.search !== shownSearch) input!.value = filter.search
    shownSearch = filter.search
    for (const button of buttons)
      button.setAttribute('aria-pressed', String(filter.category === button.dataset.category))
    document.querySelectorAll<HTMLElement>(CARD).forEach((card) => {
      const item = card.closest('li') ?? card
      // a featured post's copy in the list below shows only while the featured section is hidden
      const copyOfFeatured = item.hasAttribute(FEATURED_COPY) && !filtering
      item.hidden = copyOfFeatured || !visible.has(card.dataset.postCard ?? '')
    })
    // Featured articles are a browsing aid; while a filter is on, the one filtered list is clearer.
    document.querySelectorAll<HTMLElement>(HIDE_WHEN_FILTERING).forEach((section) => {
      section.hidden = filtering
    })
    if (visible.size === 0) {
      status!.replaceChildren(empty!.content.cloneNode(true))
    } else if (filtering) {
      const line = document.createElement('p')
      line.className = 'text-sm text-slate-700'
      line.textContent = `${visible.size} ${visible.size === 1 ? 'article matches' : 'articles match'} your filters.`
      status!.replaceChildren(line)
    } else {
      status!.replaceChildren()
    }
  }

  function navigate(next: BlogFilterParams) {
    window.history.pushState(null, '', filterUrl(window.location.href, next))
    apply()
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    navigate({ ...filter, search: input.value.trim() })
  })
  for (const button of buttons) {
    button.addEventListener('click', () => {
      const slug = button.dataset.category ?? null
      navigate({ ...filter, category: filter.category === slug ? null : slug })
    })
    buttonReady(button)
  }
  window.addEventListener('popstate', apply)
  apply()
  // the category buttons work from here on (the script loads after the first paint: src/lib/after-paint.ts)
  root.dataset.enhanced = 'true'
}
