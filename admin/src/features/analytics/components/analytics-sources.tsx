import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'

import { formatCount } from '../api/analytics-format'
import type { AnalyticsSource } from '../api/analytics-queries'

const KIND_LABELS: Record<AnalyticsSource['kind'], string> = {
  campaign: 'Campaign (utm_source)',
  referral: 'Referral',
  direct: 'Direct',
}

/** Traffic sources: a bar chart of page views per source and the same figures as a table. */
export function AnalyticsSources({ sources }: { sources: AnalyticsSource[] }) {
  return (
    <div className="space-y-4">
      <figure aria-label="Page views by traffic source" className="m-0 h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={sources} layout="vertical" margin={{ top: 0, right: 16, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" horizontal={false} />
            <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12 }} />
            <YAxis type="category" dataKey="source" width={120} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Bar dataKey="page_views" name="Page views" fill="#1d4ed8" radius={[0, 4, 4, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </figure>
      <table aria-label="Traffic sources" className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-2">Source</th>
            <th scope="col" className="py-2 pr-2">Type</th>
            <th scope="col" className="py-2 pr-2 text-right">Page views</th>
            <th scope="col" className="py-2 text-right">Visitors</th>
          </tr>
        </thead>
        <tbody>
          {sources.map((source) => (
            <tr key={`${source.kind}:${source.source}`} className="border-b border-slate-100 last:border-0">
              <td className="py-2 pr-2 font-medium text-slate-900">{source.source}</td>
              <td className="py-2 pr-2 text-slate-600">{KIND_LABELS[source.kind]}</td>
              <td className="py-2 pr-2 text-right tabular-nums">{formatCount(source.page_views)}</td>
              <td className="py-2 text-right tabular-nums">{formatCount(source.visitors)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
