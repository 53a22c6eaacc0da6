import { describe, expect, it } from 'vitest'
import { joinReasons, logTail } from './recorder.ts'

describe('joinReasons', () => {
  it('joins the reasons of one build with "; "', () => {
    expect(joinReasons(['post published: a', 'rebuild requested by x@example.com'])).toBe(
      'post published: a; rebuild requested by x@example.com',
    )
  })

  it('keeps the newest reasons whole when many were coalesced, so the latest request stays findable by its reason', () => {
    const reasons = Array.from({ length: 120 }, (_, i) => `post published: article-number-${i}`)
    reasons.push('rebuild requested by admin@example.com')
    const joined = joinReasons(reasons)
    expect(joined.length).toBeLessThanOrEqual(2000)
    expect(joined.endsWith('post published: article-number-119; rebuild requested by admin@example.com')).toBe(true)
    expect(joined).toMatch(/^\(\d+ earlier requests\) post published: article-number-\d+; /)
    const dropped = Number(/^\((\d+) earlier/.exec(joined)![1])
    expect(joined.split('; ')).toHaveLength(reasons.length - dropped)
  })
})

describe('logTail', () => {
  it('keeps the last 60 lines without colour codes', () => {
    const tail = logTail()
    for (let i = 1; i <= 100; i += 1) tail.push(`\u001b[32mline ${i}\u001b[39m\n`)
    tail.push('partial')
    const lines = tail.text().split('\n')
    expect(lines).toHaveLength(60)
    expect(lines[0]).toBe('line 42')
    expect(lines.at(-1)).toBe('partial')
  })
})
