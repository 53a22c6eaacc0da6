/**
 * Nothing an administrator deletes is gone for good, in Chromium: a lead deleted from Lead Details and a post
 * deleted from the blog list go to the trash, Deleted leads / Deleted posts restore them, and the Audit Log shows
 * who moved them and brought them back.
 */
import { expect, signInAsAdmin, sql, test } from '../e2e/support.ts'

test.describe.configure({ timeout: 90_000 })

const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
const leadName = `Trash Lead ${stamp}`
const postTitle = `Trash Post ${stamp}`
let adminEmail: string

test.beforeAll(async ({ adminEmail: email }) => {
  adminEmail = email
  await sql(`insert into public.report_requests (full_name, email) values ($1, $2)`, [
    leadName,
    `trash-${stamp}@example.com`,
  ])
  await sql(`insert into public.blog_posts (title, slug, content) values ($1, $2, '<p>Draft to delete</p>')`, [
    postTitle,
    `trash-post-${stamp}`,
  ])
})

test.afterAll(async () => {
  await sql(`delete from public.report_requests where email = $1`, [`trash-${stamp}@example.com`])
  await sql(`delete from public.blog_posts where slug = $1`, [`trash-post-${stamp}`])
})

test('a deleted lead waits in Deleted leads, comes back with Restore, and the Audit Log names who did both', async ({
  page,
}) => {
  await signInAsAdmin(page, adminEmail)
  await page.goto('/admin/crm')
  await page.getByRole('button', { name: `View details for ${leadName}` }).click()
  const details = page.getByRole('dialog', { name: 'Lead Details' })
  await details.getByRole('button', { name: 'Delete lead' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete this lead?' })
  await expect(confirm).toContainText('moves to the trash with its notes')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText(`${leadName} was moved to the trash.`)).toBeVisible()
  await expect(page.getByRole('button', { name: `View details for ${leadName}` })).toHaveCount(0)

  await page.getByRole('button', { name: 'Deleted leads' }).click()
  const trash = page.getByRole('dialog', { name: 'Deleted leads' })
  await expect(trash.getByRole('listitem').filter({ hasText: leadName })).toContainText(`by ${adminEmail}`)
  await trash.getByRole('button', { name: `Restore ${leadName}` }).click()
  await expect(page.getByText(`"${leadName}" is back.`)).toBeVisible()
  await expect(trash.getByRole('listitem').filter({ hasText: leadName })).toHaveCount(0)
  await trash.getByRole('button', { name: 'Close' }).click()
  await expect(page.getByRole('button', { name: `View details for ${leadName}` })).toBeVisible()

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit Log' }).click()
  await expect(page.getByRole('heading', { name: 'Audit Log', level: 1 })).toBeVisible()
  await page.getByLabel('Filter by table').selectOption('report_requests')
  await expect(page).toHaveURL(/\/admin\/audit\?table=report_requests$/)
  const rows = page.getByRole('row').filter({ hasText: leadName })
  await expect(rows.filter({ hasText: 'Restored' })).toContainText(adminEmail)
  await expect(rows.filter({ hasText: 'Moved to trash' })).toContainText(adminEmail)
})

test('a deleted post leaves the list for Deleted posts and Restore brings it back', async ({ page }) => {
  await signInAsAdmin(page, adminEmail)
  await page.goto('/admin/blog')
  const row = page.getByRole('row').filter({ hasText: postTitle })
  await row.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete this post?' })
  await expect(confirm).toContainText('moves to the trash')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Blog post has been moved to the trash')).toBeVisible()
  await expect(row).toHaveCount(0)
  expect(
    await sql(`select deleted_at is not null as trashed from public.blog_posts where title = $1`, [postTitle]),
  ).toEqual([{ trashed: true }])

  await page.getByRole('button', { name: 'Deleted posts' }).click()
  const trash = page.getByRole('dialog', { name: 'Deleted posts' })
  await trash.getByRole('button', { name: `Restore ${postTitle}` }).click()
  await expect(page.getByText(`"${postTitle}" is back.`)).toBeVisible()
  await trash.getByRole('button', { name: 'Close' }).click()
  await expect(page.getByRole('row').filter({ hasText: postTitle })).toBeVisible()
})
