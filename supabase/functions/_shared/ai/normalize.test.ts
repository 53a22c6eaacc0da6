import { describe, expect, it } from 'vitest'
import { isNearDuplicate, normalizeTitle, titleSimilarity } from './normalize.ts'

describe('title normalization', () => {
  it('lower-cases, strips punctuation, stop words and plural s', () => {
    expect(normalizeTitle('How to Price YOUR Home: the Sellers’ Guide!')).toBe('home price seller')
    expect(normalizeTitle('Homes sell at 101.2% of list in 1,250 sales')).toBe('101.2 1250 home list sale sell')
  })

  it('treats reworded and refreshed-figure titles as duplicates (Jaccard >= 0.8)', () => {
    const original = 'Homes in 02139 (Cambridge, MA) sell in a median 21 days: how sellers should price from day one'
    expect(
      isNearDuplicate('homes in 02139 cambridge ma sell in a median 21 days — how sellers should price from day one', [
        original,
      ]),
    ).toBe(true)
    expect(titleSimilarity(original, original.replace('21', '24'))).toBeGreaterThanOrEqual(0.8)
  })

  it('keeps different places and angles apart', () => {
    const original = 'Homes in 02139 (Cambridge, MA) sell in a median 21 days: how sellers should price from day one'
    expect(
      isNearDuplicate('Homes in 02140 (Cambridge, MA) sell at 103.1% of list: how buyers can still win an offer', [
        original,
      ]),
    ).toBe(false)
    expect(isNearDuplicate('Best neighborhoods for families', ['Best neighborhoods for retirees in Florida'])).toBe(
      false,
    )
  })
})
