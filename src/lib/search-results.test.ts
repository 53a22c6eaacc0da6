import fs from 'node:fs'
import { describe, expect, it } from 'vitest'

import {
  hasFilters,
  noResultsText,
  parseSearchParams,
  rankingBadge,
  resultCountText,
  searchRequestBody,
  searchResultsUrl,
  serviceAreaSummary,
} from './search-results'

describe('parseSearchParams', () => {
  it('defaults a missing or unknown type to agent and trims the query', () => {
    expect(parseSearchParams('?q=%20Jane%20')).toEqual({ q: 'Jane', type: 'agent' })
    expect(parseSearchParams('?q=Jane&type=planet')).toEqual({ q: 'Jane', type: 'agent' })
    expect(parseSearchParams('')).toEqual({ q: '', type: 'agent' })
    expect(parseSearchParams('?q=02139&type=zipcode')).toEqual({ q: '02139', type: 'zipcode' })
  })
})

/**
 * Runs the results page's inline title script (src/pages/search-results.astro, the one place its rule lives) for a
 * query string, with only the parts of the page it touches; returns the h1 and the tab title it leaves.
 */
function titleFor(search: string): { heading: string; tab: string } {
  const page = fs.readFileSync(new URL('../pages/search-results.astro', import.meta.url), 'utf8')
  const script = /<h1[^>]*>(.*?)<\/h1>\s*<script is:inline>([\s\S]*?)<\/script>/.exec(page)
  if (!script) throw new Error('search-results.astro has no h1 followed by its inline title script')
  const heading = { textContent: script[1]! }
  const document = { title: 'Agent Search Results | AgentInsight', currentScript: { previousElementSibling: heading } }
  new Function('location', 'document', script[2]!)({ search }, document)
  return { heading: heading.textContent, tab: document.title }
}

describe("the results page's title", () => {
  it('has one form per type, a missing or unknown type being a name search, in the h1 and the tab', () => {
    expect(titleFor('?q=Jane&type=agent')).toEqual({
      heading: 'Agents matching "Jane"',
      tab: 'Agents matching "Jane" | AgentInsight',
    })
    expect(titleFor('?q=%20Jane%20&type=planet').heading).toBe('Agents matching "Jane"')
    expect(titleFor('?q=02139&type=zipcode').heading).toBe('Top agents in 02139')
    expect(titleFor('?q=1%20Main%20St&type=address').heading).toBe('Agents near 1 Main St')
  })

  it('keeps the page title without a query', () => {
    expect(titleFor('?q=%20%20&type=zipcode')).toEqual({
      heading: 'Agent search results',
      tab: 'Agent Search Results | AgentInsight',
    })
  })
})

describe('resultCountText', () => {
  it('uses the singular for one and adds the place when known', () => {
    expect(resultCountText(1, null)).toBe('1 agent found')
    expect(resultCountText(3, { city: 'Cambridge', state: 'MA', zipCode: '02139' })).toBe(
      '3 agents found in Cambridge, MA',
    )
    expect(resultCountText(0, { city: null, state: null, zipCode: '02139' })).toBe('0 agents found')
  })
})

describe('rankingBadge', () => {
  it('bands top 10 % green, top 25 % blue, top 50 % yellow', () => {
    expect(rankingBadge(1, 20)).toEqual({ label: 'Top 5%', tone: 'green' })
    expect(rankingBadge(2, 20)).toEqual({ label: 'Top 10%', tone: 'green' })
    expect(rankingBadge(3, 20)).toEqual({ label: 'Top 15%', tone: 'blue' })
    expect(rankingBadge(5, 20)).toEqual({ label: 'Top 25%', tone: 'blue' })
    expect(rankingBadge(6, 20)).toEqual({ label: 'Top 30%', tone: 'yellow' })
    expect(rankingBadge(10, 20)).toEqual({ label: 'Top 50%', tone: 'yellow' })
    expect(rankingBadge(1, 1000)).toEqual({ label: 'Top 1%', tone: 'green' })
    expect(rankingBadge(11, 20)).toEqual({ label: 'Ranked #11 of 20', tone: 'gray' })
    expect(rankingBadge(20, 20)).toEqual({ label: 'Ranked #20 of 20', tone: 'gray' })
  })
  it('rounds the percentage as the spec does', () => {
    expect(rankingBadge(1, 3)).toEqual({ label: 'Top 33%', tone: 'yellow' })
    expect(rankingBadge(1, 8)).toEqual({ label: 'Top 13%', tone: 'blue' })
  })
  it('says "Ranked #n of N" below the top half instead of a "Top N%" that reads as praise', () => {
    expect(rankingBadge(11, 20)).toEqual({ label: 'Ranked #11 of 20', tone: 'gray' })
    expect(rankingBadge(20, 20)).toEqual({ label: 'Ranked #20 of 20', tone: 'gray' })
  })
  it('is absent without a ranking', () => {
    expect(rankingBadge(null, 20)).toBeNull()
    expect(rankingBadge(1, null)).toBeNull()
  })
})

