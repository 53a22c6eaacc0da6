/**
 * Email hygiene, against the local mailbox: the newsletter confirmation link opens a page and only a POST of its
 * token confirms; every mail carries an unsubscribe link and the RFC 8058 one-click headers; a mail client's
 * one-click POST (form-encoded, no credentials) unsubscribes; an unsubscribed address gets no newsletter and no
 * report, until the token's owner undoes it.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  NEWSLETTER_ALREADY_CONFIRMED_MESSAGE,
  NEWSLETTER_CHECK_INBOX,
  NEWSLETTER_CONFIRMED_MESSAGE,
  NEWSLETTER_LINK_INVALID,
} from '@shared/newsletter.ts'
import {
  RESUBSCRIBED_MESSAGE,
  UNSUBSCRIBED_MESSAGE,
  UNSUBSCRIBE_INVALID_MESSAGE,
  emailHash,
} from '@shared/unsubscribe.ts'
import type { MailMessage } from '../../supabase/local/mailbox.ts'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { mailTo, signedInClient, sql, testEnv, uniqueEmail } from '../support/env.ts'
import { daysFromNow, testData } from '../support/factories.ts'
import { waitFor } from '../support/wait-for.ts'

const fn = (slug: string) => `${testEnv.url}/functions/v1/${slug}`

/** POSTs JSON to a public function with the anon key, from a fresh loopback address (its own rate-limit bucket). */
function callPublic(slug: string, body: unknown) {
  return fetchFrom(freshLoopback(), fn(slug), {
    method: 'POST',
    headers: {
      apikey: testEnv.anonKey,
      Authorization: `Bearer ${testEnv.anonKey}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  })
}

/** The newest mail to `address` whose subject contains `subject`. */
function mailWith(address: string, subject: string): Promise<MailMessage> {
  return waitFor(
    async () => (await mailTo(address)).find((mail) => mail.subject.includes(subject)),
    `a mail "${subject}"`,
  )
}

/** The unsubscribe token of a mail, read from its List-Unsubscribe header (and the same in its footer link). */
function unsubscribeTokenOf(mail: MailMessage): string {
  const header = mail.headers?.['List-Unsubscribe'] ?? ''
  const token = /^<https?:\/\/[^>]+\/functions\/v1\/unsubscribe\?token=([0-9a-f]{64}\.[0-9a-f]{64})>$/.exec(header)?.[1]
  expect(token, `List-Unsubscribe of "${mail.subject}": ${header}`).toBeDefined()
  return token!
}

/** Signs `address` up and confirms it through the POST the /newsletter/confirm page sends. */
async function subscribe(address: string): Promise<void> {
  expect((await callPublic('newsletter-subscribe', { email: address })).status).toBe(202)
  const mail = await mailWith(address, 'Confirm your Agent Insight newsletter subscription')
  const token = /\/newsletter\/confirm\?token=([0-9a-f]{64})/.exec(mail.text_body ?? '')![1]!
  expect((await callPublic('newsletter-subscribe', { token })).status).toBe(200)
}

/** Sends a live post as the newsletter, as an administrator. */
async function sendNewsletter(adminToken: string, postId: string) {
  const response = await fetch(fn('send-newsletter'), {
    method: 'POST',
    headers: { apikey: testEnv.anonKey, Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ post_id: postId }),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as { recipients: number; sent: number; suppressed: number; failed: number }
}

let adminToken = ''
let adminEmail = ''
let postId = ''
const postTitle = `Newsletter test ${Date.now().toString(36)}`

const data = testData('account-email')

beforeAll(async () => {
  const admin = await signedInClient({ admin: true })
  adminEmail = admin.email
  // the stack points the webhook at its own port at start; set it again in case another test file changed it
  await sql(`select private.configure_webhook('new_lead', $1)`, [fn('notify-new-lead')])
  adminToken = (await admin.client.auth.getSession()).data.session!.access_token
  // published long ago, so it never ranks among the newest posts a browser test looks for
  postId = await data.post({
    title: postTitle,
    slug: data.slug('newsletter-test'),
    excerpt: 'What the spring market means for sellers.',
    status: 'published',
    publishedAt: daysFromNow(-500),
  })
  return () => data.cleanup()
})

describe('newsletter confirmation', () => {
  it('mails a link to the site page; opening a link confirms nothing, the POST of its token does, once', async () => {
    const address = uniqueEmail('news-confirm')
    const answer = await callPublic('newsletter-subscribe', { email: address })
    expect(answer.status).toBe(202)
    expect(await answer.json()).toEqual({ message: NEWSLETTER_CHECK_INBOX })
    const mail = await mailWith(address, 'Confirm your Agent Insight newsletter subscription')
    const link = /https?:\/\/\S+\/newsletter\/confirm\?token=([0-9a-f]{64})/.exec(mail.text_body ?? '')
    expect(link, mail.text_body ?? '').not.toBeNull()
    expect(mail.html_body).toContain(`/newsletter/confirm?token=${link![1]}`)

    // what a mail scanner does: GET the function with the token, the old way in; nothing is confirmed
    const scanned = await fetch(`${fn('newsletter-subscribe')}?token=${link![1]}`, { redirect: 'manual' })
    expect(scanned.status).toBe(405)
    const unconfirmed = await sql(`select confirmed_at from public.newsletter_subscriptions where email = $1`, [
      address,
    ])
    expect(unconfirmed).toEqual([{ confirmed_at: null }])

    const confirmed = await callPublic('newsletter-subscribe', { token: link![1] })
    expect(confirmed.status).toBe(200)
    expect(await confirmed.json()).toEqual({ outcome: 'confirmed', message: NEWSLETTER_CONFIRMED_MESSAGE })
    const again = await callPublic('newsletter-subscribe', { token: link![1] })
    expect(await again.json()).toEqual({ outcome: 'already_confirmed', message: NEWSLETTER_ALREADY_CONFIRMED_MESSAGE })
    expect(await sql(`select 1 from public.newsletter_recipients where email = $1`, [address])).toHaveLength(1)

    const unknown = await callPublic('newsletter-subscribe', { token: 'a'.repeat(64) })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ error: NEWSLETTER_LINK_INVALID })
    const malformed = await callPublic('newsletter-subscribe', { token: 'nope' })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toEqual({
      error: 'token must be the code from the confirmation link',
      errors: { token: 'token must be the code from the confirmation link' },
    })
  })
})

describe('unsubscribing', () => {
  it('puts an unsubscribe link and the one-click headers in every mail: confirmation, newsletter, report, notice', async () => {
    const address = uniqueEmail('news-headers')
    await subscribe(address)
    const summary = await sendNewsletter(adminToken, postId)
    expect(summary.sent).toBeGreaterThanOrEqual(1)
    const marker = `Headers ${Date.now().toString(36)}`
    const agentId = await data.agent({ name: marker })
    const report = await callPublic('request-report', { full_name: marker, email: address, agent_id: agentId })
    expect(report.status).toBe(201)

    await mailWith(address, postTitle)
    // the request's own mail to the visitor (the report, or the confirmation asked for first) and the operators' notice
    const mails = await waitFor(async () => {
      const all = await mailTo(address)
      return all.length >= 3 ? all : undefined
    }, 'the request mail')
    // the operators' notice: fixed subject, the lead's name in the body
    mails.push(
      await waitFor(
        async () => (await mailTo(adminEmail)).find((mail) => mail.text_body?.includes(marker)),
        'the operators notice',
      ),
    )
    for (const mail of mails) {
      const recipient = mail.recipients[0]!
      const token = unsubscribeTokenOf(mail)
      expect(mail.recipients, mail.subject).toHaveLength(1)
      expect(mail.headers?.['List-Unsubscribe-Post'], mail.subject).toBe('List-Unsubscribe=One-Click')
      expect(mail.text_body).toContain(
        `Unsubscribe from all our emails: http://localhost:4321/unsubscribe?token=${token}`,
      )
      expect(mail.html_body).toContain(`<a href="http://localhost:4321/unsubscribe?token=${token}">Unsubscribe</a>`)
      // the token names this recipient's address only
      expect(token.split('.')[0]).toBe(await emailHash(recipient))
    }
    expect(mails.find((mail) => mail.subject.includes(postTitle))!.text_body).toContain(
      'What the spring market means for sellers.',
    )
    await sql(`delete from public.report_requests where email = $1`, [address])
  })

  it('a mail client’s one-click POST unsubscribes without credentials; the address then gets no newsletter', async () => {
    const stays = uniqueEmail('news-stays')
    const leaves = uniqueEmail('news-leaves')
    await subscribe(stays)
    await subscribe(leaves)
    const token = unsubscribeTokenOf(await mailWith(leaves, 'Confirm your Agent Insight newsletter subscription'))

    // RFC 8058: POST the header's URL with the form body, no cookies, no Authorization, no apikey
    const headerUrl = `${fn('unsubscribe')}?token=${token}`
    const oneClick = await fetch(headerUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      redirect: 'manual',
    })
    expect(oneClick.status).toBe(200)
    expect(await oneClick.json()).toEqual({ status: 'unsubscribed', message: UNSUBSCRIBED_MESSAGE })
    expect(
      await sql(`select source from public.email_suppressions where email_hash = public.email_hash($1)`, [leaves]),
    ).toEqual([{ source: 'one_click' }])
    expect(await sql(`select 1 from public.newsletter_subscriptions where email = $1`, [leaves])).toEqual([])

    // even if the address is on the list again (say, an import), the sender leaves it out
    await sql(`insert into public.newsletter_subscriptions (email, confirmed_at) values ($1, now())`, [leaves])
    const before = (await mailTo(leaves)).length
    const summary = await sendNewsletter(adminToken, postId)
    expect(summary.suppressed).toBeGreaterThanOrEqual(1)
    await mailWith(stays, postTitle)
    expect(await mailTo(leaves)).toHaveLength(before)
    expect((await mailTo(leaves)).some((mail) => mail.subject.includes(postTitle))).toBe(false)
    await sql(`delete from public.newsletter_subscriptions where email = $1`, [leaves])
  })

  it('an unsubscribed address gets no report mail either; the request records why', async () => {
    const address = uniqueEmail('report-suppressed')
    await sql(`insert into public.email_suppressions (email_hash, source) values (public.email_hash($1), 'link')`, [
      address.toUpperCase(),
    ])
    const marker = `Suppressed ${Date.now().toString(36)}`
    const agentId = await data.agent({ name: marker })
    // the lead is kept; the visitor is told the mail could not be sent
    expect((await callPublic('request-report', { full_name: marker, email: address, agent_id: agentId })).status).toBe(
      502,
    )
    const [lead] = await waitFor(async () => {
      const rows = await sql<{ report_error: string | null }>(
        `select report_error from public.report_requests where email = $1 and report_error is not null`,
        [address],
      )
      return rows.length ? rows : undefined
    }, 'the recorded delivery outcome')
    expect(lead!.report_error).toContain('The recipient unsubscribed from our emails, so nothing was sent.')
    expect(await mailTo(address)).toEqual([])
    await sql(`delete from public.report_requests where email = $1`, [address])
  })

  it('the footer link’s page unsubscribes with a JSON POST and can undo it with the same token', async () => {
    const address = uniqueEmail('news-undo')
    await subscribe(address)
    const token = unsubscribeTokenOf(await mailWith(address, 'Confirm your Agent Insight newsletter subscription'))

    // opening the header URL (a person, or a scanner following links) only leads to the page
    const opened = await fetch(`${fn('unsubscribe')}?token=${token}`, { redirect: 'manual' })
    expect(opened.status).toBe(303)
    expect(opened.headers.get('location')).toBe(`http://localhost:4321/unsubscribe?token=${token}`)
    expect(
      await sql(`select 1 from public.email_suppressions where email_hash = public.email_hash($1)`, [address]),
    ).toEqual([])

    const unsubscribed = await callPublic('unsubscribe', { token })
    expect(await unsubscribed.json()).toEqual({ status: 'unsubscribed', message: UNSUBSCRIBED_MESSAGE })
    expect(
      await sql(`select source from public.email_suppressions where email_hash = public.email_hash($1)`, [address]),
    ).toEqual([{ source: 'link' }])

    const undone = await callPublic('unsubscribe', { token, action: 'resubscribe' })
    expect(await undone.json()).toEqual({ status: 'resubscribed', message: RESUBSCRIBED_MESSAGE })
    expect(
      await sql(`select 1 from public.email_suppressions where email_hash = public.email_hash($1)`, [address]),
    ).toEqual([])
  })

  it('refuses a token that was not made with our secret, naming the field', async () => {
    const forged = `${await emailHash('someone@example.com')}.${'0'.repeat(64)}`
    const answer = await callPublic('unsubscribe', { token: forged })
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({
      error: UNSUBSCRIBE_INVALID_MESSAGE,
      errors: { token: UNSUBSCRIBE_INVALID_MESSAGE },
    })
    expect(
      await sql(`select 1 from public.email_suppressions where email_hash = public.email_hash('someone@example.com')`),
    ).toEqual([])
  })
})
