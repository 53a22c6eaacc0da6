import { describe, expect, it } from 'vitest'
import { describeBuild } from './build-report'

describe('describeBuild', () => {
  it('lists the rendered groups alphabetically with other last, then the pages reused from the cache', () => {
    expect(describeBuild({ built: { other: 17, zip: 1, agent: 1, city: 1 }, reused: 20412, renderedPaths: [] })).toBe(
      'Pages built: 1 agent, 1 city, 1 zip, 17 other; reused from the build cache: 20412.',
    )
  })

  it('says none when nothing was rendered', () => {
    expect(describeBuild({ built: {}, reused: 12, renderedPaths: [] })).toBe(
      'Pages built: none; reused from the build cache: 12.',
    )
  })
})
