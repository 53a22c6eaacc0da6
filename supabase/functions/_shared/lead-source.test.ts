import { describe, expect, it } from 'vitest'
import { captureUtm, describeLeadSource, UTM_STORAGE_KEY } from './lead-source.ts'

/** A Storage stand-in over a Map (the browser's sessionStorage has the same two methods used here). */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return { map, getItem: (key) => map.get(key) ?? null, setItem: (key, value) => void map.set(key, value) }
}

describe('captureUtm', () => {
  it('keeps the landing URL parameters for the visit until a new campaign URL replaces them', () => {
    const storage = memoryStorage()
    expect(captureUtm('?utm_source=newsletter&utm_medium=email&ref=x', storage)).toEqual({
      utm_source: 'newsletter',
      utm_medium: 'email',
    })
    expect(captureUtm('', storage)).toEqual({ utm_source: 'newsletter', utm_medium: 'email' })
    expect(captureUtm('?utm_campaign=spring', storage)).toEqual({ utm_campaign: 'spring' })
    expect(JSON.parse(storage.map.get(UTM_STORAGE_KEY)!)).toEqual({ utm_campaign: 'spring' })
  })

  it('cuts values to 100 characters and works without storage', () => {
    expect(captureUtm(`?utm_term=${'a'.repeat(150)}`, null)).toEqual({ utm_term: 'a'.repeat(100) })
    expect(captureUtm('', null)).toEqual({})
  })
})

describe('describeLeadSource', () => {
  it('joins the page and the UTM parameters present, null when none', () => {
    expect(
      describeLeadSource({ source_page: '/agents/a', utm_source: 'news', utm_medium: null, utm_content: 'hero' }),
    ).toBe('/agents/a · utm_source=news · utm_content=hero')
    expect(describeLeadSource({ source_page: null })).toBeNull()
  })
})
