/**
 * The platform end to end: the prebuilt site shows published posts only, and the admin app signs an administrator
 * in against the local auth service (and refuses bad credentials with the spec's message).
 */
import { expect, signInAsAdmin, sql, submitAdminLogin, test } from './support.ts'

test('the home page is prebuilt with published posts and without drafts', async ({ page }) => {
  const published = await sql<{ title: string }>(
    `select title from public.blog_posts where status = 'published' and published_at <= now() and deleted_at is null order by published_at desc limit 3`,
  )
  const drafts = await sql<{ title: string }>(`select title from public.blog_posts where status = 'draft' limit 1`)
  expect(published.length).toBeGreaterThan(0)
  expect(drafts.length).toBeGreaterThan(0)
  await page.goto('/')
  for (const post of published) await expect(page.getByText(post.title, { exact: true }).first()).toBeVisible()
  await expect(page.getByText(drafts[0]!.title, { exact: true })).toHaveCount(0)
})

test.describe('admin sign-in', () => {
  test('an administrator signs in and reaches the dashboard', async ({ page, adminEmail }) => {
    await page.goto('/admin/')
    await expect(page).toHaveURL(/\/admin\/login$/)
    // the seed's texts: a link back to the site, the button, the note
    await expect(page.getByRole('link', { name: 'Back to AgentInsight' })).toHaveAttribute('href', '/')
    await expect(page.getByRole('button', { name: 'Access Admin Dashboard' })).toBeVisible()
    await expect(page.getByText('Authorized personnel only')).toBeVisible()
    await signInAsAdmin(page, adminEmail)
    await expect(page.getByRole('status').getByText('Welcome back, Admin!', { exact: true })).toBeVisible()
    await expect(page.getByRole('banner').getByText('Admin Dashboard', { exact: true })).toBeVisible()
    await expect(page.getByText(adminEmail).first()).toBeVisible()

    // Signed in already: the login page sends the admin straight on to the dashboard.
    await page.goto('/admin/login')
    await expect(page).toHaveURL(/\/admin$/)
  })

  test('bad credentials show the invalid-credentials alert', async ({ page, adminEmail }) => {
    await submitAdminLogin(page, adminEmail, 'wrong-password-123')
    await expect(page.getByRole('alert')).toContainText('Invalid email or password')
  })

  test('a signed-in non-administrator is told they are not authorized', async ({ page, userEmail }) => {
    await submitAdminLogin(page, userEmail)
    await expect(page.getByText('Not authorized')).toBeVisible()
    // no welcome for someone who is not an administrator (the toast would still be showing here)
    await expect(page.getByText('Welcome back, Admin!')).toHaveCount(0)
    await page.getByRole('button', { name: 'Sign Out' }).click()
    await expect(page).toHaveURL(/\/$/)
  })
})
