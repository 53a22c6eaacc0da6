/**
 * The profile's charts never exaggerate a small difference: every bar starts at zero, so its height is proportional
 * to what it counts, and the sale-to-list chart, whose axis spans only the values, draws dots, not bars.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'

import type { BenchmarkRow, QuarterSales, RecentSale } from '../lib/agent-profile'
import { QuarterlySalesChart } from './agent-profile-view'
import { SaleToListChart } from './figure-parts'

const rects = (svg: string) =>
  [...svg.matchAll(/<rect ([^>]*)>/g)].map((match) => {
    const attribute = (name: string) => Number(new RegExp(`\\b${name}="([^"]+)"`).exec(match[1]!)![1])
    return { y: attribute('y'), height: attribute('height'), count: attribute('data-count') }
  })

describe('closed sales per quarter', () => {
  it('draws every bar from the same zero baseline with a height proportional to its count', () => {
    const quarters: QuarterSales[] = [
      { quarter_start: '2025-01-01', closed_sales: 20, listing_sales: 15, buyer_sales: 6 },
      { quarter_start: '2025-04-01', closed_sales: 21, listing_sales: 21, buyer_sales: 0 },
      { quarter_start: '2025-07-01', closed_sales: 4, listing_sales: 1, buyer_sales: 3 },
    ]
    const bars = rects(renderToStaticMarkup(createElement(QuarterlySalesChart, { quarters })))
    expect(bars).toHaveLength(6)
    const baseline = bars[0]!.y + bars[0]!.height
    const perSale = bars[0]!.height / bars[0]!.count
    for (const bar of bars) {
      expect(bar.y + bar.height).toBeCloseTo(baseline, 6)
      expect(bar.height).toBeCloseTo(bar.count * perSale, 6)
    }
  })
})

/** Recent listing-side sales at the given sale-to-list percentages, oldest first, list price $500,000. */
function recentSales(ratios: number[]): RecentSale[] {
  return ratios.map((ratio, index) => ({
    id: `00000000-0000-4000-8000-00000000000${index}`,
    address: `${index} Main St`,
    city: null,
    state: null,
    zip_code: null,
    close_date: `2025-0${index + 1}-15`,
    list_price: 500_000,
    close_price: 5_000 * ratio,
    days_on_market: 10,
    source: 'demo',
    role: 'list',
    side: 'listing',
  }))
}

describe('sale-to-list of each recent sale', () => {
  it('draws dots, not bars from a baseline above zero', () => {
    const sales = recentSales([100.4, 101.1, 99.8])
    const benchmark = { zip_code: '78704', avg_sale_to_list_percent: 100.2 } as BenchmarkRow
    const svg = renderToStaticMarkup(createElement(SaleToListChart, { sales, benchmark }))
    expect(svg.match(/<circle /g)).toHaveLength(3)
    expect(svg).not.toContain('<rect')
  })

  it('says when the ZIP average lies on the list-price line, which it would otherwise hide', () => {
    const sales = recentSales([100.4, 101.1, 99.8])
    const note = (average: number) =>
      renderToStaticMarkup(
        createElement(SaleToListChart, {
          sales,
          benchmark: { zip_code: '78704', avg_sale_to_list_percent: average } as BenchmarkRow,
        }),
      )
    expect(note(100)).toContain('dashed line: ZIP 78704 average 100.0% (Redfin), drawn over the list-price line.')
    expect(note(101.5)).toContain('dashed line: ZIP 78704 average 101.5% (Redfin).')
  })
})
