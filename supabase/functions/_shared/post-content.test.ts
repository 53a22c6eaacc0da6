import { describe, expect, it } from 'vitest'

import { renderPostContent, sanitizePostHtml } from './post-content.ts'

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

describe('post element ids cannot clobber page globals', () => {
  it('prefixes every id an author writes, and the in-page links to it', () => {
    expect(sanitizePostHtml('<p id="location">x</p><a href="#location">up</a><div id="Astro Island">y</div>')).toBe(
      '<p id="post-location">x</p><a href="#post-location">up</a><div id="post-astro-island">y</div>',
    )
    // idempotent: a post sanitized when saved and again when rendered keeps one prefix
    expect(sanitizePostHtml(sanitizePostHtml('<h3 id="faq">FAQ</h3>'))).toBe('<h3 id="post-faq">FAQ</h3>')
    expect(sanitizePostHtml('<p id="???">x</p><a href="https://example.com/#top">y</a>')).toBe(
      '<p>x</p><a href="https://example.com/#top">y</a>',
    )
  })

  it('gives the table of contents prefixed heading ids', () => {
    const { html, toc } = renderPostContent('<h2>Market overview</h2><h2 id="costs">Costs</h2>')
    expect(toc.map((entry) => entry.id)).toEqual(['post-market-overview', 'post-costs'])
    expect(html).toBe('<h2 id="post-market-overview">Market overview</h2><h2 id="post-costs">Costs</h2>')
  })
})
