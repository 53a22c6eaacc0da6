import { describe, expect, it } from 'vitest'

import type { PostFormValues } from './blog-schemas'
import { EMPTY_POST_FORM, missingRequiredFields, PostFormSchema } from './blog-schemas'

const empty: PostFormValues = EMPTY_POST_FORM

describe('missingRequiredFields', () => {
  it('needs a title for a draft and content + excerpt to publish', () => {
    expect(missingRequiredFields(empty, 'draft')).toEqual(['Title'])
    expect(missingRequiredFields({ ...empty, title: 'T' }, 'publish')).toEqual(['Content', 'Excerpt'])
  })
})

describe('PostFormSchema', () => {
  it('maps insights lines to the array and its count', () => {
    const parsed = PostFormSchema.parse({ ...empty, title: 'T', slug: 't', insights: 'a\n\n b \n', hack_density_score: '7.25' })
    expect(parsed.insights).toEqual(['a', 'b'])
    expect(parsed.unique_insights).toBe(2)
    expect(parsed.hack_density_score).toBe(7.3)
    expect(parsed.excerpt).toBeNull()
  })
  it('rejects a non-http featured image URL with a message naming the field', () => {
    const result = PostFormSchema.safeParse({ ...empty, title: 'T', slug: 't', featured_image_url: 'javascript:alert(1)' })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('Featured image URL must be an http(s) URL.')
  })
})
