import { describe, expect, it } from 'vitest'

import { AnalyticsSearchParamsSchema, filtersOf, periodRange, previousRange } from './analytics-period'

describe('periodRange', () => {
  it('covers N whole UTC days ending with today', () => {
    expect(periodRange(7, new Date('2026-03-10T23:30:00-05:00'))).toEqual({
      period_start: '2026-03-05T00:00:00.000Z',
      period_end: '2026-03-12T00:00:00.000Z',
    })
    expect(periodRange(30, new Date('2026-03-01T00:00:00Z'))).toEqual({
      period_start: '2026-01-31T00:00:00.000Z',
      period_end: '2026-03-02T00:00:00.000Z',
    })
  })
})

describe('AnalyticsSearchParamsSchema', () => {
  it('reads 7, 30 or 90 and falls back to 30', () => {
    expect(AnalyticsSearchParamsSchema.parse({ period: '7' }).period).toBe(7)
    expect(AnalyticsSearchParamsSchema.parse({ period: '90' }).period).toBe(90)
    expect(AnalyticsSearchParamsSchema.parse({ period: '12' }).period).toBe(30)
    expect(AnalyticsSearchParamsSchema.parse({}).period).toBe(30)
  })
})

describe('previousRange', () => {
  it('is the period of the same length just before', () => {
    expect(previousRange({ period_start: '2026-03-05T00:00:00.000Z', period_end: '2026-03-12T00:00:00.000Z' })).toEqual(
      {
        period_start: '2026-02-26T00:00:00.000Z',
        period_end: '2026-03-05T00:00:00.000Z',
      },
    )
  })
})

describe('AnalyticsSearchParamsSchema filters', () => {
  it('keeps a page path, a source and an excluded prefix, and drops ones that break their rule', () => {
    const parsed = AnalyticsSearchParamsSchema.parse({ page: '/blog/offer', source: 'google.com', exclude: '/admin' })
    expect(filtersOf(parsed)).toEqual({
      page_path: '/blog/offer',
      traffic_source: 'google.com',
      exclude_path: '/admin',
    })
    const bad = AnalyticsSearchParamsSchema.parse({ page: 'blog', source: 'x'.repeat(256), exclude: '/' })
    expect(filtersOf(bad)).toEqual({})
  })
})
