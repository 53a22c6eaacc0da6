import { describe, expect, it } from 'vitest'

import { limitFromEnv, SEARCH_IP_LIMIT_PER_MINUTE, SEARCH_IP_LIMIT_VARIABLE } from './public-limits.ts'

describe('limitFromEnv', () => {
  it('takes the default when the variable is unset or empty, else the whole number', () => {
    expect(limitFromEnv(SEARCH_IP_LIMIT_VARIABLE, undefined, SEARCH_IP_LIMIT_PER_MINUTE)).toBe(60)
    expect(limitFromEnv(SEARCH_IP_LIMIT_VARIABLE, ' ', SEARCH_IP_LIMIT_PER_MINUTE)).toBe(60)
    expect(limitFromEnv(SEARCH_IP_LIMIT_VARIABLE, '300', SEARCH_IP_LIMIT_PER_MINUTE)).toBe(300)
  })

  it('refuses anything else, naming the variable', () => {
    for (const value of ['0', '-1', '2.5', 'lots', '100001'])
      expect(() => limitFromEnv(SEARCH_IP_LIMIT_VARIABLE, value, 60)).toThrow(
        `SEARCH_RATE_LIMIT_PER_MINUTE must be a whole number from 1 to 100000, got ${value}`,
      )
  })
})
