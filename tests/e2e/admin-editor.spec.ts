/**
 * The admin's rich-text post editor (TipTap): a post written with the toolbar (an H2, a bullet list, an insight
 * callout, an image) is stored as the allow-listed HTML, and after Publish Now the live article (rebuilt by the
 * browser-test site's builder) shows the heading, the list, the callout as an insight card and the image.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { createTestUser, deleteTestUser, signInAsAdmin, sql } from './support.ts';

/** A build takes 30-60 s on a busy machine; allow two back to back. */
const BUILD_TIMEOUT_MS = 150_000;

let adminEmail: string;
const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const slug = `e2e-rich-editor-${stamp}`;

test.beforeAll(async () => {
  adminEmail = await createTestUser('e2e-editor', { admin: true });
});

test.afterAll(async () => {
  await sql(`delete from public.blog_posts where slug = $1`, [slug]);
  await deleteTestUser(adminEmail);
});

const toast = (page: Page, title: string) => page.getByRole('status').getByText(title, { exact: true });

test('a post written with the toolbar (heading, list, callout, image) goes live with the same structure', async ({ page, request, baseURL }) => {
  test.setTimeout(BUILD_TIMEOUT_MS + 90_000);
  const title = `Rich Editor ${stamp}`;
  const imageUrl = new URL('/icon-192.png', baseURL).href;

  await signInAsAdmin(page, adminEmail);
  await page.goto('/admin/blog?new=1');
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Slug').fill(slug);

  const content = page.getByRole('textbox', { name: 'Content', exact: true });
  await content.click();
  await page.getByRole('button', { name: 'Heading 2' }).click();
  await page.keyboard.type('Questions to ask');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Bullet list' }).click();
  await page.keyboard.type('Days on market');
  await page.keyboard.press('Enter');
  await page.keyboard.type('List-to-sale ratio');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Callout' }).click();
  await page.keyboard.type('Agents who answer both in numbers know their market.');
  await expect(page.getByRole('button', { name: 'Callout' })).toHaveAttribute('aria-pressed', 'true');
  page.once('dialog', (dialog) => void dialog.accept(imageUrl));
  await page.getByRole('button', { name: 'Image', exact: true }).click();
  await expect(content.locator('img')).toHaveAttribute('src', imageUrl);

  await page.getByLabel('Excerpt').fill('What to ask an agent.');
  await page.getByRole('button', { name: 'Publish Now' }).click();
  await expect(toast(page, 'Post Published')).toBeVisible();

  const [stored] = await sql<{ content: string }>(`select content from public.blog_posts where slug = $1`, [slug]);
  expect(stored!.content).toBe(
    '<h2>Questions to ask</h2><ul><li><p>Days on market</p></li><li><p>List-to-sale ratio</p></li></ul>' +
      `<div data-callout="insight"><p>Agents who answer both in numbers know their market.</p><img src="${imageUrl}" alt=""></div>`,
  );

  // the builder rebuilds after Publish; then the article carries the same structure
  await expect.poll(async () => (await request.get(`/blog/${slug}`)).status(), { timeout: BUILD_TIMEOUT_MS, intervals: [2_000] }).toBe(200);
  await page.goto(`/blog/${slug}`);
  const article = page.locator('article');
  await expect(article.getByRole('heading', { level: 2, name: 'Questions to ask' })).toBeVisible();
  await expect(article.getByRole('listitem').filter({ hasText: 'List-to-sale ratio' })).toBeVisible();
  const callout = article.locator('div[data-callout="insight"]');
  await expect(callout).toContainText('Agents who answer both in numbers know their market.');
  // styled as an insight card, not as plain text
  await expect(callout).toHaveCSS('border-top-width', '1px');
  await expect(callout.locator('img')).toHaveAttribute('src', imageUrl);
});
