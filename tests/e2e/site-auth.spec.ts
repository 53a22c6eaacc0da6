/** /auth: the Welcome Back card, Sign In / Sign Up tabs, inline auth errors, success toasts and redirects. */
import { expect, sql, test, TEST_PASSWORD } from './support.ts';
import { waitForIsland } from './site-support.ts';

test('the card has Sign In and Sign Up tabs that work from the keyboard', async ({ page }) => {
  await page.goto('/auth');
  await waitForIsland(page, 'AuthCard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
  const signInTab = page.getByRole('tab', { name: 'Sign In' });
  await expect(signInTab).toHaveAttribute('aria-selected', 'true');
  await signInTab.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(signInTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('main').getByRole('textbox', { name: 'Email' })).toHaveAttribute('required', '');
});

test('empty fields are refused before asking the auth service', async ({ page }) => {
  let asked = false;
  await page.route('**/auth/v1/token**', (route) => {
    asked = true;
    return route.fallback();
  });
  await page.goto('/auth');
  await waitForIsland(page, 'AuthCard');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');
  expect(asked).toBe(false);
});

test('a wrong password shows the auth service\'s error inline', async ({ page, userEmail: email }) => {
  await page.goto('/auth');
  await waitForIsland(page, 'AuthCard');
  await page.getByRole('main').getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid login credentials');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('main').getByRole('textbox', { name: 'Email' })).toHaveValue(email);
});

test('signing in shows a busy button, welcomes back and goes home; a signed-in visitor is sent home', async ({ page, userEmail: email }) => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/auth/v1/token**', async (route) => {
    await gate;
    await route.fallback();
  });
  await page.goto('/auth');
  await waitForIsland(page, 'AuthCard');
  await page.getByRole('main').getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('button', { name: 'Signing in…' })).toBeDisabled();
  release();
  await expect(page.getByRole('status').filter({ hasText: 'Welcome back!' })).toBeVisible();
  await page.waitForURL((url) => url.pathname === '/');

  await page.goto('/auth');
  await page.waitForURL((url) => url.pathname === '/');
});

test('signing up creates the account and confirms it', async ({ page, newEmail }) => {
  await page.goto('/auth');
  await waitForIsland(page, 'AuthCard');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByRole('main').getByRole('textbox', { name: 'Email' }).fill(newEmail);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters');
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Account created!/ })).toBeVisible();
  expect(await sql(`select 1 from auth.users where email = $1`, [newEmail])).toHaveLength(1);
});

test('signing up with a taken email answers like a new address, so accounts cannot be enumerated', async ({ page, userEmail: email }) => {
  await page.goto('/auth');
  await waitForIsland(page, 'AuthCard');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByRole('main').getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Account created!/ })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
