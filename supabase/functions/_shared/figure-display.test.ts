import { describe, expect, it } from 'vitest'

import type { AgentFigures } from './figures-contract.ts'
import {
  areaRankNote,
  dataAsOfText,
  figureDisplay,
  formatFigure,
  formatSides,
  vsZipText,
  zipRankText,
} from './figure-display.ts'

const id = '11111111-1111-4111-8111-111111111111'
const figures = {
  agent_id: id,
  window_start: '2024-10-01',
  window_end: '2026-09-30',
  sources: ['demo'],
  listing_sales: 14,
  listing_sides: 12.5,
  sale_to_list_n: 13,
  sale_to_list_median: 101.24,
  sale_to_list_median_low: 99.1,
  sale_to_list_median_high: 102.35,
  sale_to_list_mean: 100.9,
  sale_to_list_mean_low: null,
  sale_to_list_mean_high: null,
  sale_to_list_vs_zip: 1.8,
  days_on_market_n: 4,
  days_on_market_median: 21.5,
  days_on_market_median_low: null,
  days_on_market_median_high: null,
  days_on_market_vs_zip: -6,
  buyer_paid_to_list_vs_zip: 0.04,
  listing_volume: '5230000.50',
  zip_rank: 2,
  zip_agents: 14,
  primary_zip_code: '78704',
  ranking_note: null,
} as unknown as AgentFigures

describe('formatSides', () => {
  it('shows whole sides and the halves of shared ones, grouped', () => {
    expect(formatSides(12)).toBe('12')
    expect(formatSides(12.5)).toBe('12.5')
    expect(formatSides('1204.50')).toBe('1,204.5')
    expect(formatSides(0.25)).toBe('0.25')
    expect(formatSides(null)).toBe('—')
  })
})

describe('formatFigure', () => {
  it('formats each unit the way the pages show it', () => {
    expect(formatFigure('listing_sales', 14)).toBe('14')
    expect(formatFigure('total_sides', 7.5)).toBe('7.5')
    expect(formatFigure('listing_volume', '5230000.50')).toBe('$5,230,001')
    expect(formatFigure('sale_to_list_median', 101.25)).toBe('101.3%')
    expect(formatFigure('days_on_market_mean', 21)).toBe('21 days')
    expect(formatFigure('buyer_price_min', null)).toBe('—')
  })
})

describe('vsZipText', () => {
  it('says how far a figure is from the ZIP in points or days, with a true minus sign', () => {
    expect(vsZipText(figures, 'sale_to_list_mean')).toBe('+1.8 pts vs ZIP average')
    expect(vsZipText(figures, 'days_on_market_median')).toBe('−6.0 days vs ZIP median')
    expect(vsZipText(figures, 'buyer_paid_to_list_mean')).toBe('0.0 pts vs ZIP average')
    expect(vsZipText(figures, 'listing_sales')).toBeNull()
    expect(vsZipText({ ...figures, sale_to_list_vs_zip: null }, 'sale_to_list_mean')).toBeNull()
  })
})

describe('figureDisplay', () => {
  it('gives the value, n, interval, ZIP difference and the link to the sales behind it', () => {
    expect(figureDisplay(figures, 'sale_to_list_median')).toEqual({
      metric: 'sale_to_list_median',
      label: 'Sale-to-list (median)',
      value: '101.2%',
      n: 13,
      nText: 'n = 13 sales',
      interval: '95 % interval 99.1% to 102.3%',
      vsZip: null,
      smallSample: null,
      href: `/figure-sales?agent=${id}&figure=sale_to_list_median`,
    })
  })

  it('says why a rate has no interval and flags a small sample', () => {
    const dom = figureDisplay(figures, 'days_on_market_median')
    expect(dom.interval).toBe('No 95 % interval below 6 sales')
    expect(dom.smallSample).toBe('Too few sales to rank: 4 sales, fewer than the 5 needed')
    expect(dom.vsZip).toBe('−6.0 days vs ZIP median')
    expect(figureDisplay(figures, 'sale_to_list_mean').interval).toBeNull()
    expect(figureDisplay(figures, 'listing_sides')).toMatchObject({ value: '12.5', n: 14, interval: null })
  })
})

describe('dataAsOfText', () => {
  it('states the data date, the sources and the methodology version', () => {
    expect(dataAsOfText('2026-09-30', ['mls-a', 'demo', 'mls-a'])).toBe(
      'Data as of Sep 30, 2026 from generated demo data and mls-a, methodology v4',
    )
    expect(dataAsOfText(null, [])).toBe('No closed sales counted yet, methodology v4')
  })
})

describe('ranks', () => {
  it('words a rank, or the reason there is none', () => {
    expect(zipRankText(figures)).toEqual({ ranked: true, text: '#2 of 14 agents in 78704 by sides' })
    const note = 'Too few sales to rank: 3 closed sales in 78704 in the window, fewer than the 5 needed'
    expect(zipRankText({ ...figures, zip_rank: null, ranking_note: note })).toEqual({ ranked: false, text: note })
    expect(areaRankNote(3, '78704')).toBe(note)
    expect(areaRankNote(1, 'Austin')).toBe(
      'Too few sales to rank: 1 closed sale in Austin in the window, fewer than the 5 needed',
    )
  })
})
