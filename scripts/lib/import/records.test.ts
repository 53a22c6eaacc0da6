import { describe, expect, it } from 'vitest'
import { applyMapping, MappingSchema } from './mapping.ts'
import { toMemberRow, toPropertyRow } from './records.ts'

const closed = {
  ListingKey: 'L-1',
  StandardStatus: 'Closed',
  ListPrice: '500000',
  ClosePrice: '$510,000',
  CloseDate: '2025-03-01',
  ListingContractDate: '2025-01-15',
  DaysOnMarket: '12',
  StreetNumber: '12',
  StreetName: 'Elm St',
  City: 'Melrose',
  StateOrProvince: 'ma',
  PostalCode: '02176-1234',
}

describe('toPropertyRow', () => {
  it('maps RESO fields onto properties columns, normalising ZIP and state', () => {
    const result = toPropertyRow(closed, 'test-mls')
    expect(result).toMatchObject({
      ok: true,
      row: {
        source_record_id: 'L-1',
        address: '12 Elm St',
        sale_price: 510000,
        list_price: 500000,
        zip_code: '02176',
        state: 'MA',
        days_on_market: 12,
      },
    })
  })

  it('keeps missing values null, never 0', () => {
    const result = toPropertyRow({ ...closed, ListPrice: '', DaysOnMarket: undefined }, 'test-mls')
    expect(result.ok && result.row.list_price).toBeNull()
    expect(result.ok && result.row.days_on_market).toBeNull()
  })

  it.each([
    [{ ListingKey: '' }, 'ListingKey: is required'],
    [{ ClosePrice: '0' }, 'ClosePrice: must be a positive number (USD)'],
    [{ ListPrice: 'call agent' }, 'ListPrice: must be a number (USD)'],
    [{ CloseDate: '2025-01-01' }, 'CloseDate: is before ListingContractDate (2025-01-15)'],
    [{ PostalCode: '2176' }, 'PostalCode: unknown ZIP format (expected 12345 or 12345-6789)'],
    [{ ClosePrice: '' }, 'ClosePrice: is required when StandardStatus is Closed'],
    [{ StandardStatus: 'Sold' }, 'StandardStatus: must be a RESO StandardStatus'],
  ])('rejects %j with a reason naming the field', (change, reason) => {
    const result = toPropertyRow({ ...closed, ...change }, 'test-mls')
    expect(result.ok).toBe(false)
    expect(!result.ok && result.reason).toContain(reason)
  })

  it('uses OnMarketDate when there is no ListingContractDate', () => {
    const result = toPropertyRow({ ...closed, ListingContractDate: '', OnMarketDate: '2025-04-01' }, 'test-mls')
    expect(!result.ok && result.reason).toBe('CloseDate: is before OnMarketDate (2025-04-01)')
  })
})

describe('toMemberRow', () => {
  it('builds the name from first and last name and requires an MLS id', () => {
    expect(toMemberRow({ MemberMlsId: 'A1', MemberFirstName: 'Ana', MemberLastName: 'Silva' })).toMatchObject({
      ok: true,
      row: { name: 'Ana Silva' },
    })
    expect(toMemberRow({ MemberMlsId: ' ', MemberFullName: 'X' })).toEqual({
      ok: false,
      reason: 'MemberMlsId: is required',
    })
  })
})

describe('applyMapping', () => {
  it('reads columns, constants and epoch-ms dates into RESO fields', () => {
    const mapping = MappingSchema.parse({
      source: 'redfin',
      fields: {
        ListPrice: { column: 'price' },
        CloseDate: { column: 'date_sold', format: 'epoch-ms' },
        StandardStatus: { const: 'Closed' },
      },
    })
    expect(applyMapping({ price: '579900', date_sold: '1598397300000', other: 'x' }, mapping)).toEqual({
      ListPrice: '579900',
      CloseDate: '2020-08-25',
      StandardStatus: 'Closed',
    })
  })
})
