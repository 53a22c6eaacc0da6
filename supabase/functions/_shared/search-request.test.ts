import { describe, expect, it } from 'vitest'
import { HttpError, parseBody } from './http.ts'
import { redactHouseNumbers, SearchAgentsRequestSchema, searchAreaOptions, searchLogQuery } from './search-request.ts'

describe('the search body (SearchAgentsRequestSchema through the request shell)', () => {
  it('trims the query and applies the defaults', () => {
    expect(parseBody(SearchAgentsRequestSchema, { query: '  Jane Smith ' })).toEqual({
      query: 'Jane Smith',
      type: 'agent',
      limit: 20,
      offset: 0,
    })
    expect(parseBody(SearchAgentsRequestSchema, { query: '02139', type: 'zipcode', limit: 50, offset: 100 })).toEqual({
      query: '02139',
      type: 'zipcode',
      limit: 50,
      offset: 100,
    })
    expect(parseBody(SearchAgentsRequestSchema, { query: 'x', type: null, limit: null })).toMatchObject({
      type: 'agent',
      limit: 20,
    })
  })

  it.each([
    [{ query: 7 }, 'query', 'Enter a name, ZIP code or address to search for.'],
    [{ query: ' \n ' }, 'query', 'Enter a name, ZIP code or address to search for.'],
    [{ query: 'a'.repeat(201) }, 'query', 'Your search is too long: use at most 200 characters.'],
    [{ query: 'Jane', type: 'AGENT' }, 'type', 'The search type must be agent, zipcode or address.'],
    [{ query: 'Jane', limit: 51 }, 'limit', 'limit must be a whole number from 1 to 50.'],
    [{ query: 'Jane', limit: '10' }, 'limit', 'limit must be a whole number from 1 to 50.'],
    [{ query: 'Jane', offset: 10_001 }, 'offset', 'offset must be a whole number from 0 to 10000.'],
    [{ query: '0213', type: 'zipcode' }, 'query', 'Enter a 5-digit ZIP code, for example 02139.'],
  ])('refuses %j with 400 naming the field', (body, field, message) => {
    let thrown: unknown
    try {
      parseBody(SearchAgentsRequestSchema, body)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(HttpError)
    expect(thrown).toMatchObject({ status: 400, message, errors: { [field]: message } })
  })

  it('accepts ZIP+4 for a ZIP search', () => {
    expect(parseBody(SearchAgentsRequestSchema, { query: '02139-4307', type: 'zipcode' }).query).toBe('02139-4307')
  })
})

describe('redactHouseNumbers', () => {
  it.each([
    ['12B Main St Apt 4, Boston, MA 02139', '# Main St Apt #, Boston, MA 02139'],
    ['12345 Main St', '# Main St'],
    ['02139', '02139'],
    ['Boston, MA 02139-4307', 'Boston, MA 02139-4307'],
    ['Cambridge, MA', 'Cambridge, MA'],
  ])('%s -> %s', (address, redacted) => {
    expect(redactHouseNumbers(address)).toBe(redacted)
  })
})

describe('searchLogQuery', () => {
  it('redacts house numbers of addresses', () => {
    expect(searchLogQuery({ query: '5 Brattle St, Cambridge', type: 'address', limit: 20, offset: 0 })).toBe(
      '# Brattle St, Cambridge',
    )
  })

  it('keeps names and ZIPs as typed', () => {
    expect(searchLogQuery({ query: 'Jane 2nd', type: 'agent', limit: 20, offset: 0 })).toBe('Jane 2nd')
    expect(searchLogQuery({ query: '02139', type: 'zipcode', limit: 20, offset: 0 })).toBe('02139')
  })
})

describe('sort and filters of ZIP and address searches', () => {
  it('passes them to the SQL as area_options, and none when the search has none', () => {
    const input = parseBody(SearchAgentsRequestSchema, {
      query: '02139',
      type: 'zipcode',
      sort: 'buyer_sales',
      side: 'buyer',
      minPrice: 300_000,
      maxPrice: 900_000,
      propertyType: ' Condo ',
    })
    expect(searchAreaOptions(input)).toEqual({
      sort: 'buyer_sales',
      side: 'buyer',
      min_price: 300_000,
      max_price: 900_000,
      property_type: 'Condo',
    })
    expect(searchAreaOptions(parseBody(SearchAgentsRequestSchema, { query: '02139', type: 'zipcode' }))).toBeNull()
  })

  it.each([
    [{ query: 'Jane', sort: 'volume' }, 'sort', 'Sorting and filters apply to ZIP code and address searches.'],
    [
      { query: 'Jane', propertyType: 'Condo' },
      'propertyType',
      'Sorting and filters apply to ZIP code and address searches.',
    ],
    [
      { query: '02139', type: 'zipcode', sort: 'rating' },
      'sort',
      'Sort by sides, listing_sales, buyer_sales, volume or sale_to_list.',
    ],
    [
      { query: '02139', type: 'zipcode', minPrice: 2, maxPrice: 1 },
      'minPrice',
      'The lowest price must not be above the highest price.',
    ],
    [{ query: '02139', type: 'zipcode', propertyType: '' }, 'propertyType', 'propertyType must not be empty.'],
  ])('refuses %j naming the field', (body, field, message) => {
    let thrown: unknown
    try {
      parseBody(SearchAgentsRequestSchema, body)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(HttpError)
    expect(thrown).toMatchObject({ status: 400, message, errors: { [field]: message } })
  })
})
