/**
 * Shared fixtures of the browser tests: `test` with Playwright fixtures (`test.extend`) that create the users a test
 * needs through the real sign-up endpoint and delete them afterwards, superuser SQL on the per-run test database
 * (the one `sql` helper of tests/support/sql.ts), and sign-in through the admin login form.
 */
import { test as base, expect, type Page } from '@playwright/test'
import { createClient } from '@supabase/supabase-js'
import { sql } from '../support/sql.ts'
import { enrollTotp, totpCode } from '../support/totp.ts'

export { expect, sql }

/** Password of every user the browser tests create. */
export const TEST_PASSWORD = 'correct-horse-battery-42'

/**
 * Creates the confirmed user `<prefix>-<timestamp>@example.com` with TEST_PASSWORD through the admin API (sign-up
 * needs an email confirmation first); `admin` also lists them in user_roles and enrolls their authenticator app
 * (every administrator has one; signInAsAdmin computes its codes), unless `enrolled: false` leaves that to their
 * first sign-in.
 * @returns the email. @throws the auth service's error when creation or enrollment fails.
 */
export async function createTestUser(prefix: string, { admin = false, enrolled = true } = {}): Promise<string> {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const client = createClient(process.env.TEST_SUPABASE_URL!, process.env.TEST_SUPABASE_SERVICE_ROLE_KEY!, {
    auth: { persistSession: false },
  })
  const { error } = await client.auth.admin.createUser({ email, password: TEST_PASSWORD, email_confirm: true })
  if (error) throw error
  if (admin) {
    await sql(`insert into public.user_roles (user_id, role) select id, 'admin' from auth.users where email = $1`, [
      email,
    ])
    if (enrolled) {
      const user = createClient(process.env.TEST_SUPABASE_URL!, process.env.TEST_SUPABASE_ANON_KEY!, {
        auth: { persistSession: false, autoRefreshToken: false },
      })
      const signIn = await user.auth.signInWithPassword({ email, password: TEST_PASSWORD })
      if (signIn.error) throw signIn.error
      await enrollTotp(user)
      await user.auth.signOut()
    }
  }
  return email
}

/** The current authenticator code of the user's verified factor (the local Auth keeps the secret in auth.mfa_factors). */
export async function authenticatorCode(email: string): Promise<string> {
  const [factor] = await sql<{ secret: string }>(
    `select f.secret from auth.mfa_factors f join auth.users u on u.id = f.user_id
      where u.email = $1 and f.status = 'verified' order by f.created_at limit 1`,
    [email],
  )
  if (!factor) throw new Error(`${email} has no verified authenticator`)
  return totpCode(factor.secret)
}

/** Removes a user created by createTestUser (their roles go with them). */
export async function deleteTestUser(email: string): Promise<void> {
  await sql(`delete from auth.users where email = $1`, [email])
}

/** Fills the admin login form; does not wait for where it leads. */
export async function submitAdminLogin(page: Page, email: string, password = TEST_PASSWORD): Promise<void> {
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Access Admin Dashboard' }).click()
}

/** Signs an administrator in (password, then their authenticator code) and waits for the dashboard. */
export async function signInAsAdmin(page: Page, email: string): Promise<void> {
  await submitAdminLogin(page, email)
  // password hashing on a machine busy with other builds can take several seconds
  const code = page.getByLabel('Authentication code')
  await expect(code).toBeVisible({ timeout: 15_000 })
  await code.fill(await authenticatorCode(email))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/admin\/?$/, { timeout: 15_000 })
}

/**
 * The browser tests' `test`: Playwright's, with fixtures that create what a test needs and remove it afterwards.
 * - `adminEmail`: an administrator (listed in user_roles), one per worker, deleted when the worker ends;
 * - `userEmail`: a signed-up user without a role, one per test, deleted after it;
 * - `newEmail`: an address nobody uses yet, for a test that signs up through the UI; that user is deleted after it.
 * All sign in with TEST_PASSWORD.
 */
export const test = base.extend<{ userEmail: string; newEmail: string }, { adminEmail: string }>({
  adminEmail: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring
    async ({}, use, workerInfo) => {
      const email = await createTestUser(`e2e-admin-w${workerInfo.workerIndex}`, { admin: true })
      await use(email)
      await deleteTestUser(email)
    },
    { scope: 'worker' },
  ],
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring
  userEmail: async ({}, use) => {
    const email = await createTestUser('e2e-user')
    await use(email)
    await deleteTestUser(email)
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring
  newEmail: async ({}, use) => {
    const email = `e2e-signup-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
    await use(email)
    await deleteTestUser(email)
  },
})
