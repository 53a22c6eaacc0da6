import { isSameOriginPath } from '@shared/page-view.ts'

import type { AnalyticsTopPage } from '../api/analytics-queries'
import { AnalyticsCountTable } from './analytics-count-table'

/**
 * The most viewed paths of the period. A path is a link to the live page only when it is a same-origin path
 * (`isSameOriginPath`); anything else (rows stored before paths were validated) is shown as plain text.
 */
export function AnalyticsTopPages({ pages }: { pages: AnalyticsTopPage[] }) {
  return (
    <AnalyticsCountTable
      label="Top pages"
      rows={pages}
      rowKey={(page) => page.path}
      columns={[
        {
          header: 'Page',
          className: 'max-w-0 truncate',
          cell: (page) =>
            isSameOriginPath(page.path) ? (
              <a href={page.path} target="_blank" rel="noopener noreferrer" className="text-blue-700 hover:underline">
                {page.path}
              </a>
            ) : (
              <span title="Not a path on this site">{page.path}</span>
            ),
        },
      ]}
    />
  )
}
