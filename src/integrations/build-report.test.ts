import { describe, expect, it } from 'vitest'
import { describeBuild, describePhases } from './build-report'

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

describe('describePhases', () => {
  it('lists each phase with its wall-clock and CPU seconds and note, then the totals', () => {
    expect(
      describePhases([
        { name: 'start', wall: 1.94, cpu: 2.6 },
        { name: 'link', wall: 0.31, cpu: 0.25, note: '14012 pages' },
      ]),
    ).toBe('Build phases (wall / CPU s): start 1.9 / 2.6, link 0.3 / 0.3 (14012 pages), total 2.3 / 2.9.')
  })
})
