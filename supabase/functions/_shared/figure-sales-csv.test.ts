import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'

import { FIGURE_SALES_CSV_COLUMNS, figureSalesCsv, figureSalesCsvFileName } from './figure-sales-csv.ts'
import type { AgentFigureSales, FigureSale } from './figures-contract.ts'

const row: FigureSale = {
  property_id: '5b9e1a36-0000-4000-8000-000000000001',
  address: '12 Elm St, Unit 2',
  city: 'Melrose',
  state: 'MA',
  zip_code: '02176',
  close_date: '2025-08-25',
  role: 'co_list',
  side: 'listing',
  credit: 0.5,
  dual_agency: false,
  list_price: 579900,
  close_price: 645000,
  credited_volume: 322500,
  sale_to_list: 111.2261,
  days_on_market: 61,
  property_type: 'Residential',
  source: 'demo',
  source_record_id: 'DEMO-L0000001',
}

const sales = (change: Partial<AgentFigureSales> = {}): AgentFigureSales => ({
  agent_id: '5b9e1a36-0000-4000-8000-0000000000aa',
  metric: 'sale_to_list_median',
  label: 'Sale-to-list (median)',
  unit: 'percent',
  formula: 'Median of sale price ÷ list price × 100 …',
  methodology_version: '2',
  value: 111.23,
  n: 1,
  interval_low: null,
  interval_high: null,
  window_start: '2023-10-01',
  window_end: '2025-09-30',
  zip_code: '02176',
  prior: null,
  shrink_k: null,
  zip_closed_sales: null,
  total_rows: 1,
  truncated: false,
  rows: [row],
  ...change,
})

describe('figureSalesCsv', () => {
  it('writes a header and one row per sale with plain numbers, CRLF line ends', () => {
    const csv = figureSalesCsv(sales())
    expect(csv).toBe(
      `${FIGURE_SALES_CSV_COLUMNS.join(',')}\r\n` +
        '"12 Elm St, Unit 2",Melrose,MA,02176,2025-08-25,co_list,listing,0.5,no,579900,645000,322500,111.2261,61,Residential,demo,DEMO-L0000001\r\n',
    )
  })

  it('leaves blanks for missing values and round-trips through a CSV parser', () => {
    const csv = figureSalesCsv(
      sales({ rows: [{ ...row, list_price: null, sale_to_list: null, days_on_market: null }] }),
    )
    const [parsed] = parse(csv, { columns: true }) as Array<Record<string, string>>
    expect(parsed).toMatchObject({ list_price: '', sale_to_list: '', days_on_market: '', close_price: '645000' })
  })

  it('neutralises text a spreadsheet would run as a formula', () => {
    const csv = figureSalesCsv(sales({ rows: [{ ...row, address: '=HYPERLINK("http://x")', source: '+cmd' }] }))
    const [parsed] = parse(csv, { columns: true }) as Array<Record<string, string>>
    expect(parsed!.address).toBe(`'=HYPERLINK("http://x")`)
    expect(parsed!.source).toBe(`'+cmd`)
  })

  it('adds the inputs besides the rows for the shrunk sale-to-list and the ZIP share', () => {
    const shrunk = parse(figureSalesCsv(sales({ metric: 'sale_to_list_shrunk', prior: 101.4, shrink_k: 7.25 })), {
      columns: true,
    }) as Array<Record<string, string>>
    expect(shrunk[0]).toMatchObject({ zip_mean_sale_to_list: '101.4', shrink_k: '7.25' })
    const share = parse(figureSalesCsv(sales({ metric: 'zip_market_share', zip_closed_sales: 40 })), {
      columns: true,
    }) as Array<Record<string, string>>
    expect(share[0]).toMatchObject({ zip_closed_sales: '40' })
    expect(Object.keys(parse(figureSalesCsv(sales()), { columns: true })[0] as object)).toEqual([
      ...FIGURE_SALES_CSV_COLUMNS,
    ])
  })
})

describe('figureSalesCsvFileName', () => {
  it('names the agent, the figure and the data date', () => {
    expect(figureSalesCsvFileName('José O’Neil', sales())).toBe('jose-o-neil-sale-to-list-median-2025-09-30.csv')
  })
})
