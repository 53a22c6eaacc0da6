/**
 * Every administrator works at aal2, end to end in Chromium: an administrator without an authenticator app is
 * walked through enrolling one at their first sign-in (QR code and key shown, a wrong code refused) before any admin
 * screen opens; from then on sign-in asks for the password and a code, and the last app cannot be removed in
 * Settings. Codes come from the enrolled secret through `otpauth` (RFC 6238), as an authenticator app computes them.
 */
import { expect, test } from '@playwright/test'
import { createTestUser, deleteTestUser, submitAdminLogin } from '../e2e/support.ts'
import { totpCode } from '../support/totp.ts'

let email: string

test.beforeAll(async () => {
  email = await createTestUser('e2e-first-admin', { admin: true, enrolled: false })
})
test.afterAll(async () => {
  await deleteTestUser(email)
})

test('an administrator without an authenticator app enrolls one at first sign-in before any admin screen opens', async ({
  page,
}) => {
  await submitAdminLogin(page, email)
  await expect(page.getByRole('heading', { name: 'Set up two-factor authentication' })).toBeVisible({ timeout: 15_000 })
  // the password alone opens no admin screen
  await page.goto('/admin/crm')
  await expect(page).toHaveURL(/\/admin\/login$/)
  await expect(page.getByRole('heading', { name: 'Set up two-factor authentication' })).toBeVisible()

  await page.getByRole('button', { name: 'Set up authenticator app' }).click()
  const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' })
  await expect(qr).toBeVisible()
  // the QR code really draws (a broken data URL still counts as a visible img)
  await expect.poll(() => qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim()
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  const right = totpCode(secret)
  await page.getByLabel('Code from the app').fill(right === '000000' ? '111111' : '000000')
  await page.getByRole('button', { name: 'Verify and continue' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'That code is not valid. Check your authenticator app and try again.',
  )
  await page.getByLabel('Code from the app').fill(totpCode(secret))
  await page.getByRole('button', { name: 'Verify and continue' }).click()
  await expect(page).toHaveURL(/\/admin\/?$/)
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()

  // the last authenticator app stays: Settings offers another, not removal
  await page.goto('/admin/settings')
  await expect(page.getByText('Your account is protected by an authenticator app.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Remove authenticator app' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Add another authenticator app' })).toBeVisible()

  await page.getByRole('button', { name: 'Sign out' }).first().click()
  await page.waitForURL((url) => !url.pathname.startsWith('/admin'))

  // the next sign-in asks for a code, and the code opens the dashboard
  await submitAdminLogin(page, email)
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible({ timeout: 15_000 })
  await page.goto('/admin/crm')
  await expect(page).toHaveURL(/\/admin\/login$/)
  await page.getByLabel('Authentication code').fill(totpCode(secret))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/admin\/?$/)
})
