/**
 * The downloadable CSV of "the sales behind this figure": one module for every place that offers it (the sales
 * page, the profile, the PDF's attachment, tests). Built from the answer of public.agent_figure_sales()
 * (AgentFigureSales in ./figures-contract.ts) with csv-stringify: a header row, then one row per sale, newest first.
 *
 * Columns (FIGURE_SALES_CSV_COLUMNS): address, city, state, zip_code, close_date (YYYY-MM-DD), role (list, co_list,
 * buyer, co_buyer), side (listing, buyer), credit (1 or 0.5), dual_agency (yes/no), list_price and close_price (USD),
 * credited_volume (USD, close_price x credit to the cent), sale_to_list (PERCENT, 4 decimals), days_on_market,
 * property_type, source, source_record_id; then, only for the figures that need them, the inputs besides the rows:
 * zip_mean_sale_to_list and shrink_k for the shrunk sale-to-list, zip_closed_sales for the ZIP share (the same value
 * on every row). Numbers are plain (no thousands separators or currency signs), so a spreadsheet recomputes the
 * figure from them; text cells a spreadsheet would run as a formula are neutralised. Rows end in CRLF.
 */
import { stringify } from 'csv-stringify/sync'

import type { AgentFigureSales } from './figures-contract.ts'
import { slugify } from './slug.ts'
import { neutralizeFormula } from './spreadsheet-cell.ts'

export const FIGURE_SALES_CSV_COLUMNS = [
  'address',
  'city',
  'state',
  'zip_code',
  'close_date',
  'role',
  'side',
  'credit',
  'dual_agency',
  'list_price',
  'close_price',
  'credited_volume',
  'sale_to_list',
  'days_on_market',
  'property_type',
  'source',
  'source_record_id',
] as const

const text = (value: string | null) => (value === null ? '' : neutralizeFormula(value))
const number = (value: number | null) => (value === null ? '' : String(value))

/** The extra columns of `sales`' figure (its inputs besides the rows), with their value. */
function contextColumns(sales: AgentFigureSales): Array<[string, string]> {
  if (sales.metric === 'sale_to_list_shrunk')
    return [
      ['zip_mean_sale_to_list', number(sales.prior)],
      ['shrink_k', number(sales.shrink_k)],
    ]
  if (sales.zip_closed_sales !== null) return [['zip_closed_sales', number(sales.zip_closed_sales)]]
  return []
}

/** The CSV text of the sales behind a figure (see the module comment). */
export function figureSalesCsv(sales: AgentFigureSales): string {
  const context = contextColumns(sales)
  const rows = sales.rows.map((row) => [
    text(row.address),
    text(row.city),
    text(row.state),
    text(row.zip_code),
    row.close_date,
    row.role,
    row.side,
    number(row.credit),
    row.dual_agency ? 'yes' : 'no',
    number(row.list_price),
    number(row.close_price),
    number(row.credited_volume),
    number(row.sale_to_list),
    number(row.days_on_market),
    text(row.property_type),
    text(row.source),
    text(row.source_record_id),
    ...context.map(([, value]) => value),
  ])
  return stringify([[...FIGURE_SALES_CSV_COLUMNS, ...context.map(([name]) => name)], ...rows], {
    record_delimiter: 'windows',
  })
}

/** `<agent-slug>-<metric>-<window end>.csv`, e.g. `jane-doe-sale-to-list-median-2025-09-30.csv`. */
export function figureSalesCsvFileName(
  agentName: string,
  sales: Pick<AgentFigureSales, 'metric' | 'window_end'>,
): string {
  const slug = slugify(agentName, 60) || 'agent'
  return `${slug}-${sales.metric.replace(/_/g, '-')}${sales.window_end ? `-${sales.window_end}` : ''}.csv`
}
