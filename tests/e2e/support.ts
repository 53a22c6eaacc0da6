/**
 * Shared fixtures of the browser tests: superuser SQL on the per-run test database, test users (optionally listed in
 * user_roles as admins) created through the real sign-up endpoint, and sign-in through the admin login form.
 */
import { expect, type Page } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';

/** Password of every user the browser tests create. */
export const TEST_PASSWORD = 'correct-horse-battery-42';

/** Runs SQL as the superuser against the test database (TEST_DATABASE_URL, set by scripts/test.ts). */
export async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Creates the confirmed user `<prefix>-<timestamp>@example.com` with TEST_PASSWORD through the admin API (sign-up
 * needs an email confirmation first); `admin` also lists them in user_roles.
 * @returns the email. @throws the auth service's error when creation fails.
 */
export async function createTestUser(prefix: string, { admin = false } = {}): Promise<string> {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const client = createClient(process.env.TEST_SUPABASE_URL!, process.env.TEST_SUPABASE_SERVICE_ROLE_KEY!, { auth: { persistSession: false } });
  const { error } = await client.auth.admin.createUser({ email, password: TEST_PASSWORD, email_confirm: true });
  if (error) throw error;
  if (admin) await query(`insert into public.user_roles (user_id, role) select id, 'admin' from auth.users where email = $1`, [email]);
  return email;
}

/** Removes a user created by createTestUser (their roles go with them). */
export async function deleteTestUser(email: string): Promise<void> {
  await query(`delete from auth.users where email = $1`, [email]);
}

/** Fills the admin login form; does not wait for where it leads. */
export async function submitAdminLogin(page: Page, email: string, password = TEST_PASSWORD): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Signs an administrator in and waits for the dashboard. */
export async function signInAsAdmin(page: Page, email: string): Promise<void> {
  await submitAdminLogin(page, email);
  await expect(page).toHaveURL(/\/admin\/?$/);
}
