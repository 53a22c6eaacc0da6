import { describe, expect, it } from 'vitest'

import { describeTrend, formatMinutes } from './dashboard-schemas'

describe('describeTrend', () => {
  it('says how far the period moved from the previous one', () => {
    expect(describeTrend({ current: 12, previous: 9 }, 30)).toEqual({ text: '+3 vs previous 30 days', direction: 'up' })
    expect(describeTrend({ current: 1, previous: 1200 }, 7)).toEqual({
      text: '−1,199 vs previous 7 days',
      direction: 'down',
    })
    expect(describeTrend({ current: 4, previous: 4 }, 30)).toEqual({
      text: 'same as previous 30 days',
      direction: 'flat',
    })
  })
})

describe('formatMinutes', () => {
  it('uses minutes, hours or days', () => {
    expect(formatMinutes(12.4)).toBe('12 min')
    expect(formatMinutes(210)).toBe('3.5 h')
    expect(formatMinutes(3 * 1440)).toBe('3.0 days')
  })
})
