/**
 * The admin shell: sidebar navigation and highlighting, the collapsed state remembered in the `sidebar_state`
 * cookie and toggled with Ctrl+B, the mobile drawer, and the placeholder sections.
 */
import { expect, signInAsAdmin, test } from './support.ts'

test('the sidebar navigates, highlights the section and shows the signed-in administrator', async ({
  page,
  adminEmail,
}) => {
  await signInAsAdmin(page, adminEmail)
  const nav = page.getByRole('navigation', { name: 'Admin' })
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByText('Administrator', { exact: true })).toBeVisible()
  await expect(page.getByText(adminEmail)).toBeVisible()
  await expect(page.getByRole('link', { name: 'View Site' })).toHaveAttribute('href', '/')
  await expect(page.getByRole('link', { name: 'View Site' })).toHaveAttribute('target', '_blank')

  await nav.getByRole('link', { name: 'Blog' }).click()
  await expect(page).toHaveURL(/\/admin\/blog$/)
  await expect(page.getByRole('heading', { name: 'Blog Administration' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Blog' })).toHaveAttribute('aria-current', 'page')
  await expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page')

  for (const section of ['Users', 'Database']) {
    await nav.getByRole('link', { name: section }).click()
    await expect(page.getByRole('heading', { name: section })).toBeVisible()
    await expect(page.getByText('Coming soon...')).toBeVisible()
  }
  // Settings holds the account's two-factor authentication (security issue)
  await nav.getByRole('link', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible()
})

test('Ctrl+B collapses the sidebar to icons and the choice survives a reload via the cookie', async ({
  page,
  context,
  adminEmail,
}) => {
  await signInAsAdmin(page, adminEmail)
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' })
  await expect(sidebar).toHaveAttribute('data-state', 'expanded')
  expect((await sidebar.boundingBox())!.width).toBe(256)

  await page.keyboard.press('Control+b')
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed')
  await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(48)
  // Icons only, but every entry keeps its accessible name.
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Calendar' })).toBeVisible()

  const cookie = (await context.cookies()).find((entry) => entry.name === 'sidebar_state')
  expect(cookie?.value).toBe('false')
  expect(cookie?.path).toBe('/admin')
  const secondsLeft = cookie!.expires - Date.now() / 1000
  expect(secondsLeft).toBeGreaterThan(604_800 - 120)
  expect(secondsLeft).toBeLessThanOrEqual(604_800 + 5)

  await page.reload()
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed')

  await page.keyboard.press('Control+b')
  await expect(sidebar).toHaveAttribute('data-state', 'expanded')
  expect((await context.cookies()).find((entry) => entry.name === 'sidebar_state')?.value).toBe('true')
})

test('under 768px the sidebar is a drawer opened from the menu button', async ({ page, adminEmail }) => {
  await page.setViewportSize({ width: 500, height: 800 })
  await signInAsAdmin(page, adminEmail)
  await expect(page.getByRole('complementary', { name: 'Sidebar' })).toHaveCount(0)
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0)

  await page.getByRole('button', { name: 'Open menu' }).click()
  const drawer = page.getByRole('dialog', { name: 'Navigation' })
  await expect(drawer).toBeVisible()
  expect((await drawer.boundingBox())!.width).toBe(288)

  await drawer.getByRole('link', { name: 'Calendar' }).click()
  await expect(page).toHaveURL(/\/admin\/calendar$/)
  await expect(drawer).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Content Calendar' })).toBeVisible()
})
