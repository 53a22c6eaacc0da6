/**
 * The admin's rich-text post editor (TipTap), end to end: the settings side panel beside the text at 1280 px and a
 * drawer at 390 px, and a post whose markup the rich editor cannot keep opening in HTML mode. Writing with the
 * toolbar, uploading an image and scheduling are in admin-scheduled-post.spec.ts.
 */
import type { Page } from '@playwright/test'
import { expect, test } from '@playwright/test'
import { createTestUser, deleteTestUser, signInAsAdmin, sql } from './support.ts'

let adminEmail: string
const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`
const tableSlug = `e2e-rich-editor-${stamp}-table`

test.beforeAll(async () => {
  adminEmail = await createTestUser('e2e-editor', { admin: true })
})

test.afterAll(async () => {
  await sql(`delete from public.blog_posts where slug = $1`, [tableSlug])
  await deleteTestUser(adminEmail)
})

const toast = (page: Page, title: string) => page.getByRole('status').getByText(title, { exact: true })

test('post settings sit beside the text at 1280 px and open as a drawer from Settings at 390 px', async ({ page }) => {
  await signInAsAdmin(page, adminEmail)
  await page.goto('/admin/blog?new=1')
  const panel = page.getByRole('complementary', { name: 'Post settings' })
  await expect(panel.getByLabel('Slug')).toBeVisible()
  await expect(panel.getByLabel('Publish date')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Settings', exact: true })).toHaveCount(0)
  const [titleBox, panelBox] = [
    await page.getByLabel('Title', { exact: true }).boundingBox(),
    await panel.boundingBox(),
  ]
  expect(panelBox!.x).toBeGreaterThan(titleBox!.x + titleBox!.width)

  await page.setViewportSize({ width: 390, height: 844 })
  await expect(panel).toHaveCount(0)
  await page.getByLabel('Title', { exact: true }).fill('Drawer check')
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  const drawer = page.getByRole('dialog', { name: 'Post settings' })
  // the slug followed the title while the fields were in the drawer's closed state
  await expect(drawer.getByLabel('Slug')).toHaveValue('drawer-check')
  await drawer.getByLabel('Meta description').fill('Short.')
  const box = await drawer.boundingBox()
  expect(box!.x).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width).toBeLessThanOrEqual(390)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.keyboard.press('Escape')
  await expect(drawer).toHaveCount(0)
  // what was typed in the drawer stays in the form
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  await expect(drawer.getByLabel('Meta description')).toHaveValue('Short.')
  await drawer.getByRole('button', { name: 'Done' }).click()
  await expect(drawer).toHaveCount(0)
})

test('a post with a table opens in HTML mode and keeps the table when saved', async ({ page }) => {
  const content = '<p>Rates by year:</p><table><tbody><tr><td>2025</td><td>6.1%</td></tr></tbody></table>'
  const [row] = await sql<{ id: string }>(
    `insert into public.blog_posts (title, slug, content, excerpt, status) values ($1, $2, $3, 'Rates.', 'draft') returning id`,
    [`Table Post ${stamp}`, tableSlug, content],
  )
  await signInAsAdmin(page, adminEmail)
  await page.goto(`/admin/blog?edit=${row!.id}`)
  await expect(page.getByRole('note')).toHaveText(
    'This post has markup the rich editor cannot keep (table), so it opens in HTML mode.',
  )
  await expect(page.getByLabel('Content', { exact: true })).toHaveValue(content)
  // leaving HTML mode asks first; declining keeps the HTML mode
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(
      "The rich editor cannot keep this post's table: switching drops them on the next save. Switch anyway?",
    )
    void dialog.dismiss()
  })
  await page.getByRole('button', { name: 'Edit HTML' }).click()
  await expect(page.getByRole('button', { name: 'Edit HTML' })).toHaveAttribute('aria-pressed', 'true')
  await page.getByLabel('Excerpt').fill('Rates, edited.')
  await page.getByRole('button', { name: 'Save Draft' }).click()
  await expect(toast(page, 'Post Saved')).toBeVisible()
  const [stored] = await sql<{ content: string; excerpt: string }>(
    `select content, excerpt from public.blog_posts where id = $1`,
    [row!.id],
  )
  expect(stored).toEqual({ content, excerpt: 'Rates, edited.' })
})
