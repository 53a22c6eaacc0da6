import { describe, expect, it } from 'vitest'

import { sanitizePostHtml } from './post-content.ts'

describe('sanitizePostHtml: insight callouts', () => {
  it('keeps the callout markup the admin editor writes', () => {
    const html = '<div data-callout="insight"><p>Ask for the <strong>list-to-sale</strong> ratio.</p></div>'
    expect(sanitizePostHtml(html)).toBe(html)
  })

  it('drops any other data-callout value and other data attributes', () => {
    expect(sanitizePostHtml('<div data-callout="warning" data-x="1"><p>x</p></div>')).toBe('<div><p>x</p></div>')
  })

  it('keeps data-callout only on div', () => {
    expect(sanitizePostHtml('<p data-callout="insight">x</p>')).toBe('<p>x</p>')
  })
})
