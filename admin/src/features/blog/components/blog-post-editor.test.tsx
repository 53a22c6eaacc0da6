import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'

import { answerApi, apiRequests } from '@/test/fake-api'
import { renderRoute } from '@/test/render-route'
import type { PostDetail } from '../api/blog-queries'
import { BlogPostEditor } from './blog-post-editor'

// TipTap needs a browser's layout: the form is what is under test here, so the body is a plain text area
vi.mock('./rich-content-editor', () => ({
  default: ({ id, value, onChange }: { id: string; value: string; onChange: (html: string) => void }) => (
    <textarea id={id} value={value} onChange={(event) => onChange(event.target.value)} />
  ),
}))

const POST_ID = '7b0b5bd6-5d0c-4c1e-9a51-3f7c3b4d2e10'

function published(overrides: Partial<PostDetail> = {}): PostDetail {
  return {
    id: POST_ID,
    title: 'Pricing in 78704',
    slug: 'pricing-in-78704',
    content: '<p>Body</p>',
    excerpt: 'What sells',
    status: 'published',
    published_at: '2026-01-05T10:00:00.000Z',
    category_id: null,
    featured_image_url: null,
    meta_title: 'Pricing in 78704',
    meta_description: null,
    location: null,
    hack_density_score: 6,
    insights: [],
    unique_insights: 0,
    blog_categories: null,
    ...overrides,
  } as PostDetail
}

/** Answers the writes of the editor with the row as the database would return it. */
function acceptWrites() {
  const row = (body: Record<string, unknown>) => ({
    id: POST_ID,
    slug: body.slug,
    title: body.title,
    status: body.status,
    published_at: body.published_at,
  })
  answerApi('POST', '/rest/v1/blog_posts', async (request) => Response.json(row(await request.json())))
  answerApi('PATCH', '/rest/v1/blog_posts', async (request) => Response.json(row(await request.json())))
}

const writes = () => apiRequests().filter((request) => request.path === '/rest/v1/blog_posts')
const toast = (title: string) => within(screen.getByRole('status')).findByText(title, { exact: true })

async function openNewPost() {
  const view = await renderRoute(() => <BlogPostEditor />, '/blog?new=1')
  await screen.findByRole('heading', { name: 'New Post' })
  return view
}

