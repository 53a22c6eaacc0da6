import { describe, expect, it } from 'vitest'

import type { PostFormValues } from './blog-schemas'
import {
  BlogSearchSchema,
  EMPTY_POST_FORM,
  hasContent,
  missingFieldsMessage,
  missingRequiredFields,
  PostFormSchema,
} from './blog-schemas'

const empty: PostFormValues = EMPTY_POST_FORM

describe('missingRequiredFields', () => {
  it('needs a title and content for a draft and also the excerpt to publish (spec: Validation rules)', () => {
    expect(missingRequiredFields(empty, 'draft')).toEqual(['Title', 'Content'])
    expect(missingRequiredFields({ ...empty, title: 'T' }, 'draft')).toEqual(['Content'])
    expect(missingRequiredFields({ ...empty, title: 'T', content: '<p></p>' }, 'draft')).toEqual(['Content'])
    expect(missingRequiredFields({ ...empty, title: 'T', content: '<p>x</p>' }, 'draft')).toEqual([])
    expect(missingRequiredFields({ ...empty, title: 'T' }, 'publish')).toEqual(['Content', 'Excerpt'])
  })
  it('counts an image as content and empty paragraphs as none', () => {
    expect(hasContent('<p><img src="/x.png" alt=""></p>')).toBe(true)
    expect(hasContent('<p>&nbsp;</p><p> </p>')).toBe(false)
  })
  it("uses the seed's messages", () => {
    expect(missingFieldsMessage('draft')).toBe('Please fill in title and content')
    expect(missingFieldsMessage('publish')).toBe('Please fill in title, content, and excerpt before publishing')
  })
})

describe('BlogSearchSchema', () => {
  it('defaults a bare URL and falls back on unreadable values', () => {
    expect(BlogSearchSchema.parse({})).toEqual({ tab: 'posts', q: '', status: 'all' })
    expect(BlogSearchSchema.parse({ tab: 'nope', status: 'x', edit: 'not-a-uuid', new: '2', q: 'austin' })).toEqual({
      tab: 'posts',
      q: 'austin',
      status: 'all',
      edit: undefined,
      new: undefined,
    })
  })
})

describe('PostFormSchema', () => {
  it('maps insights lines to the array and its count', () => {
    const parsed = PostFormSchema.parse({
      ...empty,
      title: 'T',
      slug: 't',
      insights: 'a\n\n b \n',
      hack_density_score: '7.25',
    })
    expect(parsed.fields.insights).toEqual(['a', 'b'])
    expect(parsed.fields.unique_insights).toBe(2)
    expect(parsed.fields.hack_density_score).toBe(7.3)
    expect(parsed.fields.excerpt).toBeNull()
    expect(parsed.publishAt).toBeNull()
  })
  it('reads the publish date as local time and rejects a malformed one', () => {
    const parsed = PostFormSchema.parse({ ...empty, title: 'T', slug: 't', publish_at: '2030-01-02T03:04' })
    expect(parsed.publishAt).toBe(new Date(2030, 0, 2, 3, 4).toISOString())
    const bad = PostFormSchema.safeParse({ ...empty, title: 'T', slug: 't', publish_at: 'tomorrow' })
    expect(bad.error?.issues[0]?.message).toBe('Publish date must be a date and time.')
  })
  it('rejects a non-http featured image URL with a message naming the field', () => {
    const result = PostFormSchema.safeParse({
      ...empty,
      title: 'T',
      slug: 't',
      featured_image_url: 'javascript:alert(1)',
    })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('Featured image URL must be an http(s) URL.')
  })
})
