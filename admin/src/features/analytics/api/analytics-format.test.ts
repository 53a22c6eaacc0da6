import { describe, expect, it } from 'vitest'

import { countTrend, formatCount, formatRate, rateTrend } from './analytics-format'

describe('analytics formats', () => {
  it('groups thousands and shows a fraction as a one-decimal percent', () => {
    expect(formatCount(12345)).toBe('12,345')
    expect(formatRate(2 / 3)).toBe('66.7%')
    expect(formatRate(0)).toBe('0.0%')
    expect(formatRate(null)).toBe('—')
  })
})

describe('trends against the previous period', () => {
  it('gives counts a relative change and rates percentage points', () => {
    expect(countTrend(125, 100, 30)).toEqual({ text: '+25% vs previous 30 days', direction: 'up' })
    expect(countTrend(50, 100, 7)).toEqual({ text: '-50% vs previous 7 days', direction: 'down' })
    expect(countTrend(3, 0, 7)).toEqual({ text: 'New vs previous 7 days (0)', direction: 'up' })
    expect(countTrend(4, 4, 90)).toEqual({ text: 'Same as previous 90 days', direction: 'flat' })
    expect(rateTrend(0.05, 0.035, 7)).toEqual({ text: '+1.5 pts vs previous 7 days', direction: 'up' })
    expect(rateTrend(0.02, 0.03, 30)).toEqual({ text: '-1.0 pts vs previous 30 days', direction: 'down' })
    expect(rateTrend(null, 0.03, 30).direction).toBe('flat')
  })
})
