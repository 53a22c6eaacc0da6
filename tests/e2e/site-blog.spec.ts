/** The prebuilt blog: index with client-side filtering, category pages and article pages. */
import { expect, test } from '@playwright/test'
import { readingTimeMinutes, renderPostContent } from '@shared/post-content.ts'
import { publicPosts, sql, type PublicPostRow } from './site-support.ts'

let posts: PublicPostRow[]

test.beforeAll(async () => {
  posts = await publicPosts()
  expect(posts.length).toBeGreaterThan(1)
})

const matching = (needle: string) =>
  posts.filter(
    (post) => post.title.toLowerCase().includes(needle) || (post.excerpt ?? '').toLowerCase().includes(needle),
  )

test.describe('blog index', () => {
  test('lists every published post without drafts and shows the article count', async ({ page }) => {
    const [draft] = await sql<{ title: string }>(`select title from public.blog_posts where status = 'draft' limit 1`)
    await page.goto('/blog')
    // every post once: the featured ones above, the others in the list below them
    const featured = page.getByRole('region', { name: 'Featured articles' })
    const all = page.getByRole('region', { name: 'All articles' })
    const featuredCount = await featured.getByRole('article').count()
    await expect(all.getByRole('article')).toHaveCount(posts.length - featuredCount)
    for (const post of posts)
      await expect(page.getByRole('main').getByRole('link', { name: post.title, exact: true })).toHaveCount(1)
    if (draft) await expect(page.getByText(draft.title, { exact: true })).toHaveCount(0)
    await expect(page.locator('dt', { hasText: /^Articles$/ }).locator('..')).toContainText(String(posts.length))
  })

  test('search filters by title or excerpt, case-insensitively, through the URL', async ({ page }) => {
    const needle = posts[0]!.title.split(' ').slice(0, 2).join(' ').toLowerCase()
    const expected = matching(needle)
    await page.goto('/blog')
    await page.getByRole('searchbox', { name: 'Search articles' }).fill(needle.toUpperCase())
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(page).toHaveURL(
      new RegExp(`[?&]search=${encodeURIComponent(needle.toUpperCase()).replace(/%20/g, '(\\+|%20)')}`),
    )
    const all = page.getByRole('region', { name: 'All articles' })
    await expect(all.getByRole('article')).toHaveCount(expected.length)
    for (const post of expected) await expect(all.getByRole('link', { name: post.title, exact: true })).toBeVisible()
  })

  test('a search param in the URL is applied on load', async ({ page }) => {
    const needle = posts[1]!.title.toLowerCase().slice(0, 12)
    await page.goto(`/blog?search=${encodeURIComponent(needle)}`)
    await expect(page.getByRole('searchbox', { name: 'Search articles' })).toHaveValue(needle)
    await expect(page.getByRole('region', { name: 'All articles' }).getByRole('article')).toHaveCount(
      matching(needle).length,
    )
  })

  test('a category button filters and toggles the category param', async ({ page }) => {
    const category = posts.find((post) => post.category_slug)!
    const inCategory = posts.filter((post) => post.category_slug === category.category_slug)
    await page.goto('/blog')
    // the filter's script loads after the first paint; the buttons do nothing before it
    await expect(page.locator('[data-blog-filter]')).toHaveAttribute('data-enhanced', 'true')
    const button = page
      .getByRole('group', { name: 'Filter by category' })
      .getByRole('button', { name: category.category_name! })
    await button.click()
    await expect(page).toHaveURL(new RegExp(`[?&]category=${category.category_slug}$`))
    await expect(button).toHaveAttribute('aria-pressed', 'true')
    await expect(page.getByRole('region', { name: 'All articles' }).getByRole('article')).toHaveCount(inCategory.length)
    await button.click()
    await expect(page).toHaveURL(/\/blog\/?$/)
    // unfiltered again: the featured articles above, the rest below
    const featuredCount = await page.getByRole('region', { name: 'Featured articles' }).getByRole('article').count()
    await expect(page.getByRole('region', { name: 'All articles' }).getByRole('article')).toHaveCount(
      posts.length - featuredCount,
    )
  })

  test('nothing matching shows the empty state', async ({ page }) => {
    await page.goto('/blog?search=zzzz-no-such-article')
    await expect(page.getByText('No articles found')).toBeVisible()
    await expect(page.getByText('Try adjusting your search terms or browse all categories.')).toBeVisible()
    await expect(page.getByRole('region', { name: 'All articles' }).getByRole('article')).toHaveCount(0)
  })
})

