import { describe, expect, it } from 'vitest'

import { buildRecentActivity } from './dashboard-activity'

describe('buildRecentActivity', () => {
  it('merges every source newest first and keeps the top N', () => {
    const items = buildRecentActivity(
      {
        createdPosts: [{ id: 'p1', title: 'Draft', created_at: '2026-01-01T10:00:00Z' }],
        publishedPosts: [{ id: 'p2', title: 'Live', published_at: '2026-01-03T10:00:00Z' }],
        leads: [{ id: 'l1', full_name: 'Ana Díaz', agent_name: 'Sam Lee', created_at: '2026-01-04T10:00:00Z' }],
        finishedJobs: [
          {
            id: 'j1',
            status: 'completed',
            completed_at: '2026-01-02T10:00:00Z',
            custom_topic: 'Topic',
            blog_posts: { title: 'Generated' },
            trending_topics: null,
          },
          {
            id: 'j2',
            status: 'failed',
            completed_at: '2025-12-31T10:00:00Z',
            custom_topic: 'Broken',
            blog_posts: null,
            trending_topics: null,
          },
          {
            id: 'j3',
            status: 'completed',
            completed_at: null,
            custom_topic: 'Pending',
            blog_posts: null,
            trending_topics: null,
          },
        ],
      },
      4,
    )
    expect(items.map((item) => [item.kind, item.text])).toEqual([
      ['lead_received', 'New report request from Ana Díaz about Sam Lee'],
      ['post_published', 'Post published: "Live"'],
      ['job_completed', 'Article generated: "Generated"'],
      ['post_created', 'Post created: "Draft"'],
    ])
  })
})
