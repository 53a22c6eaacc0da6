/**
 * The pages a visitor reads before trusting the site with their data: /privacy, /terms and /contact are prebuilt,
 * linked from every page's footer, and pass axe with no violations; the contact form lands in the CRM as its own lead
 * type; the unsubscribe page asks before it unsubscribes and can undo it; the sign-up form states the one password
 * policy.
 */
import AxeBuilder from '@axe-core/playwright'
import { CONTACT_SENT_MESSAGE } from '@shared/contact.ts'
import { PASSWORD_MIN_LENGTH, PASSWORD_RULE_TEXT } from '@shared/password-policy.ts'
import { RESUBSCRIBED_MESSAGE, UNSUBSCRIBED_MESSAGE } from '@shared/unsubscribe.ts'
import { waitForIsland } from './site-support.ts'
import { expect, signInAsAdmin, sql, test } from './support.ts'

const policyPages = [
  { path: '/privacy', heading: 'Privacy policy', footer: 'Privacy' },
  { path: '/terms', heading: 'Terms of use', footer: 'Terms' },
  { path: '/contact', heading: 'Contact us', footer: 'Contact' },
]

test('privacy, terms and contact are prebuilt pages, linked from the footer', async ({ page, baseURL }) => {
  for (const { path, heading, footer } of policyPages) {
    // prebuilt: the heading is in the HTML the server sends, before any script runs
    const html = await (await fetch(`${baseURL}${path}`)).text()
    expect(html, path).toContain(`>${heading}</h1>`)
    await page.goto('/about')
    await page
      .getByRole('contentinfo')
      .getByRole('navigation', { name: 'Legal', exact: true })
      .getByRole('link', { name: footer, exact: true })
      .click()
    await expect(page).toHaveURL(`${baseURL}${path}`)
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
  }
  const sitemap = await (await fetch(`${baseURL}/sitemap.xml`)).text()
  for (const { path } of policyPages) expect(sitemap).toContain(`${path}</loc>`)
})

test('axe finds no violations on the policy, contact, account, unsubscribe and confirmation pages', async ({
  page,
}) => {
  test.setTimeout(120_000)
  for (const path of [...policyPages.map((entry) => entry.path), '/account', '/unsubscribe', '/newsletter/confirm']) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    const { violations } = await new AxeBuilder({ page }).analyze()
    expect(
      violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      ),
      path,
    ).toEqual([])
  }
})

test('a contact message is stored as a contact lead and shows as one in the CRM', async ({ page, adminEmail }) => {
  const name = `Cora Contact ${Date.now().toString(36)}`
  const email = `e2e-contact-${Date.now()}@example.com`
  await page.goto('/contact')
  await waitForIsland(page, 'ContactForm')
  const form = page.getByRole('main')
  await form.getByRole('button', { name: 'Send message' }).click()
  await expect(form.getByText('Please enter your name')).toBeVisible()
  await expect(form.getByRole('textbox', { name: 'Your name' })).toBeFocused()
  await form.getByRole('textbox', { name: 'Your name' }).fill(name)
  await form.getByRole('textbox', { name: 'Email' }).fill(email)
  await form.getByRole('textbox', { name: 'Message' }).fill('Does the report cover\nbuyer-side sales too?')
  await expect(form.getByRole('link', { name: 'Privacy policy', exact: true })).toHaveAttribute('href', '/privacy')
  await form.getByRole('button', { name: 'Send message' }).click()
  await expect(form.getByRole('status')).toContainText(CONTACT_SENT_MESSAGE)
  expect(
    await sql(`select lead_type, message, source_page from public.report_requests where email = $1`, [email]),
  ).toEqual([
    { lead_type: 'contact', message: 'Does the report cover\nbuyer-side sales too?', source_page: '/contact' },
  ])

  await signInAsAdmin(page, adminEmail)
  await page.goto(`/admin/crm?q=${encodeURIComponent(name)}`)
  const row = page.getByRole('row').filter({ hasText: name })
  await expect(row).toContainText('Contact message')
  await expect(row).toContainText('Contact form')
  await row.getByRole('button', { name: `View details for ${name}` }).click()
  const details = page.getByRole('dialog', { name: 'Lead Details' })
  await expect(details).toContainText(`Contact message from ${name}`)
  await expect(details).toContainText('Does the report cover')
  await sql(`delete from public.report_requests where email = $1`, [email])
})

test('the unsubscribe page asks first, unsubscribes with the button, and can turn emails back on', async ({ page }) => {
  const email = `e2e-unsubscribe-${Date.now()}@example.com`
  const response = await fetch(`${process.env.TEST_SUPABASE_URL}/functions/v1/newsletter-subscribe`, {
    method: 'POST',
    headers: { apikey: process.env.TEST_SUPABASE_ANON_KEY!, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  })
  expect(response.status).toBe(202)
  const [mail] = await (
    await fetch(`${process.env.TEST_MAILBOX_URL}/api/v1/messages?to=${encodeURIComponent(email)}`)
  ).json()
  const token = /\/unsubscribe\?token=([0-9a-f.]+)/.exec(mail.text_body)![1]!
  const suppressed = () =>
    sql(`select 1 from public.email_suppressions where email_hash = public.email_hash($1)`, [email])

  await page.goto(`/unsubscribe?token=${token}`)
  await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible()
  expect(await suppressed()).toEqual([])
  await page.getByRole('button', { name: 'Unsubscribe' }).click()
  await expect(page.getByRole('main').getByRole('status')).toHaveText(UNSUBSCRIBED_MESSAGE)
  expect(await suppressed()).toHaveLength(1)
  await page.getByRole('button', { name: 'Turn emails back on' }).click()
  await expect(page.getByRole('main').getByRole('status')).toHaveText(RESUBSCRIBED_MESSAGE)
  expect(await suppressed()).toEqual([])
  await sql(`delete from public.newsletter_subscriptions where email = $1`, [email])
})

test('the sign-up form states the one password policy', async ({ page }) => {
  await page.goto('/auth')
  await waitForIsland(page, 'AuthCard')
  await page.getByRole('tab', { name: 'Sign Up' }).click()
  const password = page.getByLabel('Password')
  await expect(password).toHaveAttribute('minlength', String(PASSWORD_MIN_LENGTH))
  await expect(page.getByText(PASSWORD_RULE_TEXT)).toBeVisible()
  await expect(page.getByText('At least 6 characters')).toHaveCount(0)
})
