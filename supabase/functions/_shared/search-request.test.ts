import { describe, expect, it } from 'vitest'
import { NOT_JSON_MESSAGE, parseSearchRequest, redactHouseNumbers, searchLogQuery } from './search-request.ts'

describe('parseSearchRequest', () => {
  it('trims the query and applies the defaults', () => {
    expect(parseSearchRequest({ query: '  Jane Smith ' })).toEqual({
      ok: true,
      input: { query: 'Jane Smith', type: 'agent', limit: 20, offset: 0 },
    })
    expect(parseSearchRequest({ query: '02139', type: 'zipcode', limit: 50, offset: 100 })).toEqual({
      ok: true,
      input: { query: '02139', type: 'zipcode', limit: 50, offset: 100 },
    })
    expect(parseSearchRequest({ query: 'x', type: null, limit: null })).toMatchObject({
      ok: true,
      input: { type: 'agent', limit: 20 },
    })
  })

  it.each([
    [undefined, NOT_JSON_MESSAGE],
    [[], NOT_JSON_MESSAGE],
    ['Jane', NOT_JSON_MESSAGE],
    [{ query: 7 }, 'Enter a name, ZIP code or address to search for.'],
    [{ query: ' \n ' }, 'Enter a name, ZIP code or address to search for.'],
    [{ query: 'a'.repeat(201) }, 'Your search is too long: use at most 200 characters.'],
    [{ query: 'Jane', type: 'AGENT' }, 'The search type must be agent, zipcode or address.'],
    [{ query: 'Jane', limit: 51 }, 'limit must be a whole number from 1 to 50.'],
    [{ query: 'Jane', limit: '10' }, 'limit must be a whole number from 1 to 50.'],
    [{ query: 'Jane', offset: 10_001 }, 'offset must be a whole number from 0 to 10000.'],
    [{ query: '0213', type: 'zipcode' }, 'Enter a 5-digit ZIP code, for example 02139.'],
  ])('refuses %j', (body, error) => {
    expect(parseSearchRequest(body)).toEqual({ ok: false, error })
  })

  it('accepts ZIP+4 for a ZIP search', () => {
    expect(parseSearchRequest({ query: '02139-4307', type: 'zipcode' }).ok).toBe(true)
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
