/**
 * An agent claims their profile and completes it: a visitor signs up, opens a demo agent's profile, claims it with
 * the license number and the code mailed to the email on the agent's MLS record (the stack's mailbox), writes a bio
 * and specialties, and the live profile shows them, with "Claimed by the agent on <date>", after the data-change
 * rebuild. A second account's claim of the same profile is refused with the rule in words.
 */
import type { Page } from '@playwright/test'
import { createAgents, makeSales, unusedZip, waitForAgentPage } from './agent-fixtures.ts'
import { expect, sql, test, TEST_PASSWORD } from './support.ts'
import { waitForIsland } from './site-support.ts'

/** Rebuilds take up to a minute on a busy machine; the poll allows two back to back. */
const LIVE_TIMEOUT_MS = 150_000

const suffix = Date.now().toString(36)
const agentEmail = `claim-agent-${suffix}@example.com`
const license = `MA-CL-${suffix.toUpperCase()}`
let zip = ''
let fixture: Awaited<ReturnType<typeof createAgents>>

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000)
  zip = await unusedZip()
  fixture = await createAgents(zip, [
    { name: `Casey Claimant ${suffix}`, email: agentEmail, licenseNumber: license, sales: makeSales('Claim', 4) },
  ])
  await waitForAgentPage(baseURL!, fixture.agents[0]!.id)
})

test.afterAll(async () => {
  await fixture.remove()
})

type MailboxMessage = { subject: string; text_body: string | null; html_body: string | null }