describe('the post editor form', () => {
  it('derives the slug and the SEO title from the title and counts SEO characters', async () => {
    const { user } = await openNewPost()
    await user.type(screen.getByLabelText('Title'), 'Sellers: What Comes Next?')
    expect(screen.getByLabelText('Slug')).toHaveProperty('value', 'sellers-what-comes-next')
    expect(screen.getByLabelText('SEO title')).toHaveProperty('value', 'Sellers: What Comes Next?')
    expect(screen.getByText('25/60 characters')).toBeTruthy()
    expect(screen.getByText('0/160 characters')).toBeTruthy()

    // a slug typed by hand stays as typed
    await user.clear(screen.getByLabelText('Slug'))
    await user.type(screen.getByLabelText('Slug'), 'my-slug')
    await user.type(screen.getByLabelText('Title'), ' Now')
    expect(screen.getByLabelText('Slug')).toHaveProperty('value', 'my-slug')
  })

  it('asks for title and content before a draft, and the excerpt too before publishing, writing nothing', async () => {
    const { user } = await openNewPost()
    await user.click(screen.getByRole('button', { name: 'Save Draft' }))
    expect(await toast('Missing Required Fields')).toBeTruthy()
    expect(screen.getByText('Please fill in title and content')).toBeTruthy()

    await user.type(screen.getByLabelText('Title'), 'A title')
    await user.type(screen.getByLabelText('Content'), '<p>Text</p>')
    await user.click(screen.getByRole('button', { name: 'Publish Now' }))
    expect(await screen.findByText('Please fill in title, content, and excerpt before publishing')).toBeTruthy()
    expect(writes()).toEqual([])
  })

  it('shows a field that does not validate under the field and as Save Failed, writing nothing', async () => {
    const { user } = await openNewPost()
    await user.type(screen.getByLabelText('Title'), 'A title')
    await user.type(screen.getByLabelText('Content'), '<p>Text</p>')
    await user.type(screen.getByLabelText('Featured image URL'), 'ftp://example.com/a.png')
    await user.click(screen.getByRole('button', { name: 'Save Draft' }))
    expect(await toast('Save Failed')).toBeTruthy()
    const image = screen.getByLabelText('Featured image URL')
    expect(image.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(image.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Featured image URL must be an http(s) URL.',
    )
    expect(writes()).toEqual([])
  })

  it('saves a draft as blog_posts columns and says Post Saved', async () => {
    acceptWrites()
    const { user, router } = await openNewPost()
    await user.type(screen.getByLabelText('Title'), 'Closing costs')
    await user.type(screen.getByLabelText('Content'), '<p>Text</p>')
    await user.type(screen.getByLabelText('Insights'), 'First{Enter}{Enter}Second')
    await user.type(screen.getByLabelText('Hack density score'), '7.25')
    await user.click(screen.getByRole('button', { name: 'Save Draft' }))
    expect(await toast('Post Saved')).toBeTruthy()
    expect(writes()).toHaveLength(1)
    expect(writes()[0]).toMatchObject({
      method: 'POST',
      body: {
        title: 'Closing costs',
        slug: 'closing-costs',
        content: '<p>Text</p>',
        excerpt: null,
        meta_title: 'Closing costs',
        insights: ['First', 'Second'],
        unique_insights: 2,
        hack_density_score: 7.3,
        status: 'draft',
        published_at: null,
      },
    })
    await waitFor(() => expect(router.state.location.search).toEqual({}))
  })

  it('names the failure the database gave: Publish Failed for a draft going out', async () => {
    answerApi('POST', '/rest/v1/blog_posts', () =>
      Response.json({ code: '23505', message: 'duplicate key value violates unique constraint' }, { status: 409 }),
    )
    const { user } = await openNewPost()
    await user.type(screen.getByLabelText('Title'), 'Taken')
    await user.type(screen.getByLabelText('Content'), '<p>Text</p>')
    await user.type(screen.getByLabelText('Excerpt'), 'Short')
    await user.click(screen.getByRole('button', { name: 'Publish Now' }))
    expect(await toast('Publish Failed')).toBeTruthy()
    expect(screen.getByText('A post with this slug already exists. Choose another slug.')).toBeTruthy()
  })

  it('offers a published post Save Draft beside Update Published Post; Save Draft takes it back to draft', async () => {
    acceptWrites()
    answerApi('GET', '/rest/v1/blog_posts', () => Response.json(published()))
    answerApi('GET', '/rest/v1/blog_post_revisions', () => Response.json([]))
    answerApi('POST', '/rest/v1/rpc/list_admins', () => Response.json([]))
    const { user } = await renderRoute(() => <BlogPostEditor postId={POST_ID} />, `/blog?edit=${POST_ID}`)
    await screen.findByRole('heading', { name: 'Edit Post' })
    expect(screen.getByRole('button', { name: 'Update Published Post' })).toBeTruthy()

    await user.type(screen.getByLabelText('Excerpt'), ' today')
    await user.click(screen.getByRole('button', { name: 'Save Draft' }))
    expect(await toast('Post Saved')).toBeTruthy()
    expect(screen.getByText('"Pricing in 78704" was saved as a draft and is no longer on the site.')).toBeTruthy()
    const [patch] = writes().filter((request) => request.method === 'PATCH')
    expect(patch).toMatchObject({
      search: `?id=eq.${POST_ID}&select=id%2Cslug%2Ctitle%2Cstatus%2Cpublished_at`,
      body: { status: 'draft', excerpt: 'What sells today', published_at: '2026-01-05T10:00:00.000Z' },
    })
  })

  it('says Update Failed when updating a published post fails', async () => {
    answerApi('GET', '/rest/v1/blog_posts', () => Response.json(published()))
    answerApi('GET', '/rest/v1/blog_post_revisions', () => Response.json([]))
    answerApi('POST', '/rest/v1/rpc/list_admins', () => Response.json([]))
    answerApi('PATCH', '/rest/v1/blog_posts', () => Response.json(null))
    const { user } = await renderRoute(() => <BlogPostEditor postId={POST_ID} />, `/blog?edit=${POST_ID}`)
    await user.click(await screen.findByRole('button', { name: 'Update Published Post' }))
    expect(await toast('Update Failed')).toBeTruthy()
    expect(screen.getByText('The post no longer exists or you may not change it.')).toBeTruthy()
  })
})
