import { Link, useMatches } from '@tanstack/react-router'

import { sectionTitle } from './nav-items'

export type Crumb = { title: string; to?: string }

/**
 * The trail to the current page, from the section titles (`sectionTitle`): Dashboard first, then the section, then a
 * detail the section's search names (the blog editor: 'Edit Post' / 'New Post'). The last crumb is the page title.
 */
export function usePageCrumbs(): Crumb[] {
  const matches = useMatches()
  const crumbs: Crumb[] = [{ title: 'Dashboard', to: '/' }]
  for (const match of matches) {
    const title = sectionTitle(match.fullPath)
    if (!title || title === 'Dashboard') continue
    crumbs.push({ title, to: match.fullPath })
    const search = match.search as Record<string, unknown>
    if (match.fullPath === '/blog' && search.edit) crumbs.push({ title: 'Edit Post' })
    else if (match.fullPath === '/blog' && search.new) crumbs.push({ title: 'New Post' })
  }
  return crumbs
}

/** The top bar's title (the page's own name) with its breadcrumbs above it; wide screens only show the trail. */
export function PageBreadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  const current = crumbs.at(-1)
  return (
    <div className="min-w-0 flex-1">
      {crumbs.length > 1 && (
        <nav aria-label="Breadcrumb" className="hidden sm:block">
          <ol className="flex items-center gap-1 truncate text-xs text-slate-500">
            {crumbs.slice(0, -1).map((crumb) => (
              <li key={crumb.title} className="flex items-center gap-1">
                {crumb.to ? (
                  <Link to={crumb.to} className="hover:text-slate-900 hover:underline">
                    {crumb.title}
                  </Link>
                ) : (
                  crumb.title
                )}
                <span aria-hidden="true">/</span>
              </li>
            ))}
            <li aria-current="page" className="truncate text-slate-700">
              {current?.title}
            </li>
          </ol>
        </nav>
      )}
      <p className="truncate text-base font-semibold" data-testid="page-title">
        {current?.title}
      </p>
    </div>
  )
}
