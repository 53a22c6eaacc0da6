/**
 * The platform end to end: the prebuilt site shows published posts only, and the admin app signs an administrator
 * in against the local auth service (and refuses bad credentials with the spec's message).
 */
import { expect, test } from '@playwright/test';
import { createTestUser, deleteTestUser, query, signInAsAdmin, submitAdminLogin } from './support.ts';

test('the home page is prebuilt with published posts and without drafts', async ({ page }) => {
  const published = await query<{ title: string }>(
    `select title from public.blog_posts where status = 'published' and published_at <= now() order by published_at desc limit 3`,
  );
  const drafts = await query<{ title: string }>(`select title from public.blog_posts where status = 'draft' limit 1`);
  expect(published.length).toBeGreaterThan(0);
  expect(drafts.length).toBeGreaterThan(0);
  await page.goto('/');
  for (const post of published) await expect(page.getByText(post.title, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(drafts[0]!.title, { exact: true })).toHaveCount(0);
});

test('an unknown path shows the 404 page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response!.status()).toBe(404);
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
});

test.describe('admin sign-in', () => {
  let adminEmail: string;
  let userEmail: string;

  test.beforeAll(async () => {
    adminEmail = await createTestUser('e2e-admin', { admin: true });
    userEmail = await createTestUser('e2e-user');
  });

  test.afterAll(async () => {
    await deleteTestUser(adminEmail);
    await deleteTestUser(userEmail);
  });

  test('an administrator signs in and reaches the dashboard', async ({ page }) => {
    await page.goto('/admin/');
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByText('Access Admin Dashboard')).toBeVisible();
    await signInAsAdmin(page, adminEmail);
    await expect(page.getByRole('status').getByText('Welcome back, Admin!', { exact: true })).toBeVisible();
    await expect(page.getByText('Admin Dashboard').first()).toBeVisible();
    await expect(page.getByText(adminEmail).first()).toBeVisible();

    // Signed in already: the login page sends the admin straight on to the dashboard.
    await page.goto('/admin/login');
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('bad credentials show the invalid-credentials alert', async ({ page }) => {
    await submitAdminLogin(page, adminEmail, 'wrong-password-123');
    await expect(page.getByRole('alert')).toContainText('Invalid email or password');
  });

  test('a signed-in non-administrator is told they are not authorized', async ({ page }) => {
    await submitAdminLogin(page, userEmail);
    await expect(page.getByText('Not authorized')).toBeVisible();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
