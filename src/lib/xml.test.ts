import { describe, expect, it } from 'vitest'

import { escapeXml } from './xml'

describe('escapeXml', () => {
  it('escapes the five XML special characters', () => {
    expect(escapeXml(`Tom & Jerry's <"home">`)).toBe('Tom &amp; Jerry&apos;s &lt;&quot;home&quot;&gt;')
  })

  it('escapes an existing entity again rather than trusting it', () => {
    expect(escapeXml('&amp;')).toBe('&amp;amp;')
  })
})
