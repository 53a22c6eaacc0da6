import { describe, expect, it } from 'vitest'

import { searchResultsUrl } from './hero-search'

describe('searchResultsUrl', () => {
  it('trims and encodes the text and names the search type', () => {
    expect(searchResultsUrl('  Jane Smith & Co ', 'agent')).toBe('/search-results?q=Jane%20Smith%20%26%20Co&type=agent')
    expect(searchResultsUrl('78701', 'zipcode')).toBe('/search-results?q=78701&type=zipcode')
    expect(searchResultsUrl('12 Main St, Austin', 'address')).toBe('/search-results?q=12%20Main%20St%2C%20Austin&type=address')
  })
})
