import { postUrl } from '@shared/urls.ts'
import { siteHost } from '@/lib/site-link'

/** Google shows about this many characters of a title and of a description before cutting them with '...'. */
const TITLE_SHOWN = 60
const DESCRIPTION_SHOWN = 160

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}...` : text
}

/**
 * How the post could look as a Google result: the address (this site's host and the post's path), the SEO title (or
 * the title) and the meta description (or the excerpt), cut where Google cuts them. A guide for writing, not a
 * promise: Google may rewrite either.
 */
export function SearchResultPreview({
  slug,
  title,
  description,
}: {
  slug: string
  title: string
  description: string
}) {
  // Google writes the address as breadcrumbs: host › blog › slug
  const address = [siteHost(), ...(slug ? postUrl(slug) : '/blog/...').split('/').filter(Boolean)].join(' › ')
  return (
    <figure aria-label="Search result preview" className="rounded-lg border border-slate-200 bg-white p-4">
      <figcaption className="mb-2 text-xs font-medium tracking-wide text-slate-500 uppercase">
        Search result preview
      </figcaption>
      <p className="truncate text-sm text-slate-700">{address}</p>
      <p className="mt-1 text-xl leading-snug text-[#1a0dab]">{title ? cut(title, TITLE_SHOWN) : 'Post title'}</p>
      <p className="mt-1 text-sm text-slate-600">
        {description
          ? cut(description, DESCRIPTION_SHOWN)
          : 'Add a meta description to choose what searchers read here.'}
      </p>
    </figure>
  )
}
