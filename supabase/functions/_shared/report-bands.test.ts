import { describe, expect, it } from 'vitest'

import { gaugeBand, percentileBand } from './report-bands.ts'

/** Each band with the values at and just inside its edges. */
const cases = {
  percentile: {
    band: percentileBand,
    at: { Excellent: [100, 80], Good: [79.9, 60], Average: [59, 40], 'Below Average': [39.9, 0] },
  },
  gauge: { band: gaugeBand, at: { Excellent: [100, 90], Good: [89.9, 70], Fair: [69, 40], Poor: [39] } },
} as const

describe('report bands', () => {
  const rows = Object.entries(cases).flatMap(([scale, { band, at }]) =>
    Object.entries(at).flatMap(([name, values]) => values.map((value) => ({ scale, band, value, name }))),
  )
  it.each(rows)('$scale at $value is $name', ({ band, value, name }) => {
    expect(band(value)).toBe(name)
  })
})
