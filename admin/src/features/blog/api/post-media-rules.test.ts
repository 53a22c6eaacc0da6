import { describe, expect, it } from 'vitest'

import { postMediaProblem } from './post-media-rules'

describe('postMediaProblem', () => {
  it('accepts a PNG up to 5 MB', () => {
    expect(postMediaProblem({ name: 'a.png', size: 5 * 1024 * 1024, type: 'image/png' })).toBeNull()
  })
  it('names a file over 5 MB', () => {
    expect(postMediaProblem({ name: 'big.jpg', size: 5 * 1024 * 1024 + 1, type: 'image/jpeg' })).toBe(
      'big.jpg is larger than 5 MB.',
    )
  })
  it('names a file that is not an allowed image', () => {
    expect(postMediaProblem({ name: 'x.svg', size: 10, type: 'image/svg+xml' })).toBe(
      'x.svg is not a JPEG, PNG, WebP, AVIF or GIF image.',
    )
  })
})
