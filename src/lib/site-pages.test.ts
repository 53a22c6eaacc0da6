import { describe, expect, it } from 'vitest'

import { navSectionOf } from './site-pages'

describe('navSectionOf', () => {
  it('highlights Search Agents on results, profiles, ZIP and city pages, compare and the sample report', () => {
    expect(navSectionOf('/search')).toBe('/search')
    expect(navSectionOf('/search-results')).toBe('/search')
    expect(navSectionOf('/agent/0b6c')).toBe('/search')
    expect(navSectionOf('/agents/02139')).toBe('/search')
    expect(navSectionOf('/agents/ma/cambridge')).toBe('/search')
    expect(navSectionOf('/compare')).toBe('/search')
    expect(navSectionOf('/sample-report')).toBe('/search')
  })
  it('keeps a section highlighted on its sub-pages and the home only on /', () => {
    expect(navSectionOf('/')).toBe('/')
    expect(navSectionOf('/blog/category/buying-guides')).toBe('/blog')
    expect(navSectionOf('/auth/reset-password')).toBe('/auth')
    expect(navSectionOf('/blogger')).toBeNull()
    expect(navSectionOf('/agentsx')).toBeNull()
    expect(navSectionOf('/nope')).toBeNull()
  })
})
