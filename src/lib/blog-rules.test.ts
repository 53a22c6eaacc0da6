import { describe, expect, it } from 'vitest'

import { blogStats, relatedPosts } from './blog-rules'

describe('blogStats', () => {
  it('counts articles, sums density and insights, and counts posts scoring 7 or more as featured', () => {
    const stats = blogStats([
      { hack_density_score: 7, unique_insights: 3 },
      { hack_density_score: 5.5, unique_insights: 0 },
      { hack_density_score: null, unique_insights: 2 },
      { hack_density_score: 9.1, unique_insights: 4 },
    ])
    expect(stats).toMatchObject({ articles: 4, totalInsights: 9, featured: 2 })
    expect(stats.totalDensity).toBeCloseTo(21.6)
  })
})

describe('relatedPosts', () => {
  const post = (id: string, slug: string | null) => ({
    id,
    hack_density_score: 5,
    unique_insights: 0,
    category: slug ? { slug } : null,
  })

  it('returns up to three other posts of the same category, in the given order', () => {
    const self = post('self', 'market-analysis')
    const all = [
      post('a', 'market-analysis'),
      self,
      post('b', 'buying-guides'),
      post('c', 'market-analysis'),
      post('d', 'market-analysis'),
      post('e', 'market-analysis'),
    ]
    expect(relatedPosts(self, all).map((p) => p.id)).toEqual(['a', 'c', 'd'])
  })

  it('returns nothing for a post without a category', () => {
    expect(relatedPosts(post('x', null), [post('y', null)])).toEqual([])
  })
})
