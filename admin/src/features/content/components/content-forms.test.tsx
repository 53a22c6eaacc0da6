import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'

import { answerApi, apiRequests } from '@/test/fake-api'
import { renderRoute } from '@/test/render-route'
import { ContentGenerationTab } from './content-generation-tab'
import { ContentTopicsTab } from './content-topics-tab'

const TOPIC_ID = '0d9f3c8e-2b1a-4c5d-8e7f-6a5b4c3d2e1f'
const toast = (title: string) => within(screen.getByRole('status')).findByText(title, { exact: true })
const functionCalls = (slug: string) =>
  apiRequests().filter((request) => request.path === `/functions/v1/${slug}` && request.method === 'POST')

function answerLists() {
  answerApi('GET', '/rest/v1/trending_topics', () =>
    Response.json([
      {
        id: TOPIC_ID,
        topic: 'Bidding wars in 78704',
        location: 'Austin',
        hack_type: 'pricing',
        consumer_benefit: null,
        suggested_cta: null,
        priority_score: 80,
        search_volume_estimate: 60,
        competition_level: 'low',
        status: 'approved',
        created_at: '2026-01-05T10:00:00.000Z',
      },
    ]),
  )
  answerApi('GET', '/rest/v1/content_generation_jobs', () => Response.json([]))
  answerApi('GET', '/rest/v1/blog_categories', () => Response.json([]))
}

describe('the Content Generation form', () => {
  it('stays disabled without a topic and sends a custom topic as the function expects it', async () => {
    answerLists()
    answerApi('POST', '/functions/v1/generate-blog-content', () => Response.json({ jobId: 'job-1', status: 'pending' }))
    const { user } = await renderRoute(() => <ContentGenerationTab />, '/blog?tab=generation')
    const generate = await screen.findByRole('button', { name: 'Generate Content' })
    expect(generate).toHaveProperty('disabled', true)

    await user.type(screen.getByLabelText('Or a custom topic'), '  Pricing a condo in 02139  ')
    await user.click(screen.getByRole('checkbox', { name: 'Publish automatically when generated' }))
    await user.click(generate)
    await screen.findByRole('button', { name: 'Generating Content...' })
    expect(functionCalls('generate-blog-content').map((call) => call.body)).toContainEqual({
      customTopic: 'Pricing a condo in 02139',
      categoryId: null,
      autoPublish: true,
    })
  })

  it('sends a chosen approved topic instead of the custom one', async () => {
    answerLists()
    answerApi('POST', '/functions/v1/generate-blog-content', () => Response.json({ jobId: 'job-2', status: 'pending' }))
    const { user } = await renderRoute(() => <ContentGenerationTab />, '/blog?tab=generation')
    await screen.findByRole('option', { name: 'Bidding wars in 78704' })
    await user.selectOptions(screen.getByLabelText('Approved topic'), TOPIC_ID)
    await user.type(screen.getByLabelText('Or a custom topic'), 'ignored')
    await user.click(screen.getByRole('button', { name: 'Generate Content' }))
    await screen.findByRole('button', { name: 'Generating Content...' })
    expect(functionCalls('generate-blog-content').map((call) => call.body)).toContainEqual({
      topicId: TOPIC_ID,
      categoryId: null,
      autoPublish: false,
    })
  })

  it("shows the function's refusal as Generation Failed", async () => {
    answerLists()
    answerApi('POST', '/functions/v1/generate-blog-content', () =>
      Response.json({ error: 'Please select a topic or enter a custom topic' }, { status: 400 }),
    )
    const { user } = await renderRoute(() => <ContentGenerationTab />, '/blog?tab=generation')
    await user.type(await screen.findByLabelText('Or a custom topic'), 'x')
    await user.click(screen.getByRole('button', { name: 'Generate Content' }))
    expect(await toast('Generation Failed')).toBeTruthy()
    expect(screen.getByText('Please select a topic or enter a custom topic')).toBeTruthy()
  })
})

describe('the Discover Topics form', () => {
  it("asks for 10 topics for 'general' when the location is empty, and for the typed location otherwise", async () => {
    answerLists()
    answerApi('POST', '/functions/v1/discover-trending-topics', () => Response.json({ topicsDiscovered: 3 }))
    const { user } = await renderRoute(() => <ContentTopicsTab />, '/blog?tab=topics')
    await user.click(await screen.findByRole('button', { name: 'Discover Topics' }))
    expect(await toast('Topics Discovered')).toBeTruthy()
    expect(screen.getByText('Found 3 new trending topics')).toBeTruthy()
    await user.type(screen.getByLabelText('Location'), ' Austin, TX ')
    await user.click(screen.getByRole('button', { name: 'Discover Topics' }))
    await screen.findAllByText('Found 3 new trending topics')
    expect(functionCalls('discover-trending-topics').map((call) => call.body)).toEqual([
      { location: 'general', count: 10 },
      { location: 'Austin, TX', count: 10 },
    ])
  })

  it('says Discovery Failed with the default text when the function gives no message', async () => {
    answerLists()
    answerApi('POST', '/functions/v1/discover-trending-topics', () => Response.json({ error: ' ' }, { status: 500 }))
    const { user } = await renderRoute(() => <ContentTopicsTab />, '/blog?tab=topics')
    await user.click(await screen.findByRole('button', { name: 'Discover Topics' }))
    expect(await toast('Discovery Failed')).toBeTruthy()
    expect(screen.getByText('Failed to discover topics')).toBeTruthy()
  })
})
