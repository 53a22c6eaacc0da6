import { describe, expect, it } from 'vitest'
import { checkFigures, type FactSheet } from './facts.ts'

const sheet: FactSheet = {
  mode: 'local',
  location: '02139 (Cambridge, MA)',
  zipCodes: ['02139'],
  periodDates: ['2026-06-30'],
  attributions: ['Source: Redfin'],
  facts: [
    {
      key: 'benchmark:02139:median_sale_price',
      label: 'Median sale price',
      value: 612345,
      unit: 'usd',
      period: 'month ending 2026-06-30',
      source: 'Redfin',
    },
    {
      key: 'benchmark:02139:sale_to_list',
      label: 'Sale-to-list',
      value: 101.24,
      unit: 'percent',
      period: 'month ending 2026-06-30',
      source: 'Redfin',
    },
    {
      key: 'benchmark:02139:median_dom',
      label: 'Median DOM',
      value: 21,
      unit: 'days',
      period: 'month ending 2026-06-30',
      source: 'Redfin',
    },
    {
      key: 'sales:02139:sales_change',
      label: 'Change',
      value: -12.5,
      unit: 'percent',
      period: '2026-04-02 to 2026-06-30',
      source: 'AgentInsight',
    },
    {
      key: 'sales:02139:recent_sales',
      label: 'Closed sales',
      value: 1250,
      unit: 'count',
      period: '2026-04-02 to 2026-06-30',
      source: 'AgentInsight',
    },
  ],
}

describe('checkFigures', () => {
  it('accepts figures printed from the facts at any coarser precision and in K/M form', () => {
    const text =
      'Homes in 02139 sold at 101.2% of list (about 101%), for a median $612,345 — call it $612K or $0.6M. ' +
      'The median home sold in 21 days; sales fell 12.5%. There were 1,250 closed sales.'
    expect(checkFigures(text, sheet)).toMatchObject({ ok: true, unsupported: [] })
  })

  it('allows years, small counts, ordinals up to 10th and the fact period dates', () => {
    const text =
      'In 2026, 3 steps matter. The 1st and 2nd offers came by June 30, 2026 (2026-06-30). Section 10 explains.'
    expect(checkFigures(text, sheet).ok).toBe(true)
  })

  it('reports invented figures, unit mismatches and other dates', () => {
    const text = 'Prices jumped 7.5% to $300,000 in 45 days; 21% of buyers waived; the 15th of May, 1,251 sales, $21.'
    expect(checkFigures(text, sheet).unsupported).toEqual(['7.5%', '$300,000', '45', '21%', '15th', '1,251', '$21'])
  })

  it('does not read digits inside words or ZIP codes as figures', () => {
    expect(checkFigures('ZIP 02139 beats Q3 and H1 numbers.', sheet).ok).toBe(true)
    expect(checkFigures('ZIP 94110 is elsewhere.', sheet).unsupported).toEqual(['94110'])
  })
})
