import { describe, expect, it } from 'vitest'
import { nextPath } from './auth-redirect'

describe('nextPath', () => {
  it('returns to a path of this site', () => {
    expect(nextPath('?next=%2Fagent%2Fabc%3Fx%3D1')).toBe('/agent/abc?x=1')
    expect(nextPath('?next=/account')).toBe('/account')
  })
  it('goes home for anything that could leave the site, or nothing', () => {
    for (const next of [
      'https://evil.test/',
      '//evil.test/x',
      '/\\evil.test',
      'javascript:alert(1)',
      'account',
      '/a b',
    ])
      expect(nextPath(`?next=${encodeURIComponent(next)}`), next).toBe('/')
    expect(nextPath('')).toBe('/')
  })
})
