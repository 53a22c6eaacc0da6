import { describe, expect, it } from 'vitest'

import { matchesFilter, parseBlogFilterParams } from './blog-filter'

const post = {
  slug: 'closing-costs',
  title: 'Closing Costs Explained',
  excerpt: 'What buyers pay at the table.',
  categorySlug: 'home-financing',
}

describe('parseBlogFilterParams', () => {
  it('reads and trims search and category', () => {
    expect(parseBlogFilterParams('?search=%20costs%20&category=home-financing')).toEqual({
      search: 'costs',
      category: 'home-financing',
    })
  })

  it('drops a malformed category and defaults a missing search', () => {
    expect(parseBlogFilterParams('?category=Not%20A%20Slug')).toEqual({ search: '', category: null })
  })
})

describe('matchesFilter', () => {
  it('matches a case-insensitive substring of the title or the excerpt', () => {
    expect(matchesFilter(post, { search: 'CLOSING', category: null })).toBe(true)
    expect(matchesFilter(post, { search: 'at the table', category: null })).toBe(true)
    expect(matchesFilter(post, { search: 'inspection', category: null })).toBe(false)
  })

  it('requires the category when one is chosen', () => {
    expect(matchesFilter(post, { search: '', category: 'home-financing' })).toBe(true)
    expect(matchesFilter(post, { search: 'closing', category: 'selling-tips' })).toBe(false)
  })

  it('does not match a post without an excerpt on excerpt text', () => {
    expect(matchesFilter({ ...post, excerpt: null }, { search: 'table', category: null })).toBe(false)
  })
})
