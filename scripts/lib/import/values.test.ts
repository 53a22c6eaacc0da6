import { describe, expect, it } from 'vitest'
import { blankToUndefined, cleanNumber, parseDate, parseStateCode, parseZip } from './values.ts'

describe('import values', () => {
  it('turns blank cells into undefined, never 0', () => {
    expect(blankToUndefined('  ')).toBeUndefined()
    expect(cleanNumber('')).toBeUndefined()
    expect(cleanNumber('0')).toBe(0)
  })

  it('reads prices with a dollar sign and thousands separators, and leaves junk for the schema to reject', () => {
    expect(cleanNumber('$1,250,000')).toBe(1_250_000)
    expect(cleanNumber('579900.50')).toBe(579_900.5)
    expect(cleanNumber('call agent')).toBe('call agent')
  })

  it('reads epoch milliseconds in UTC and still accepts ISO dates in an epoch column', () => {
    expect(parseDate('1598397300000', 'epoch-ms')).toBe('2020-08-25')
    expect(parseDate('2020-08-14', 'epoch-ms')).toBe('2020-08-14')
    expect(parseDate('2020-08-14T23:00:00Z')).toBe('2020-08-14')
  })

  it('reads US dates only when asked and refuses impossible ones', () => {
    expect(parseDate('08/14/2020', 'MM/DD/YYYY')).toBe('2020-08-14')
    expect(parseDate('08/14/2020')).toBeUndefined()
    expect(parseDate('2021-02-30')).toBeUndefined()
  })

  it('keeps five-digit ZIPs, drops the +4 and refuses a ZIP that lost its leading zero', () => {
    expect(parseZip('02176')).toBe('02176')
    expect(parseZip('02176-1234')).toBe('02176')
    expect(parseZip('2176')).toBeUndefined()
  })

  it('converts state names to USPS codes', () => {
    expect(parseStateCode('Massachusetts')).toBe('MA')
    expect(parseStateCode('tx')).toBe('TX')
    expect(parseStateCode('Atlantis')).toBeUndefined()
  })
})
