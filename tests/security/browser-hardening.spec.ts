/**
 * Browser hardening: every served page (site and admin) carries the headers of public/_headers (CSP with
 * frame-ancestors 'none', X-Frame-Options DENY, nosniff, Referrer-Policy), connect-src names only the project, only
 * the inline scripts the site authors are hashed, the site and the admin still work in Chromium under that CSP (no
 * violations), an unhashed inline script does not run, and the admin also works from its own origin under its own
 * policy (how production serves it).
 */
import fs from 'node:fs'
import type http from 'node:http'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { adminTarget, buildIfChanged } from '../../scripts/lib/build.ts'
import { adminHeadersFile } from '../../scripts/lib/deploy/host-config.ts'
import { freePort } from '../../supabase/local/postgres.ts'
import { startStaticServer } from '../../supabase/local/static-server.ts'
import { waitForIsland } from '../e2e/site-support.ts'
import { authenticatorCode, createTestUser, deleteTestUser, TEST_PASSWORD } from '../e2e/support.ts'
import { rootDir } from '../support/test-stack.ts'

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

test('connect-src names only the site and its own project, and every inline script a page runs is hashed', async ({
  page,
}) => {
  const project = new URL(process.env.TEST_SUPABASE_URL!).origin
  const response = await page.goto('/')
  const policy = response!.headers()['content-security-policy']!
  expect(/connect-src ([^;]*)/.exec(policy)![1]!.trim()).toBe(`'self' ${project}`)
  expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/)
  expect(policy).not.toContain('*.supabase.co')
  const hashes = new Set(
    /script-src ([^;]*)/
      .exec(policy)![1]!
      .split(' ')
      .filter((source) => source.startsWith("'sha256-")),
  )
  for (const path of ['/', '/blog', '/auth', '/no-such-page']) {
    await page.goto(path)
    const inline = await page
      .locator('script:not([src])')
      .evaluateAll((scripts) =>
        scripts
          .filter((script) => ['', 'module', 'text/javascript'].includes(script.getAttribute('type') ?? ''))
          .map((script) => script.textContent ?? ''),
      )
    for (const text of inline) {
      const digest = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString(
        'base64',
      )
      expect(hashes.has(`'sha256-${digest}'`), `${path}: ${text.slice(0, 60)}`).toBe(true)
    }
  }
})

test('the admin served from its own origin signs in under its own policy and links to the public site', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000)
  const email = await createTestUser('e2e-admin-origin', { admin: true })
  const dir = fs.mkdtempSync(path.join(rootDir, 'dist', '.admin-origin-'))
  const project = new URL(process.env.TEST_SUPABASE_URL!).origin
  let server: http.Server | undefined
  try {
    // the admin as `npm run build:deploy -- --admin` builds it: links to the public site by its URL
    const admin = { ...adminTarget, outDir: path.join(dir, 'admin') }
    await buildIfChanged(
      admin,
      {
        PUBLIC_SUPABASE_URL: process.env.TEST_SUPABASE_URL!,
        PUBLIC_SUPABASE_ANON_KEY: process.env.TEST_SUPABASE_ANON_KEY!,
        PUBLIC_SITE_URL: baseURL!,
      },
      true,
    )
    const origin = path.join(dir, 'origin')
    fs.mkdirSync(origin)
    fs.writeFileSync(path.join(origin, '_headers'), adminHeadersFile(project))
    const port = await freePort()
    server = await startStaticServer({ port, siteDir: () => origin, adminDir: admin.outDir })
    const adminOrigin = `http://127.0.0.1:${port}`
    expect(adminOrigin).not.toBe(new URL(baseURL!).origin)

    const violations = collectViolations(page)
    const response = await page.goto(`${adminOrigin}/admin/login`)
    expect(response!.headers()['content-security-policy']).toBe(
      /Content-Security-Policy: (.*)/.exec(adminHeadersFile(project))![1],
    )
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Access Admin Dashboard' }).click()
    await page.getByLabel('Authentication code').fill(await authenticatorCode(email))
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL(new RegExp(`^${adminOrigin}/admin/?$`))
    await expect(page.getByRole('link', { name: 'View Site' })).toHaveAttribute('href', `${baseURL}/`)
    await page.waitForLoadState('networkidle')
    expect(violations).toEqual([])
    // the session lives on the admin's origin only: the public site's pages cannot read it
    await page.goto('/')
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('auth')))).toEqual([])
  } finally {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve) ?? resolve(null))
    fs.rmSync(dir, { recursive: true, force: true })
    await deleteTestUser(email)
  }
})
