// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'

import { enhanceBlogFilter } from './blog-filter'

/** The markup BlogFilter.astro renders (the parts the script reads), with one post card. */
function mount(): { root: HTMLElement; input: HTMLInputElement } {
  document.body.innerHTML = `
    <div data-blog-filter data-posts='[{"slug":"how-to-sell","title":"How to sell","excerpt":null,"categorySlug":null}]'>
      <form action="/blog" method="get"><input type="search" name="search" /><button type="submit">Search</button></form>
      <template data-filter-empty><p>No articles found</p></template>
      <div data-filter-status></div>
    </div>
    <ul><li><article data-post-card="how-to-sell">How to sell</article></li></ul>`
  return {
    root: document.querySelector<HTMLElement>('[data-blog-filter]')!,
    input: document.querySelector<HTMLInputElement>('input[name="search"]')!,
  }
}

afterEach(() => {
  window.history.replaceState(null, '', '/')
  document.body.innerHTML = ''
})

describe('enhanceBlogFilter', () => {
  it('keeps text typed into the box before the script arrived', () => {
    window.history.replaceState(null, '', '/blog')
    const { root, input } = mount()
    input.value = 'HOW TO'
    enhanceBlogFilter(root)
    expect(input.value).toBe('HOW TO')
    input.form!.requestSubmit()
    expect(window.location.search).toBe('?search=HOW+TO')
  })

  it('shows the search of the URL it was opened with', () => {
    window.history.replaceState(null, '', '/blog?search=sell')
    const { root, input } = mount()
    enhanceBlogFilter(root)
    expect(input.value).toBe('sell')
    expect(root.querySelector('[data-filter-status]')!.textContent).toBe('1 article matches your filters.')
  })
})
