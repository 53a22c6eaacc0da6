import { describe, expect, it } from 'vitest'

import {
  meanInterval,
  medianInterval,
  medianIntervalRank,
  recomputeFigure,
  roundTo,
  sortedMedian,
  tQuantile975,
  type FigureSaleInput,
} from './figure-math.ts'

/** P(X <= k) for X ~ Binomial(n, 1/2), exactly, with big integers. */
function exactCdf(n: number, k: number): number {
  let coefficient = 1n
  let sum = 0n
  for (let i = 0; i <= k; i += 1) {
    if (i > 0) coefficient = (coefficient * BigInt(n - i + 1)) / BigInt(i)
    sum += coefficient
  }
  // sum / 2^n to 15 significant digits
  return Number((sum * 10n ** 18n) / 2n ** BigInt(n)) / 1e18
}

describe('medianIntervalRank', () => {
  it('has no interval below 6 values', () => {
    for (const n of [0, 1, 2, 3, 4, 5]) expect(medianIntervalRank(n)).toBeNull()
  })

  it('is the largest rank j with P(X <= j - 1) <= 2.5 %, checked against exact binomial sums up to n = 300', () => {
    for (let n = 6; n <= 300; n += 1) {
      const j = medianIntervalRank(n)!
      expect(exactCdf(n, j - 1), `n = ${n}`).toBeLessThanOrEqual(0.025)
      expect(exactCdf(n, j), `n = ${n}`).toBeGreaterThan(0.025)
    }
  })

  it('gives the textbook ranks', () => {
    // n = 6: min..max (96.9 %); n = 10: 2nd..9th (97.9 %); n = 20: 6th..15th (95.9 %); n = 100: 40th..61st
    expect([6, 10, 20, 100].map(medianIntervalRank)).toEqual([1, 2, 6, 40])
  })

  it('does not underflow for large samples', () => {
    const j = medianIntervalRank(5000)!
    // the normal approximation: n/2 - 1.96 sqrt(n)/2, about 2431
    expect(Math.abs(j - (2500 - 0.98 * Math.sqrt(5000)))).toBeLessThan(3)
  })
})

describe('tQuantile975', () => {
  it('follows the printed table to 30 degrees of freedom and the expansion beyond', () => {
    expect([1, 2, 5, 10, 30].map(tQuantile975)).toEqual([12.706, 4.303, 2.571, 2.228, 2.042])
    // published values: t(0.975; 40) = 2.021, 60: 2.000, 120: 1.980, 1000: 1.962
    expect([40, 60, 120, 1000].map(tQuantile975)).toEqual([2.021, 2, 1.98, 1.962])
    expect(tQuantile975(31)).toBeLessThan(2.042)
    expect(tQuantile975(0)).toBeNull()
  })
})

describe('intervals and medians', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(sortedMedian([1, 2, 3])).toBe(2)
    expect(sortedMedian([1, 2, 3, 10])).toBe(2.5)
    expect(sortedMedian([])).toBeNull()
  })

  it('gives the order-statistic interval of a median', () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toBeNull()
    expect(medianInterval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual([2, 9])
  })

  it('gives the Student t interval of a mean', () => {
    expect(meanInterval([100])).toBeNull()
    // mean 100, sample sd √(16/3), n 4, t(3) = 3.182: 100 ± 3.182 × √(16/3) / 2
    const [low, high] = meanInterval([98, 98, 102, 102])!
    expect(low).toBeCloseTo(100 - (3.182 * Math.sqrt(16 / 3)) / 2, 10)
    expect(high).toBeCloseTo(100 + (3.182 * Math.sqrt(16 / 3)) / 2, 10)
  })

  it('rounds half away from zero like PostgreSQL', () => {
    expect(roundTo(1.005, 2)).toBe(1.01)
    expect(roundTo(2.5, 0)).toBe(3)
    expect(roundTo(-2.5, 0)).toBe(-3)
    expect(roundTo(101.23449, 2)).toBe(101.23)
  })
})

describe('recomputeFigure', () => {
  const sale = (
    id: string,
    side: 'listing' | 'buyer',
    credit: number,
    list: number | null,
    close: number,
  ): FigureSaleInput => ({
    property_id: id,
    side,
    credit,
    dual_agency: false,
    list_price: list,
    close_price: close,
    credited_volume: Math.round(close * credit * 100) / 100,
    days_on_market: 10,
  })
  const listing = [
    sale('a', 'listing', 1, 400000, 420000),
    sale('b', 'listing', 0.5, 200000, 190000),
    sale('c', 'listing', 1, null, 300000),
  ]

  it('counts sales, sums credit and credited volume, and takes the price range', () => {
    expect(recomputeFigure('listing_sales', listing)).toEqual({ value: 3, n: 3, interval: null })
    expect(recomputeFigure('listing_sides', listing).value).toBe(2.5)
    expect(recomputeFigure('listing_volume', listing).value).toBe(815000)
    expect(recomputeFigure('listing_price_min', listing).value).toBe(190000)
    expect(recomputeFigure('listing_price_max', listing).value).toBe(420000)
  })

  it('computes rates over the sales with a list price, whatever the credit', () => {
    const rows = listing.slice(0, 2)
    expect(recomputeFigure('sale_to_list_median', rows)).toMatchObject({ value: 100, n: 2, interval: null })
    expect(recomputeFigure('sale_to_list_mean', rows).value).toBe(100)
  })

  it('shrinks sale-to-list toward the ZIP by k sales', () => {
    const rows = listing.slice(0, 2)
    // (105 + 95 + 10 × 102) / (2 + 10)
    expect(recomputeFigure('sale_to_list_shrunk', rows, { prior: 102, shrinkK: 10 }).value).toBeCloseTo(1220 / 12, 10)
    expect(recomputeFigure('sale_to_list_shrunk', rows).value).toBeNull()
  })

  it('counts a dual-agency sale once in the sales and twice in the sides', () => {
    const dual = [
      { ...sale('d', 'listing', 1, 300000, 300000), dual_agency: true },
      { ...sale('d', 'buyer', 1, 300000, 300000), dual_agency: true },
    ]
    expect(recomputeFigure('total_sales', dual).value).toBe(1)
    expect(recomputeFigure('total_sides', dual).value).toBe(2)
    expect(recomputeFigure('total_volume', dual).value).toBe(600000)
  })

  it('shares the ZIP by sides over twice its closed sales', () => {
    expect(recomputeFigure('zip_market_share', listing, { zipClosedSales: 10 }).value).toBe(12.5)
  })
})
