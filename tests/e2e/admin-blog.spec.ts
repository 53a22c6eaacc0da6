/**
 * Blog administration: writing a draft in the editor (slug and SEO title derived from the title, counters), the
 * required-field checks, publishing, unpublishing and deleting (with confirmation) from the list, and the preview
 * dialog rendering through the public site's sanitizer. Each test creates its own posts and removes them.
 */
import type { Page } from '@playwright/test'
import { expect, signInAsAdmin, sql, test } from './support.ts'

// each test signs in and walks several screens; on a machine shared with other builds that can take over 30 s
test.describe.configure({ timeout: 90_000 })

let adminEmail: string
const createdSlugs: string[] = []

function uniqueSlug(prefix: string): string {
  const slug = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`
  createdSlugs.push(slug)
  return slug
}

async function insertPost(fields: {
  title: string
  slug: string
  content?: string
  status?: 'draft' | 'published'
  insights?: string[]
}) {
  const status = fields.status ?? 'draft'
  await sql(
    `insert into public.blog_posts (title, slug, content, excerpt, status, published_at, insights, unique_insights)
     values ($1, $2, $3, 'An excerpt.', $4, case when $4 = 'published' then now() else null end, $5, cardinality($5::text[]))`,
    [fields.title, fields.slug, fields.content ?? '<p>Body</p>', status, fields.insights ?? []],
  )
}

async function signIn(page: Page, to = '/admin/blog') {
  await signInAsAdmin(page, adminEmail)
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Blog' }).click()
  await expect(page).toHaveURL(new RegExp(`${to.replace('?', '\\?')}$`))
}

function toast(page: Page, title: string) {
  return page.getByRole('status').getByText(title, { exact: true })
}

async function findRow(page: Page, title: string) {
  await page.getByRole('searchbox', { name: 'Search posts' }).fill(title)
  const row = page.getByRole('row').filter({ hasText: title })
  await expect(row).toHaveCount(1)
  return row
}

test.beforeAll(async ({ adminEmail: email }) => {
  adminEmail = email
})

test.afterAll(async () => {
  await sql(`delete from public.blog_posts where slug = any($1)`, [createdSlugs])
})

test('a new draft derives its slug and SEO title from the title and counts SEO characters', async ({ page }) => {
  await signIn(page)
  await page.getByRole('button', { name: 'New Post' }).click()
  await expect(page).toHaveURL(/\/admin\/blog\?new=1$/)

  const stamp = `${Date.now()}`
  const title = `E2E Draft ${stamp} about buying a home with the best local agent in town`
  const slug = `e2e-draft-${stamp}-about-buying-a-home-with-the-best-local-agent-in-town`
  createdSlugs.push(slug)
  await page.getByLabel('Title', { exact: true }).fill(title)
  await expect(page.getByLabel('Slug')).toHaveValue(slug)
  await expect(page.getByLabel('SEO title')).toHaveValue(title.slice(0, 60))
  await expect(page.getByText('60/60')).toBeVisible()
  await page.getByLabel('Meta description').fill('Short description')
  await expect(page.getByText('17/160')).toBeVisible()
  // the search-result preview: address as breadcrumbs, the SEO title, the meta description
  const preview = page.getByRole('figure', { name: 'Search result preview' })
  await expect(preview).toContainText(`› blog › ${slug}`)
  await expect(preview).toContainText(title.slice(0, 60))
  await expect(preview).toContainText('Short description')
  await page.getByLabel('Insights').fill('First insight\n\nSecond insight')
  await page.getByRole('button', { name: 'Edit HTML' }).click()
  await page.getByLabel('Content', { exact: true }).fill('<p>Draft body</p>')

  await page.getByRole('button', { name: 'Save Draft' }).click()
  await expect(toast(page, 'Post Saved')).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/blog$/)

  const rows = await sql<{
    status: string
    meta_title: string
    insights: string[]
    unique_insights: number
    published_at: Date | null
  }>(`select status, meta_title, insights, unique_insights, published_at from public.blog_posts where slug = $1`, [
    slug,
  ])
  expect(rows).toEqual([
    {
      status: 'draft',
      meta_title: title.slice(0, 60),
      insights: ['First insight', 'Second insight'],
      unique_insights: 2,
      published_at: null,
    },
  ])
  await expect((await findRow(page, title)).getByText('Draft', { exact: true })).toBeVisible()
})

test('saving without the required fields says what is needed and writes nothing (a draft needs title and content)', async ({
  page,
}) => {
  await signIn(page)
  await page.getByRole('button', { name: 'New Post' }).click()
  await page.getByRole('button', { name: 'Save Draft' }).click()
  await expect(toast(page, 'Missing Required Fields')).toBeVisible()
  await expect(page.getByRole('status')).toContainText('Please fill in title and content')

  // a title alone is not a draft (the seed requires content too): nothing is written
  const title = `E2E Incomplete ${Date.now()}`
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByRole('button', { name: 'Save Draft' }).click()
  await expect(page.getByRole('status').getByText('Please fill in title and content')).not.toHaveCount(0)
  await page.getByRole('button', { name: 'Publish Now' }).click()
  await expect(page.getByRole('status')).toContainText('Please fill in title, content, and excerpt before publishing')
  expect(await sql(`select 1 from public.blog_posts where title = $1`, [title])).toHaveLength(0)

  // The form is dirty now: Cancel asks before throwing the work away.
  await page.getByRole('button', { name: 'Cancel' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' })
  await confirm.getByRole('button', { name: 'Keep Editing' }).click()
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title)
  await page.getByRole('button', { name: 'Cancel' }).click()
  await confirm.getByRole('button', { name: 'Discard Changes' }).click()
  await expect(page).toHaveURL(/\/admin\/blog$/)
})

test('editing a published post keeps it published with its original date (Enter never unpublishes)', async ({
  page,
}) => {
  const title = `E2E Live Edit ${Date.now()}`
  const slug = uniqueSlug('e2e-live-edit')
  await insertPost({ title, slug, status: 'published' })
  await sql(`update public.blog_posts set published_at = now() - interval '3 days' where slug = $1`, [slug])
  const [before] = await sql<{ published_at: string }>(
    `select published_at::text from public.blog_posts where slug = $1`,
    [slug],
  )
  await signIn(page)
  const row = await findRow(page, title)
  await row.getByRole('button', { name: 'Edit' }).click()

  await expect(page.getByRole('button', { name: 'Update Published Post' })).toBeVisible()
  // Save Draft is there too (it takes the post back to draft: admin-feedback.spec.ts)
  await expect(page.getByRole('button', { name: 'Save Draft' })).toBeVisible()
  await page.getByLabel('Excerpt').fill('An edited excerpt.')
  await page.getByLabel('Location').press('Enter') // Enter in a field submits: it must update, not unpublish
  await expect(toast(page, 'Post Updated')).toBeVisible()
  const [after] = await sql<{ status: string; excerpt: string; published_at: string }>(
    `select status, excerpt, published_at::text from public.blog_posts where slug = $1`,
    [slug],
  )
  expect(after).toEqual({ status: 'published', excerpt: 'An edited excerpt.', published_at: before!.published_at })
})

test('leaving the editor with unsaved changes through the sidebar or Back asks first', async ({ page }) => {
  await signIn(page)
  await page.getByRole('button', { name: 'New Post' }).click()
  const title = `Unsaved ${Date.now()}`
  await page.getByLabel('Title', { exact: true }).fill(title)

  // Declined: the editor and the typed title stay.
  let asked = ''
  page.once('dialog', async (dialog) => {
    asked = dialog.message()
    await dialog.dismiss()
  })
  await page.getByRole('link', { name: 'Dashboard' }).first().click()
  await expect.poll(() => asked).toContain('unsaved changes')
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title)

  page.once('dialog', (dialog) => dialog.dismiss())
  await page.goBack()
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title)

  // Accepted: the sidebar link goes where it points.
  page.once('dialog', (dialog) => dialog.accept())
  await page.getByRole('link', { name: 'Dashboard' }).first().click()
  await expect(page).toHaveURL(/\/admin$/)
})

test('publish, unpublish and delete (after confirming) change the row in the database', async ({ page }) => {
  const title = `E2E Lifecycle ${Date.now()}`
  const slug = uniqueSlug('e2e-lifecycle')
  await insertPost({ title, slug })
  await signIn(page)
  const row = await findRow(page, title)

  await row.getByRole('button', { name: 'Publish' }).click()
  await expect(toast(page, 'Post Published')).toBeVisible()
  await expect(row.getByRole('link', { name: 'View Live' })).toHaveAttribute('href', `/blog/${slug}`)
  let [post] = await sql<{ status: string; published_at: Date | null }>(
    `select status, published_at from public.blog_posts where slug = $1`,
    [slug],
  )
  expect(post!.status).toBe('published')
  expect(post!.published_at).not.toBeNull()

  await row.getByRole('button', { name: 'Unpublish' }).click()
  await expect(toast(page, 'Post Unpublished')).toBeVisible()
  await expect(row.getByRole('link', { name: 'View Live' })).toHaveCount(0)
  ;[post] = await sql(`select status, published_at from public.blog_posts where slug = $1`, [slug])
  expect(post!.status).toBe('draft')

  await row.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete this post?' })
  await expect(confirm).toContainText(title)
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  expect(await sql(`select 1 from public.blog_posts where slug = $1`, [slug])).toHaveLength(1)

  await row.getByRole('button', { name: 'Delete' }).click()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(toast(page, 'Post Deleted')).toBeVisible()
  await expect(page.getByText('No blog posts found')).toBeVisible()
  await expect(page.getByText('Try adjusting your filters or search terms.')).toBeVisible()
  // a delete moves the post to the trash (restorable)
  expect(await sql(`select deleted_at is not null as trashed from public.blog_posts where slug = $1`, [slug])).toEqual([
    { trashed: true },
  ])
})

test('the preview renders the post through the public sanitizer with its insight cards', async ({ page }) => {
  const title = `E2E Preview ${Date.now()}`
  const emptyTitle = `E2E Empty ${Date.now()}`
  await insertPost({
    title,
    slug: uniqueSlug('e2e-preview'),
    content:
      '<h2>Section One</h2><p>Hello <strong>buyers</strong><script>window.pwned = true</script></p><img src="x" onerror="window.pwned = true">',
    insights: ['Interview three agents', 'Check closing prices'],
  })
  await insertPost({ title: emptyTitle, slug: uniqueSlug('e2e-empty'), content: '' })
  await signIn(page)

  await (await findRow(page, title)).getByRole('button', { name: 'Preview' }).click()
  const dialog = page.getByRole('dialog', { name: title })
  await expect(dialog.getByRole('heading', { name: 'Section One' })).toHaveAttribute('id', 'post-section-one')
  await expect(dialog.getByText('buyers')).toBeVisible()
  await expect(dialog.getByText('Interview three agents')).toBeVisible()
  await expect(dialog.getByText('Check closing prices')).toBeVisible()
  await expect(dialog.locator('script')).toHaveCount(0)
  await expect(dialog.locator('[onerror]')).toHaveCount(0)
  expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)

  await (await findRow(page, emptyTitle)).getByRole('button', { name: 'Preview' }).click()
  await expect(page.getByRole('dialog').getByText('Failed to load post content.')).toBeVisible()
})

test('after Save the list comes back with its search and status filter, kept in the URL', async ({ page }) => {
  const title = `E2E Keep Filters ${Date.now()}`
  const slug = uniqueSlug('e2e-keep-filters')
  await insertPost({ title, slug })
  await signIn(page)
  await page.getByRole('searchbox', { name: 'Search posts' }).fill(title)
  await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: 'Drafts' }).click()
  await expect(page).toHaveURL(/[?&]status=draft/)
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(title)

  await page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: 'Edit' }).click()
  await expect(page).toHaveURL(/[?&]edit=/)
  await page.getByLabel('Excerpt').fill('Edited while filtered.')
  await page.getByRole('button', { name: 'Save Draft' }).click()
  await expect(toast(page, 'Post Saved')).toBeVisible()

  await expect(page).not.toHaveURL(/[?&]edit=/)
  await expect(page).toHaveURL(/[?&]status=draft/)
  await expect(page.getByRole('searchbox', { name: 'Search posts' })).toHaveValue(title)
  await expect(
    page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: 'Drafts' }),
  ).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(1)

  // a reload keeps them too
  await page.reload()
  await expect(page.getByRole('searchbox', { name: 'Search posts' })).toHaveValue(title)
})

test("editing a live post's slug warns and keeps a redirect from the old slug", async ({ page }) => {
  const title = `E2E Slug Move ${Date.now()}`
  const slug = uniqueSlug('e2e-slug-move')
  const moved = uniqueSlug('e2e-slug-moved')
  await insertPost({ title, slug, status: 'published' })
  await signIn(page)
  await (await findRow(page, title)).getByRole('button', { name: 'Edit' }).click()
  await page.getByLabel('Slug').fill(moved)
  await expect(page.getByRole('alert').filter({ hasText: `This post is live at /blog/${slug}` })).toContainText(
    'the old address will redirect',
  )
  await page.getByRole('button', { name: 'Update Published Post' }).click()
  await expect(toast(page, 'Post Updated')).toBeVisible()

  const redirects = await sql<{ old_slug: string; slug: string }>(
    `select r.old_slug, p.slug from public.blog_post_redirects r join public.blog_posts p on p.id = r.post_id where r.old_slug = $1`,
    [slug],
  )
  expect(redirects).toEqual([{ old_slug: slug, slug: moved }])
})

test('at 390 px posts are cards: titles keep their width and nothing overflows sideways', async ({ page }) => {
  const title = `E2E Mobile card with a rather long title for a narrow screen ${Date.now()}`
  await insertPost({ title, slug: uniqueSlug('e2e-mobile') })
  await page.setViewportSize({ width: 390, height: 844 })
  await signInAsAdmin(page, adminEmail)
  await page.goto(`/admin/blog?q=${encodeURIComponent(title)}`)
  const card = page.getByRole('list', { name: 'Blog posts' }).getByRole('listitem').filter({ hasText: title })
  await expect(card).toHaveCount(1)
  const titleBox = await card.getByText(title).boundingBox()
  expect(titleBox!.width).toBeGreaterThan(250)
  await expect(card.getByRole('button', { name: 'Edit' })).toBeInViewport()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})
