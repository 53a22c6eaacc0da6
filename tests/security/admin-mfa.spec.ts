/**
 * Admin sign-in with a TOTP factor, end to end in Chromium: enroll in Settings (QR and key), sign out, sign in with
 * the password, get asked for the code, a wrong code is refused, the right code opens the dashboard. Codes come
 * from the enrolled secret through `otpauth` (RFC 6238), as an authenticator app computes them.
 */
import { expect, test } from '@playwright/test'
import * as OTPAuth from 'otpauth'
import { createTestUser, deleteTestUser, submitAdminLogin } from '../e2e/support.ts'

let email: string

test.beforeAll(async () => {
  email = await createTestUser('e2e-mfa-admin', { admin: true })
})
test.afterAll(async () => {
  await deleteTestUser(email)
})

/** A code for the secret that is not the one of the previous 30-second step, so the server never sees a replay. */
function codeFor(secret: string): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate()
}

test('enroll an authenticator app, sign out, sign in with password and code', async ({ page }) => {
  await submitAdminLogin(page, email)
  await expect(page).toHaveURL(/\/admin\/?$/)

  await page.goto('/admin/settings')
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible()
  await page.getByRole('button', { name: 'Set up authenticator app' }).click()
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible()
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim()
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await page.getByLabel('Code from the app').fill(codeFor(secret))
  await page.getByRole('button', { name: 'Verify and enable' }).click()
  await expect(page.getByText('Your account is protected by an authenticator app.')).toBeVisible()

  await page.getByRole('button', { name: 'Sign out' }).first().click()
  await page.waitForURL((url) => !url.pathname.startsWith('/admin'))

  await submitAdminLogin(page, email)
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible()
  // the password alone opens nothing: the dashboard sends an aal1 session back to the code step
  await page.goto('/admin/crm')
  await expect(page).toHaveURL(/\/admin\/login$/)
  await expect(page.getByLabel('Authentication code')).toBeVisible()

  const right = codeFor(secret)
  await page.getByLabel('Authentication code').fill(right === '000000' ? '111111' : '000000')
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'That code is not valid. Check your authenticator app and try again.',
  )

  await page.getByLabel('Authentication code').fill(codeFor(secret))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/admin\/?$/)
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
  await page.goto('/admin/settings')
  await expect(page.getByText('Your account is protected by an authenticator app.')).toBeVisible()
})
