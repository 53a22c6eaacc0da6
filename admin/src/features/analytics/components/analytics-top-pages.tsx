import { isSameOriginPath } from '@shared/page-view.ts'

import { formatCount } from '../api/analytics-format'
import type { AnalyticsTopPage } from '../api/analytics-queries'

/**
 * The most viewed paths of the period. A path is a link to the live page only when it is a same-origin path
 * (`isSameOriginPath`); anything else (rows stored before paths were validated) is shown as plain text.
 */
export function AnalyticsTopPages({ pages }: { pages: AnalyticsTopPage[] }) {
  return (
    <table aria-label="Top pages" className="w-full text-left text-sm">
      <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
        <tr>
          <th scope="col" className="py-2 pr-2">Page</th>
          <th scope="col" className="py-2 pr-2 text-right">Page views</th>
          <th scope="col" className="py-2 text-right">Visitors</th>
        </tr>
      </thead>
      <tbody>
        {pages.map((page) => (
          <tr key={page.path} className="border-b border-slate-100 last:border-0">
            <td className="max-w-0 truncate py-2 pr-2">
              {isSameOriginPath(page.path) ? (
                <a href={page.path} target="_blank" rel="noopener noreferrer" className="text-blue-700 hover:underline">
                  {page.path}
                </a>
              ) : (
                <span title="Not a path on this site">{page.path}</span>
              )}
            </td>
            <td className="py-2 pr-2 text-right tabular-nums">{formatCount(page.page_views)}</td>
            <td className="py-2 text-right tabular-nums">{formatCount(page.visitors)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
