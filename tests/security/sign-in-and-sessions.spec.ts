/**
 * Recovery works and reveals nothing: "Forgot your password?" on the sign-in card leads to
 * /auth/reset-password, which sends the recovery email; the link in that email opens the same page, which verifies
 * the token and sets the new password (checked against the policy first); the new password signs in, the old one
 * no longer does.
 */
import { expect, test } from '@playwright/test'
import { createClient } from '@supabase/supabase-js'
import { waitForIsland } from '../e2e/site-support.ts'
import { createTestUser, deleteTestUser, TEST_PASSWORD } from '../e2e/support.ts'

let email: string
test.beforeAll(async () => {
  email = await createTestUser('e2e-reset')
})
test.afterAll(async () => {
  await deleteTestUser(email)
})

async function latestResetLink(address: string): Promise<string> {
  const response = await fetch(`${process.env.TEST_MAILBOX_URL}/api/v1/messages?to=${encodeURIComponent(address)}`)
  const messages = (await response.json()) as { subject: string; text_body: string }[]
  const message = messages.find((item) => item.subject === 'Reset your Agent Insight password')
  return (
    /https?:\/\/\S+\/auth\/reset-password\?token_hash=[0-9a-f]+&type=recovery/.exec(message?.text_body ?? '')?.[0] ?? ''
  )
}

test('a visitor resets a forgotten password through the emailed link', async ({ page, baseURL }) => {
  await page.goto('/auth')
  await waitForIsland(page, 'AuthCard')
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await expect(page).toHaveURL(/\/auth\/reset-password$/)
  const main = page.getByRole('main')
  await main.getByRole('textbox', { name: 'Email', exact: true }).fill(email)
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(main.getByRole('status')).toHaveText(
    'If an account exists for that address, we sent it a link to reset the password. Check your email.',
  )

  await expect.poll(() => latestResetLink(email)).not.toBe('')
  // the email links to SITE_URL; open the same path and query on the site under test
  const link = new URL(await latestResetLink(email))
  await page.goto(`${baseURL}${link.pathname}${link.search}`)
  await page.getByLabel('New password', { exact: true }).fill('short')
  await page.getByLabel('Confirm new password').fill('short')
  await page.getByRole('button', { name: 'Set new password' }).click()
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Password must be at least 10 characters')

  const newPassword = 'brand-new-secret-77'
  await page.getByLabel('New password', { exact: true }).fill(newPassword)
  await page.getByLabel('Confirm new password').fill(newPassword)
  await page.getByRole('button', { name: 'Set new password' }).click()
  await expect(page.getByText('Your password has been updated and you are signed in.')).toBeVisible()

  const client = createClient(process.env.TEST_SUPABASE_URL!, process.env.TEST_SUPABASE_ANON_KEY!, {
    auth: { persistSession: false },
  })
  expect((await client.auth.signInWithPassword({ email, password: newPassword })).error).toBeNull()
  expect((await client.auth.signInWithPassword({ email, password: TEST_PASSWORD })).error?.message).toBe(
    'Invalid login credentials',
  )
})

test('an invalid reset link says so and offers a new one', async ({ page }) => {
  await page.goto('/auth/reset-password?token_hash=deadbeef&type=recovery')
  await expect(page.getByText('This reset link is invalid or has expired. Request a new one below.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible()
})
