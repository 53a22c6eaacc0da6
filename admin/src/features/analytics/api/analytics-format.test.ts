import { describe, expect, it } from 'vitest'

import { formatCount, formatRate } from './analytics-format'

describe('analytics formats', () => {
  it('groups thousands and shows a fraction as a one-decimal percent', () => {
    expect(formatCount(12345)).toBe('12,345')
    expect(formatRate(2 / 3)).toBe('66.7%')
    expect(formatRate(0)).toBe('0.0%')
    expect(formatRate(null)).toBe('—')
  })
})
