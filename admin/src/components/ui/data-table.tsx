import type { ReactNode } from 'react'

import { cn } from '@/lib/utils'
import { Skeleton } from './skeleton'

/** The three states every admin list shows besides its rows (empty, loading, error; errors sit above the rows). */
type ListStateProps = {
  /** The first page is loading: skeleton rows instead of rows, and `aria-busy` on the list. */
  loading: boolean
  /** Shown alone when the list loaded and has no rows; `null` while there are rows. */
  empty: ReactNode
  /** How many skeleton rows stand in while loading. */
  skeletonRows?: number
  /** Said above the skeleton rows while loading ('Loading report requests...'). */
  loadingText?: string
  /** The rows (`<tr>` in a table, `<li>` in cards). */
  children: ReactNode
}

export type DataTableColumn = {
  /** Header cell content: a label, or a control such as a select-all checkbox. */
  header: ReactNode
  className?: string
}

/**
 * A list as a table (the admin's wide-screen layout): bordered card that scrolls sideways when narrow, a header row,
 * and the loading and empty states spanning every column.
 */
export function DataTable({
  columns,
  loading,
  empty,
  skeletonRows = 4,
  loadingText,
  className,
  children,
}: ListStateProps & {
  columns: DataTableColumn[]
  className?: string
}) {
  return (
    <div className={cn('overflow-x-auto rounded-xl border border-slate-200 bg-white', className)}>
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-500 uppercase">
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className={cn('px-4 py-3', column.className)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody aria-busy={loading}>
          {loading && loadingText && (
            <tr>
              <td colSpan={columns.length} role="status" className="px-4 pt-3 text-slate-600">
                {loadingText}
              </td>
            </tr>
          )}
          {loading &&
            Array.from({ length: skeletonRows }, (_, index) => (
              <tr key={index} className="border-b border-slate-100">
                <td colSpan={columns.length} className="px-4 py-3">
                  <Skeleton className="h-4 w-full" />
                </td>
              </tr>
            ))}
          {!loading && empty && (
            <tr>
              <td colSpan={columns.length} className="px-4 py-12 text-center text-slate-500">
                {empty}
              </td>
            </tr>
          )}
          {children}
        </tbody>
      </table>
    </div>
  )
}

/** The card around one item of a `DataCards` list. */
export const DATA_CARD_CLASS = 'rounded-xl border border-slate-200 bg-white p-4'

/**
 * A list as cards (the admin's layout under 768 px): a labelled `<ul>` with the same loading and empty states as
 * `DataTable`; each child is an `<li className={DATA_CARD_CLASS}>`.
 */
export function DataCards({
  label,
  loading,
  empty,
  skeletonRows = 4,
  loadingText,
  className,
  children,
}: ListStateProps & {
  /** The list's accessible name ('Blog posts'). */
  label: string
  className?: string
}) {
  return (
    <ul className={cn('space-y-3', className)} aria-label={label} aria-busy={loading}>
      {loading && loadingText && (
        <li role="status" className="text-sm text-slate-600">
          {loadingText}
        </li>
      )}
      {loading &&
        Array.from({ length: skeletonRows }, (_, index) => (
          <li key={index} className={DATA_CARD_CLASS}>
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="mt-2 h-3 w-1/3" />
          </li>
        ))}
      {!loading && empty && <li className={cn(DATA_CARD_CLASS, 'py-10 text-center text-slate-500')}>{empty}</li>}
      {children}
    </ul>
  )
}

/** The empty view of a list: what is missing, and what to do about it. */
export function EmptyState({ title, hint }: { title: string; hint: string }) {
  return (
    <>
      <p className="font-medium text-slate-900">{title}</p>
      <p className="mt-1 text-slate-500">{hint}</p>
    </>
  )
}
