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

/** The trail to the current page above its content (Dashboard / Blog Management / Edit Post); none on the dashboard. */
export function PageBreadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  const current = crumbs.at(-1)
  if (crumbs.length < 2) return null
  return (
    <nav aria-label="Breadcrumb" className="mb-4">
      <ol className="flex min-w-0 flex-wrap items-center gap-1 text-xs text-slate-600">
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
        <li aria-current="page" className="truncate font-medium text-slate-900">
          {current?.title}
        </li>
      </ol>
    </nav>
  )
}