test('a category page lists only that category', async ({ page }) => {
  const category = posts.find((post) => post.category_slug)!
  const inCategory = posts.filter((post) => post.category_slug === category.category_slug)
  const [row] = await sql<{ description: string | null }>(
    `select description from public.blog_categories where slug = $1`,
    [category.category_slug],
  )
  await page.goto(`/blog/category/${category.category_slug}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(category.category_name!)
  await expect(page).toHaveTitle(new RegExp(category.category_name!))
  if (row?.description)
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', row.description)
  await expect(page.getByRole('main').getByRole('article')).toHaveCount(inCategory.length)
  for (const post of inCategory) await expect(page.getByRole('link', { name: post.title, exact: true })).toBeVisible()
})

test('an unknown article is a blog-specific 404: Article Not Found with Back to Blog', async ({ page }) => {
  const response = await page.goto('/blog/no-such-article-here')
  expect(response!.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1, name: 'Article Not Found' })).toBeVisible()
  await expect(page.getByText("The article you're looking for doesn't exist or has been removed.")).toBeVisible()
  await expect(page.getByRole('link', { name: 'Back to Blog' })).toHaveAttribute('href', '/blog')
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
  // outside /blog the general not-found page still answers
  await page.goto('/no-such-section/page')
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible()
})

test('density badges use the spec colours: 8+ green, 5+ blue, 3+ yellow', async ({ page }) => {
  const rows = await sql<{ slug: string; score: number }>(
    `select slug, hack_density_score::float8 as score from public.blog_posts where status = 'published' and deleted_at is null and hack_density_score is not null`,
  )
  const medium = rows.find((row) => row.score >= 5 && row.score < 8)
  const high = rows.find((row) => row.score >= 8)
  expect(medium && high).toBeTruthy()
  await page.goto(`/blog/${medium!.slug}`)
  await expect(page.getByRole('article').getByText('Medium Density', { exact: false }).first()).toHaveClass(
    /bg-brand-100/,
  )
  await expect(page.getByText('Very Actionable', { exact: true })).toBeVisible()
  await page.goto(`/blog/${high!.slug}`)
  await expect(page.getByRole('article').getByText('High Density', { exact: false }).first()).toHaveClass(
    /bg-green-100/,
  )
  await expect(page.getByText('Highly Actionable', { exact: true })).toBeVisible()
})

test('on a phone the table of contents comes before the article body', async ({ page }) => {
  const post = posts.find((candidate) => renderPostContent(candidate.content).toc.length > 1)!
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`/blog/${post.slug}`)
  const contents = page.getByRole('navigation', { name: 'Table of contents' })
  await expect(contents).toBeVisible()
  const firstHeading = renderPostContent(post.content).toc[0]!
  const tocTop = (await contents.boundingBox())!.y
  const bodyTop = (await page.locator(`#${firstHeading.id}`).boundingBox())!.y
  expect(tocTop).toBeLessThan(bodyTop)
})

test.describe('article page', () => {
  let post: PublicPostRow

  test.beforeAll(() => {
    post = posts.find((candidate) => renderPostContent(candidate.content).toc.length > 1)!
    expect(post).toBeDefined()
  })

  test('shows the rendered article, reading time and a working table of contents', async ({ page }) => {
    const { toc } = renderPostContent(post.content)
    await page.goto(`/blog/${post.slug}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title)
    const article = page.getByRole('article').filter({ has: page.getByRole('heading', { level: 1 }) })
    await expect(article.getByText(`${readingTimeMinutes(post.content)} min read`, { exact: true })).toBeVisible()
    const contents = page.getByRole('navigation', { name: 'Table of contents' })
    await expect(contents.getByRole('link')).toHaveCount(toc.length)
    const target = toc[1]!
    await contents.getByRole('link', { name: target.text, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`#${target.id}$`))
    await expect(page.locator(`#${target.id}`)).toHaveText(target.text)
    await expect(page.locator(`#${target.id}`)).toBeInViewport()
  })

  test('carries JSON-LD and related articles from the same category only', async ({ page }) => {
    await page.goto(`/blog/${post.slug}`)
    const types = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((nodes) => nodes.map((node) => JSON.parse(node.textContent!)['@type']))
    expect(types).toEqual(['BlogPosting', 'BreadcrumbList'])
    const related = posts
      .filter((other) => other.slug !== post.slug && other.category_slug === post.category_slug)
      .slice(0, 3)
    const section = page.getByRole('region', { name: 'Related articles' })
    if (related.length === 0) {
      await expect(section).toHaveCount(0)
    } else {
      await expect(section.getByRole('article')).toHaveCount(related.length)
      await expect(section.getByRole('link', { name: post.title, exact: true })).toHaveCount(0)
    }
  })

  test('Share copies the link when the Web Share API is missing', async ({ page, baseURL }) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: undefined, configurable: true })
      Object.defineProperty(navigator, 'clipboard', {
        value: {
          writeText: (text: string) => (((window as unknown as { copied: string }).copied = text), Promise.resolve()),
        },
        configurable: true,
      })
    })
    await page.goto(`/blog/${post.slug}`)
    // Share's script loads after the first paint
    await expect(page.getByRole('button', { name: 'Share' })).toHaveAttribute('data-share-ready', 'true')
    await page.getByRole('button', { name: 'Share' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Link copied!' })).toContainText(
      'The article link has been copied to your clipboard.',
    )
    expect(await page.evaluate(() => (window as unknown as { copied: string }).copied)).toBe(
      new URL(`/blog/${post.slug}`, baseURL).href,
    )
  })

  test('Share reports a failure when copying is refused', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: undefined, configurable: true })
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new Error('denied')) },
        configurable: true,
      })
    })
    await page.goto(`/blog/${post.slug}`)
    // Share's script loads after the first paint
    await expect(page.getByRole('button', { name: 'Share' })).toHaveAttribute('data-share-ready', 'true')
    await page.getByRole('button', { name: 'Share' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Share failed' })).toContainText(
      'Unable to share or copy link. Please copy the URL manually.',
    )
  })
})
