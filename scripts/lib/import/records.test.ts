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
    [{ ClosePrice: 7e11 }, 'ClosePrice: is above the plausible maximum of $500,000,000'],
    [{ ListPrice: '500' }, 'ListPrice: is below the plausible minimum of $1,000'],
    [{ DaysOnMarket: '42687' }, 'DaysOnMarket: is above the plausible maximum of 3,650 days'],
    [{ CloseDate: '2999-01-01' }, 'CloseDate: is in the future (2999-01-01)'],
    [{ ListingContractDate: '1901-05-01' }, 'ListingContractDate: is before 1950-01-01, not a plausible date'],
    [
      { ClosePrice: '5100' },
      'ClosePrice: is 0.01 times ListPrice ($500,000): outside 0.2-5, one of the prices is wrong',
    ],
    [{ StandardStatus: 'Active' }, 'ClosePrice: must be empty unless StandardStatus is Closed (it is Active)'],
    [
      { StandardStatus: 'ActiveUnderContract' },
      'CloseDate: must be empty unless StandardStatus is Closed (it is Active Under Contract)',
    ],
  ])('rejects %j with a reason naming the field', (change, reason) => {
    const result = toPropertyRow({ ...closed, ...change }, 'test-mls')
    expect(result.ok).toBe(false)
    expect(!result.ok && result.reason).toContain(reason)
  })

  it('names one problem per field, the first one', () => {
    const result = toPropertyRow({ ...closed, ListPrice: '0' }, 'test-mls')
    expect(result).toEqual({ ok: false, reason: 'ListPrice: must be a positive number (USD)' })
  })

  it.each([
    ['Active Under Contract', 'Active Under Contract'],
    ['ActiveUnderContract', 'Active Under Contract'],
    ['ComingSoon', 'Coming Soon'],
    ["org.reso.metadata.enums.StandardStatus'ComingSoon'", 'Coming Soon'],
    ['closed', 'Closed'],
  ])('accepts StandardStatus %j in either RESO enum form (%s)', (value, stored) => {
    const open = value.toLowerCase().includes('closed') ? closed : { ...closed, ClosePrice: '', CloseDate: '' }
    const result = toPropertyRow({ ...open, StandardStatus: value }, 'test-mls')
    expect(result.ok && result.row.standard_status).toBe(stored)
  })

  it('stores PropertyType enum member names in display form and keeps a feed’s own types', () => {
    const row = (type: string) => {
      const result = toPropertyRow({ ...closed, PropertyType: type }, 'test-mls')
      return result.ok ? result.row.property_type : result.reason
    }
    expect(row('ResidentialIncome')).toBe('Residential Income')
    expect(row('Residential')).toBe('Residential')
    expect(row('condo')).toBe('condo')
  })

  it('reads every agent role and office by Key and MLS id', () => {
    const result = toPropertyRow(
      {
        ...closed,
        ListAgentKey: 'K1',
        ListAgentMlsId: 'M1',
        CoListAgentKey: 'K2',
        BuyerAgentMlsId: 'M3',
        BuyerAgentFullName: 'Bea Buyer',
        CoBuyerAgentKey: 'K4',
        CoBuyerAgentMlsId: 'M4',
        ListOfficeKey: 'O1',
        BuyerOfficeName: 'Buyer Realty',
      },
      'test-mls',
    )
    expect(result).toMatchObject({
      ok: true,
      row: {
        list_agent_key: 'K1',
        list_agent_mls_id: 'M1',
        co_list_agent_key: 'K2',
        co_list_agent_mls_id: null,
        buyer_agent_key: null,
        buyer_agent_mls_id: 'M3',
        buyer_agent_full_name: 'Bea Buyer',
        co_buyer_agent_key: 'K4',
        co_buyer_agent_mls_id: 'M4',
        list_office_key: 'O1',
        buyer_office_name: 'Buyer Realty',
      },
    })
  })

  it('uses OnMarketDate when there is no ListingContractDate', () => {
    const result = toPropertyRow({ ...closed, ListingContractDate: '', OnMarketDate: '2025-04-01' }, 'test-mls')
    expect(!result.ok && result.reason).toBe('CloseDate: is before OnMarketDate (2025-04-01)')
  })
})

describe('toMemberRow', () => {
  it('builds the name from first and last name and requires a MemberKey or an MLS id', () => {
    expect(toMemberRow({ MemberMlsId: 'A1', MemberFirstName: 'Ana', MemberLastName: 'Silva' })).toMatchObject({
      ok: true,
      row: { name: 'Ana Silva', member_key: null, mls_id: 'A1' },
    })
    expect(toMemberRow({ MemberMlsId: ' ', MemberFullName: 'X' })).toEqual({
      ok: false,
      reason: 'MemberKey: is required (or MemberMlsId)',
    })
  })

  it('accepts a Member keyed by MemberKey alone (the Data Dictionary does not require MemberMlsId)', () => {
    expect(toMemberRow({ MemberKey: 'K9', MemberFullName: 'Kay Key' })).toEqual({
      ok: true,
      row: {
        member_key: 'K9',
        mls_id: null,
        name: 'Kay Key',
        license_number: null,
        email: null,
        phone: null,
        brokerage: null,
      },
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
