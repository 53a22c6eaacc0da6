import { describe, expect, it } from 'vitest'
import { formatCount, formatDate, formatPriceRange, formatUsd, formatUsdThousands } from './format.ts'

const intlCount = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const intlUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })

/** Values across every magnitude, with halves (rounding), fractions and negatives; a fixed seed keeps runs equal. */
function sampleValues(): number[] {
  let seed = 20261126
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  const values = [
    0,
    0.4,
    0.5,
    0.6,
    1,
    9,
    10,
    99.5,
    999,
    999.5,
    1000,
    1234.5,
    999_999.5,
    612_000,
    1_050_000,
    2 ** 53,
    1e20,
    123_456_789_012_345_680_000,
  ]
  for (let i = 0; i < 5000; i += 1) {
    const magnitude = 10 ** Math.floor(random() * 16)
    const value = random() * magnitude
    values.push(value, Math.floor(value) + 0.5, Math.round(value))
  }
  return [...values, ...values.filter((value) => value >= 0.5).map((value) => -value)]
}

describe('number formatting without Intl (the first Intl formatter costs the search results their ICU start-up)', () => {
  it('groups and rounds counts exactly as Intl.NumberFormat en-US does', () => {
    for (const value of sampleValues()) expect(formatCount(value), String(value)).toBe(intlCount.format(value))
  })

  it('formats USD amounts exactly as Intl.NumberFormat en-US currency does', () => {
    for (const value of sampleValues()) expect(formatUsd(value), String(value)).toBe(intlUsd.format(value))
  })

  it('keeps amounts from 1e21 up, which String() writes with an exponent, in Intl digits', () => {
    expect(formatCount(1e21)).toBe('1,000,000,000,000,000,000,000')
    expect(formatUsd(-2.5e22)).toBe('-$25,000,000,000,000,000,000,000')
  })

  it('writes an amount that rounds to zero without a sign', () => {
    expect(formatCount(-0.4)).toBe('0')
    expect(formatUsd(-0.4)).toBe('$0')
  })

  it('reads PostgREST numeric strings and shows an em dash for missing values', () => {
    expect(formatUsd('612000.00')).toBe('$612,000')
    expect(formatCount('1234')).toBe('1,234')
    expect(formatUsd(null)).toBe('—')
    expect(formatCount('not a number')).toBe('—')
  })

  it('writes the card price range in thousands', () => {
    expect(formatUsdThousands(385_000)).toBe('$385K')
    expect(formatUsdThousands(1_050_000)).toBe('$1,050K')
    expect(formatPriceRange(385_000, 1_050_000)).toBe('$385K-$1,050K')
    expect(formatPriceRange(null, 1_050_000)).toBeNull()
  })

  it('formats calendar dates in UTC, and an em dash for a bad one', () => {
    expect(formatDate('2026-10-18')).toBe('Oct 18, 2026')
    expect(formatDate('2026-10-18T23:30:00-07:00')).toBe('Oct 18, 2026')
    expect(formatDate('soon')).toBe('—')
  })
})
