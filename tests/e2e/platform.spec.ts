/**
 * The platform end to end: the prebuilt site shows published posts only, and the admin app signs an administrator
 * in against the local auth service (and refuses bad credentials with the spec's message).
 */
import { expect, test } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';

const url = process.env.TEST_SUPABASE_URL!;
const anonKey = process.env.TEST_SUPABASE_ANON_KEY!;

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

test('the home page is prebuilt with published posts and without drafts', async ({ page }) => {
  const published = await query<{ title: string }>(`select title from public.blog_posts where status = 'published' order by published_at desc limit 3`);
  const drafts = await query<{ title: string }>(`select title from public.blog_posts where status = 'draft' limit 1`);
  expect(published.length).toBeGreaterThan(0);
  expect(drafts.length).toBeGreaterThan(0);
  await page.goto('/');
  for (const post of published) await expect(page.getByText(post.title, { exact: true })).toBeVisible();
  await expect(page.getByText(drafts[0]!.title, { exact: true })).toHaveCount(0);
});

test('an unknown path shows the 404 page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response!.status()).toBe(404);
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
});

test.describe('admin sign-in', () => {
  const password = 'correct-horse-battery';
  let adminEmail: string;
  let userEmail: string;

  test.beforeAll(async () => {
    const stamp = Date.now();
    adminEmail = `e2e-admin-${stamp}@example.com`;
    userEmail = `e2e-user-${stamp}@example.com`;
    for (const email of [adminEmail, userEmail]) {
      const client = createClient(url, anonKey, { auth: { persistSession: false } });
      const { error } = await client.auth.signUp({ email, password });
      if (error) throw error;
    }
    await query(`insert into public.user_roles (user_id, role) select id, 'admin' from auth.users where email = $1`, [adminEmail]);
  });

  test('an administrator signs in and reaches the dashboard', async ({ page }) => {
    await page.goto('/admin/');
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByText('Access Admin Dashboard')).toBeVisible();
    await page.getByLabel('Email').fill(adminEmail);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/admin\/?$/);
    await expect(page.getByText('Admin Dashboard')).toBeVisible();
    await expect(page.getByText(adminEmail)).toBeVisible();
  });

  test('bad credentials show the invalid-credentials alert', async ({ page }) => {
    await page.goto('/admin/login');
    await page.getByLabel('Email').fill(adminEmail);
    await page.getByLabel('Password').fill('wrong-password-123');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid email or password');
  });

  test('a signed-in non-administrator is told they are not authorized', async ({ page }) => {
    await page.goto('/admin/login');
    await page.getByLabel('Email').fill(userEmail);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Not authorized')).toBeVisible();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
