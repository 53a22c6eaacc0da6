/**
 * Browser hardening: every served page (site and admin) carries the headers of
 * public/_headers (CSP with frame-ancestors 'none', X-Frame-Options DENY, nosniff, Referrer-Policy), the site and
 * the admin still work in Chromium under that CSP (no violations), and an unhashed inline script does not run.
 */
import { expect, test, type Page } from '@playwright/test'
import { waitForIsland } from '../e2e/site-support.ts'

const pages = [
  '/',
  '/about',
  '/blog',
  '/search-results?query=02139&type=zipcode',
  '/auth',
  '/auth/reset-password',
  '/no-such-page',
  '/admin/',
  '/admin/login',
]

function collectViolations(page: Page): string[] {
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect)/i.test(message.text()))
      violations.push(message.text())
  })
  return violations
}

for (const path of pages) {
  test(`${path} carries the security headers and loads without CSP violations`, async ({ page }) => {
    const violations = collectViolations(page)
    const response = await page.goto(path)
    const headers = response!.headers()
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(headers['content-security-policy']).toContain("object-src 'none'")
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    await page.waitForLoadState('networkidle')
    expect(violations).toEqual([])
  })
}

test('the site still works under the CSP: the auth card hydrates and answers', async ({ page }) => {
  const violations = collectViolations(page)
  await page.goto('/auth')
  await waitForIsland(page, 'AuthCard')
  await page.getByLabel('Email').first().fill('nobody@example.com')
  await page.getByLabel('Password').first().fill('Wrong-password-1')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('alert')).toHaveText('Invalid login credentials')
  expect(violations).toEqual([])
})

test('an injected inline script without a hash does not run on the site or the admin', async ({ page }) => {
  for (const path of ['/', '/admin/login']) {
    await page.goto(path)
    await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.__injected = true'
      document.body.append(script)
    })
    expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected ?? false), path).toBe(false)
  }
})

test('the static host does not serve its _headers file', async ({ request }) => {
  expect((await request.get('/_headers')).status()).toBe(404)
})
