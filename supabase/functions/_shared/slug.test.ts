import { describe, expect, it } from 'vitest'

import { SLUG_PATTERN, slugify } from './slug.ts'

describe('slugify', () => {
  it('makes a URL-safe slug', () => {
    expect(slugify('  Hello, Wörld! 10 Tips ')).toBe('hello-world-10-tips')
    expect(SLUG_PATTERN.test(slugify('  Hello, Wörld! 10 Tips '))).toBe(true)
  })

  it('cuts at a word boundary, never mid-word', () => {
    const title = 'How to vet an agent sale to list record before you sign a listing agreement in Austin at 96 of list'
    const slug = slugify(title)
    expect(slug.length).toBeLessThanOrEqual(80)
    expect(title.toLowerCase().replace(/ /g, '-').startsWith(slug)).toBe(true)
    expect(slug).toBe('how-to-vet-an-agent-sale-to-list-record-before-you-sign-a-listing-agreement-in')
  })

  it('cuts a single overlong word inside it', () => {
    expect(slugify('a'.repeat(120), 80)).toBe('a'.repeat(80))
  })

  it('is empty when nothing URL-safe is left', () => {
    expect(slugify('!!! ???')).toBe('')
  })
})
