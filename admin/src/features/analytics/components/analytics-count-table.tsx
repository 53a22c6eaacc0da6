import type { ReactNode } from 'react'

import { formatCount } from '../api/analytics-format'

/** A leading column of an analytics table: its header and what a row shows in it. */
export interface CountTableColumn<Row> {
  header: string
  cell: (row: Row) => ReactNode
  className?: string
}

/**
 * The tables of the Traffic tab: the given leading columns, then Page views and Visitors (counts, formatted with
 * formatCount) right-aligned. `label` is the table's accessible name.
 */
export function AnalyticsCountTable<Row extends { page_views: number; visitors: number }>({
  label,
  rows,
  rowKey,
  columns,
}: {
  label: string
  rows: Row[]
  rowKey: (row: Row) => string
  columns: CountTableColumn<Row>[]
}) {
  return (
    <table aria-label={label} className="w-full text-left text-sm">
      <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className="py-2 pr-2">
              {column.header}
            </th>
          ))}
          <th scope="col" className="py-2 pr-2 text-right">
            Page views
          </th>
          <th scope="col" className="py-2 text-right">
            Visitors
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} className="border-b border-slate-100 last:border-0">
            {columns.map((column) => (
              <td key={column.header} className={`py-2 pr-2 ${column.className ?? ''}`}>
                {column.cell(row)}
              </td>
            ))}
            <td className="py-2 pr-2 text-right tabular-nums">{formatCount(row.page_views)}</td>
            <td className="py-2 text-right tabular-nums">{formatCount(row.visitors)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
