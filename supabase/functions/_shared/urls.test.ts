import { describe, expect, it } from 'vitest'

import { agentUrl, categoryUrl, figureSalesUrl, isUuid, postUrl, searchUrl, zipUrl } from './urls.ts'

describe('searchUrl', () => {
  it('trims and encodes the text and names the search type', () => {
    expect(searchUrl('  Jane Smith & Co ', 'agent')).toBe('/search-results?q=Jane%20Smith%20%26%20Co&type=agent')
    expect(searchUrl('78701', 'zipcode')).toBe('/search-results?q=78701&type=zipcode')
    expect(searchUrl('12 Main St, Austin', 'address')).toBe('/search-results?q=12%20Main%20St%2C%20Austin&type=address')
  })
})

describe('path builders', () => {
  it('build the public paths', () => {
    expect(postUrl('first-time-buyer-guide')).toBe('/blog/first-time-buyer-guide')
    expect(categoryUrl('market-analysis')).toBe('/blog/category/market-analysis')
    expect(agentUrl('5f0c2a9e-0000-4000-8000-000000000001')).toBe('/agent/5f0c2a9e-0000-4000-8000-000000000001')
    expect(zipUrl('78704')).toBe('/agents/78704')
    expect(figureSalesUrl('5f0c2a9e-0000-4000-8000-000000000001', 'sale_to_list_median')).toBe(
      '/figure-sales?agent=5f0c2a9e-0000-4000-8000-000000000001&figure=sale_to_list_median',
    )
  })

  it('keep a hostile value inside its path segment', () => {
    expect(postUrl('../admin?x=1#y')).toBe('/blog/..%2Fadmin%3Fx%3D1%23y')
    expect(agentUrl('a/b')).toBe('/agent/a%2Fb')
    expect(figureSalesUrl('a&b=c', 'x#y')).toBe('/figure-sales?agent=a%26b%3Dc&figure=x%23y')
  })
})

describe('isUuid', () => {
  it('accepts what PostgreSQL writes for a uuid, in either case, and nothing else', () => {
    expect(isUuid('0470c4eb-a005-4d2b-884b-021d83ad7775')).toBe(true)
    expect(isUuid('0470C4EB-A005-4D2B-884B-021D83AD7775')).toBe(true)
    expect(isUuid('0470c4eb-a005-4d2b-884b-021d83ad777')).toBe(false)
    expect(isUuid('0470c4eb-a005-4d2b-884b-021d83ad7775x')).toBe(false)
    expect(isUuid('0470c4eba0054d2b884b021d83ad7775')).toBe(false)
    expect(isUuid('g470c4eb-a005-4d2b-884b-021d83ad7775')).toBe(false)
    expect(isUuid("' or 1=1 --")).toBe(false)
  })
})
