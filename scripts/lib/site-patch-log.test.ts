/**
 * The patch's build-log line of rendered pages: posts and the other site pages come before cities, ZIPs and agents,
 * so a post published beside a data refresh of hundreds of agent pages is named (a fresh-clone run once lost it as
 * the 41st of 41 pages).
 */
import { describe, expect, it } from 'vitest'
import { renderedLine, type RenderedPage } from './site-patch.ts'

const agents = (n: number): RenderedPage[] =>
  Array.from({ length: n }, (_, index) => ({ pathname: `/agent/${index}`, group: 'agent' }))

describe('renderedLine', () => {
  it('names a post rendered after 40 agent pages, and counts the rest', () => {
    const line = renderedLine([
      ...agents(40),
      { pathname: '/agents/02134', group: 'zip' },
      { pathname: '/blog/new-post', group: 'blog' },
    ])
    expect(line.startsWith('Rendered: /blog/new-post, /agents/02134, /agent/0, ')).toBe(true)
    expect(line.endsWith(', /agent/37, and 2 more')).toBe(true)
  })

  it('keeps the render order within a group and lists everything under the limit', () => {
    expect(
      renderedLine([
        { pathname: '/agent/b', group: 'agent' },
        { pathname: '/agents/vt/patchton', group: 'city' },
        { pathname: '/agent/a', group: 'agent' },
        { pathname: '/', group: 'blog' },
        { pathname: '/sitemap.xml', group: 'other' },
      ]),
    ).toBe('Rendered: /, /sitemap.xml, /agents/vt/patchton, /agent/b, /agent/a')
  })
})
