import { describe, expect, it } from 'vitest'

import { actionabilityLabel, densityBand, densityLabel, isFeatured } from './density'

describe('density bands', () => {
  it.each([
    [10, 'high', 'High Density', 'Highly Actionable'],
    [8, 'high', 'High Density', 'Highly Actionable'],
    [7.9, 'medium', 'Medium Density', 'Actionable'],
    [5, 'medium', 'Medium Density', 'Actionable'],
    [4.9, 'low', 'Low Density', 'Informational'],
    [null, 'low', 'Low Density', 'Informational'],
  ] as const)('score %s is %s', (score, band, label, actionability) => {
    expect(densityBand(score)).toBe(band)
    expect(densityLabel(score)).toBe(label)
    expect(actionabilityLabel(score)).toBe(actionability)
  })

  it('features posts scoring 7 or more', () => {
    expect(isFeatured(7)).toBe(true)
    expect(isFeatured(6.9)).toBe(false)
    expect(isFeatured(null)).toBe(false)
  })
})
