import { describe, expect, it } from 'vitest'
import { distinctInsights, hackDensityScore } from './density.ts'
import { densityBand } from '../density.ts'

describe('hackDensityScore', () => {
  it('is 10 x actionable blocks / blocks, to one decimal, ignoring tables', () => {
    const html =
      '<h2>A</h2><p>Compare agents before you sign.</p><p>Markets differ.</p>' +
      '<ul><li>Homes sold in 21 days.</li><li>Ask for references.</li></ul><table><tr><td><p>Nice weather.</p></td></tr></table>'
    // 3 of 4 blocks actionable (verb, digit, verb); the table paragraph does not count
    expect(hackDensityScore(html)).toBe(7.5)
    expect(densityBand(hackDensityScore(html))).toBe('medium')
  })

  it('scores 0 without blocks and 10 when every block is actionable', () => {
    expect(hackDensityScore('<h2>Only a heading</h2>')).toBe(0)
    expect(hackDensityScore('<p>Check the 21-day median.</p><li>Negotiate.</li>')).toBe(10)
  })
})

describe('distinctInsights', () => {
  it('drops empties and case-insensitive repeats', () => {
    expect(distinctInsights(['A fact.', ' a  FACT. ', '', 'Other.'])).toEqual(['A fact.', 'Other.'])
  })
})