describe('noResultsText', () => {
  it('is the spec text with the query', () => {
    expect(noResultsText('Zed')).toBe('We couldn\'t find any agents matching "Zed". Try adjusting your search.')
  })
})

describe('serviceAreaSummary', () => {
  it('shows two and counts the rest', () => {
    expect(serviceAreaSummary(['a', 'b', 'c', 'd'])).toEqual({ shown: ['a', 'b'], more: 2 })
    expect(serviceAreaSummary(['a'])).toEqual({ shown: ['a'], more: 0 })
  })
})

describe('sort and filters in the URL', () => {
  it('reads the sort and filters of a ZIP or address search, dropping defaults and unknown values', () => {
    expect(
      parseSearchParams(
        '?q=78704&type=zipcode&sort=buyer_sales&side=listing&minPrice=300000&maxPrice=499999&propertyType=Condominium',
      ),
    ).toEqual({
      q: '78704',
      type: 'zipcode',
      sort: 'buyer_sales',
      side: 'listing',
      minPrice: 300000,
      maxPrice: 499999,
      propertyType: 'Condominium',
    })
    expect(parseSearchParams('?q=78704&type=zipcode&sort=best&side=any&minPrice=cheap&maxPrice=-5')).toEqual({
      q: '78704',
      type: 'zipcode',
    })
    expect(parseSearchParams('?q=1%20Main%20St&type=address&sort=sides')).toEqual({ q: '1 Main St', type: 'address' })
  })

  it('keeps no sort or filter on a name search (the function refuses them there)', () => {
    expect(parseSearchParams('?q=Jane&sort=volume&side=buyer&minPrice=1')).toEqual({ q: 'Jane', type: 'agent' })
    expect(searchRequestBody({ q: 'Jane', type: 'agent' }, 12, 0)).toEqual({
      query: 'Jane',
      type: 'agent',
      limit: 12,
      offset: 0,
    })
  })

  it('writes the URL it reads back, and the request body the function takes', () => {
    const params = {
      q: '1 Main St',
      type: 'address' as const,
      sort: 'sale_to_list' as const,
      side: 'buyer' as const,
      minPrice: 1_000_000,
      propertyType: 'Single Family',
    }
    const url = searchResultsUrl(params)
    expect(url).toBe(
      '/search-results?q=1%20Main%20St&type=address&sort=sale_to_list&side=buyer&minPrice=1000000&propertyType=Single%20Family',
    )
    expect(parseSearchParams(url.slice(url.indexOf('?')))).toEqual(params)
    expect(searchResultsUrl({ q: '78704', type: 'zipcode', sort: 'sides' })).toBe(
      '/search-results?q=78704&type=zipcode',
    )
    expect(searchRequestBody(params, 12, 24)).toEqual({
      query: '1 Main St',
      type: 'address',
      limit: 12,
      offset: 24,
      sort: 'sale_to_list',
      side: 'buyer',
      minPrice: 1_000_000,
      propertyType: 'Single Family',
    })
    expect(hasFilters(params)).toBe(true)
    expect(hasFilters({ q: '78704', type: 'zipcode', sort: 'volume' })).toBe(false)
  })
})