/** The messages the local mailbox holds for `address`, newest last. */
async function mailFor(address: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${process.env.TEST_MAILBOX_URL}/api/v1/messages?to=${encodeURIComponent(address)}`)
  expect(response.status).toBe(200)
  return (await response.json()) as MailboxMessage[]
}

/** Waits for the claim code mailed to the agent's MLS email. */
async function claimCode(): Promise<string> {
  let code: string | undefined
  await expect
    .poll(
      async () => {
        const messages = await mailFor(agentEmail)
        const mail = messages.findLast((message) => message.subject === 'Your AgentInsight profile claim code')
        code = /Your code: (\d{6})/.exec(mail?.text_body ?? '')?.[1]
        return code
      },
      { timeout: 15_000 },
    )
    .toMatch(/^\d{6}$/)
  return code!
}

/** Signs up through /auth and, when the project asks for a confirmed email, follows the mailed link. */
async function signUp(page: Page, email: string) {
  await page.goto('/auth')
  await waitForIsland(page, 'AuthCard')
  await page.getByRole('tab', { name: 'Sign Up' }).click()
  const main = page.getByRole('main')
  await main.getByRole('textbox', { name: 'Full name' }).fill('Casey Claimant')
  await main.getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByLabel('Password').fill(TEST_PASSWORD)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page.getByRole('status').filter({ hasText: /^Account created successfully!/ })).toBeVisible()
  const deadline = Date.now() + 5_000
  let link: string | null = null
  while (!link && Date.now() < deadline) {
    for (const message of await mailFor(email)) {
      const body = `${message.html_body ?? ''} ${message.text_body ?? ''}`
      link = /https?:\/\/[^\s"'<>]+\/auth\/v1\/verify\?[^\s"'<>]+/.exec(body)?.[0]?.replace(/&amp;/g, '&') ?? link
    }
    if (!link) await new Promise((resolve) => setTimeout(resolve, 250))
  }
  if (link) {
    // the auth service redirects to its Site URL with a one-time PKCE code; open the same query on this site
    const verify = await fetch(link, { redirect: 'manual' })
    const target = new URL(verify.headers.get('location')!)
    await page.goto(`/${target.search}${target.hash}`)
  }
  await page.waitForURL((url) => url.pathname === '/')
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })).toBeVisible()
}

/** Signs in through /auth, then opens `path`. */
async function signIn(page: Page, email: string, path: string) {
  await page.goto('/auth')
  await waitForIsland(page, 'AuthCard')
  await page.getByRole('main').getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByLabel('Password').fill(TEST_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })).toBeVisible({ timeout: 20_000 })
  await page.goto(path)
}

test('sign up, claim a demo agent with the mailed code, edit bio and specialties, and the live profile shows them', async ({
  page,
  request,
  newEmail,
  browser,
  userEmail,
}) => {
  test.setTimeout(LIVE_TIMEOUT_MS + 120_000)
  const agent = fixture.agents[0]!
  await signUp(page, newEmail)

  // the profile offers the claim; the claim page checks the license number and mails a code to the MLS email
  await page.goto(`/agent/${agent.id}`)
  await expect(page.getByTestId('claim-status')).not.toContainText('Claimed by the agent')
  await page.getByRole('link', { name: 'Are you this agent? Claim this profile' }).click()
  await expect(page).toHaveURL(`/account/claim?agent=${agent.id}`)
  await expect(page.getByRole('heading', { name: 'Claim your agent profile' })).toBeVisible()
  await page.getByRole('textbox', { name: 'License number' }).fill('MA-000000')
  await page.getByRole('button', { name: 'Email me a code' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    "That license number does not match the one on this agent's MLS record.",
  )
  await page.getByRole('textbox', { name: 'License number' }).fill(license.toLowerCase().replace('-', ' '))
  await page.getByRole('button', { name: 'Email me a code' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'We emailed a code to' })).toContainText(`c•••@example.com`)
  await page.getByRole('textbox', { name: 'Code from the email' }).fill(await claimCode())
  await page.getByRole('button', { name: 'Confirm the claim' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'The profile is yours.' })).toBeVisible()

  // the owner writes a bio and specialties; tags are stored as plain text
  await page.getByRole('link', { name: 'Complete your profile' }).click()
  await expect(page).toHaveURL('/account/agent')
  const bio = `Casey has sold homes in ${zip} for twelve years. <b>Fluent</b> in local schools.`
  await page.getByRole('textbox', { name: 'Bio' }).fill(bio)
  await page.getByRole('textbox', { name: 'Specialties' }).fill('First-time buyers\nCondos, first-time buyers')
  await page.getByRole('button', { name: 'Save profile' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Bio' })).toHaveValue(
    `Casey has sold homes in ${zip} for twelve years. Fluent in local schools.`,
  )
  await expect(page.getByRole('textbox', { name: 'Specialties' })).toHaveValue('First-time buyers\nCondos')

  // the data-change webhook rebuilds the site; the prerendered profile shows the owner's words
  await expect
    .poll(
      async () => {
        const response = await request.get(`/agent/${agent.id}`)
        return (await response.text()).includes('Fluent in local schools.')
      },
      { timeout: LIVE_TIMEOUT_MS, intervals: [1_000, 2_000] },
    )
    .toBe(true)
  await page.goto(`/agent/${agent.id}`)
  const about = page.getByRole('region', { name: `About ${agent.name}` })
  await expect(about).toContainText(`Casey has sold homes in ${zip} for twelve years. Fluent in local schools.`)
  await expect(about.getByRole('list', { name: 'Specialties' }).getByRole('listitem')).toHaveText([
    'First-time buyers',
    'Condos',
  ])
  const [claimed] = await sql<{ day: string }>(
    `select to_char(claimed_at at time zone 'UTC', 'Mon FMDD, YYYY') as day from public.agents where id = $1`,
    [agent.id],
  )
  await expect(page.getByTestId('claim-status')).toHaveText(`Claimed by the agent on ${claimed!.day}`)
  await expect(page.getByRole('link', { name: 'Are you this agent? Claim this profile' })).toHaveCount(0)

  // a second account cannot claim the same profile, and is told why
  const other = await browser.newContext()
  const otherPage = await other.newPage()
  await signIn(otherPage, userEmail, `/account/claim?agent=${agent.id}`)
  await otherPage.getByRole('textbox', { name: 'License number' }).fill(license)
  await otherPage.getByRole('button', { name: 'Email me a code' }).click()
  await expect(otherPage.getByRole('alert')).toHaveText(
    'This profile has already been claimed by another account. If you are this agent, ask for a review and we will check it by hand.',
  )
  await other.close()
  const owners = await sql<{ email: string }>(
    `select u.email from public.agent_claims c join auth.users u on u.id = c.user_id
      where c.agent_id = $1 and c.status = 'approved'`,
    [agent.id],
  )
  expect(owners).toEqual([{ email: newEmail }])
})
