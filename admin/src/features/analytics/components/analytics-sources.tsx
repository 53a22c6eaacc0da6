import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'

import type { AnalyticsSource } from '../api/analytics-queries'
import { AnalyticsCountTable } from './analytics-count-table'

const KIND_LABELS: Record<AnalyticsSource['kind'], string> = {
  campaign: 'Campaign (utm_source)',
  referral: 'Referral',
  direct: 'Direct',
}

/**
 * Traffic sources: a horizontal bar chart of page views per source, its axis as wide as the longest source name (up
 * to 220 px; past that the table below still has the whole name), and the same figures as a table.
 */
export function AnalyticsSources({ sources }: { sources: AnalyticsSource[] }) {
  // the axis is as wide as the longest name (about 7 px a character at 12 px), so domain names are never cut
  const labelWidth = Math.min(220, Math.max(60, Math.max(0, ...sources.map((source) => source.source.length)) * 7 + 8))
  return (
    <div className="space-y-4">
      <figure aria-label="Page views by traffic source" className="m-0 h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={sources} layout="vertical" margin={{ top: 0, right: 16, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" horizontal={false} />
            <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12 }} />
            <YAxis type="category" dataKey="source" width={labelWidth} interval={0} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Bar dataKey="page_views" name="Page views" fill="#1d4ed8" radius={[0, 4, 4, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </figure>
      <AnalyticsCountTable
        label="Traffic sources"
        rows={sources}
        rowKey={(source) => `${source.kind}:${source.source}`}
        columns={[
          { header: 'Source', className: 'font-medium text-slate-900', cell: (source) => source.source },
          { header: 'Type', className: 'text-slate-600', cell: (source) => KIND_LABELS[source.kind] },
        ]}
      />
    </div>
  )
}
