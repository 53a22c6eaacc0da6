/**
 * No one can use the site to mail strangers: a report is mailed only to an address its owner confirmed, the
 * confirmation itself is a fixed text, per-mailbox limits fold the spellings that reach one inbox (case, +tags,
 * Gmail dots), and no mail we send opens with words a visitor wrote. Each case is named after the rule it guards and
 * drives the public functions over plain HTTP from its own loopback address, reading what arrived in the local
 * mailbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EMAIL_LIMIT_PER_HOUR,
  IP_LIMIT_PER_HOUR,
  LINK_EXPIRED_MESSAGE,
  LINK_INVALID_MESSAGE,
  RATE_LIMIT_MESSAGE,
  REPORT_SENT_MESSAGE,
} from '@shared/report-request-contract.ts'
import {
  NEWSLETTER_CHECK_INBOX,
  NEWSLETTER_EMAIL_LIMIT_PER_HOUR,
  NEWSLETTER_RATE_LIMIT_MESSAGE,
} from '@shared/newsletter.ts'
import type { MailMessage } from '../../supabase/local/mailbox.ts'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { mailTo, signedInClient, sql, testEnv, uniqueEmail } from '../support/env.ts'
import { refreshAgentMetrics, testData } from '../support/factories.ts'
import { waitFor } from '../support/wait-for.ts'

const data = testData('mail-abuse')
const run = Date.now().toString(36)
const CONFIRMATION_SUBJECT = 'Confirm your email to receive your AgentInsight report'
let agentId = ''
let agentName = ''

beforeAll(async () => {
  agentName = `Mailabuse Agent ${run}`
  const place = { city: 'Mailton', state: 'MA', zip: await data.zip() }
  agentId = await data.agent({ name: agentName, ...place })
  await data.sales(
    [1, 2, 3].map((g) => ({
      agentId,
      address: `${g} Mail St`,
      ...place,
      listPrice: 500000,
      salePrice: 505000,
      daysAgo: g * 7,
      daysOnMarket: 20,
    })),
  )
  await refreshAgentMetrics()
})

afterAll(() => data.cleanup())

function post(slug: string, body: unknown, from = freshLoopback(), headers: Record<string, string> = {}) {
  return fetchFrom(from, `${testEnv.url}/functions/v1/${slug}`, {
    method: 'POST',
    headers: {
      apikey: testEnv.anonKey,
      Authorization: `Bearer ${testEnv.anonKey}`,
      'Content-Type': 'application/json',
      ...headers,
    },
    body: JSON.stringify(body),
  })
}

const requestReport = (fields: Record<string, unknown>, from?: string, headers?: Record<string, string>) =>
  post(
    'request-report',
    { agent_id: agentId, agent_name: agentName, agent_location: 'Mailton, MA', ...fields },
    from,
    headers,
  )

const isReport = (message: MailMessage) => (message.attachments?.length ?? 0) > 0
const firstLine = (message: MailMessage) => (message.text_body ?? '').split('\n')[0]

/** Waits until the new-lead webhook of every lead to these addresses was delivered (the function has answered). */
async function webhooksDone(emails: string[]): Promise<void> {
  await waitFor(async () => {
    const [pending] = await sql<{ n: number }>(
      `select count(*)::int as n from net.http_request_queue where body -> 'record' ->> 'email' = any($1::text[])`,
      [emails],
    )
    return pending!.n === 0 ? true : undefined
  }, 'the new-lead webhooks')
}

/** The token of the confirmation link mailed to `email`. */
async function confirmationToken(email: string): Promise<string> {
  const mail = await waitFor(
    async () => (await mailTo(email)).find((message) => message.subject === CONFIRMATION_SUBJECT),
    'the confirmation email',
  )
  return /\/report\/confirm\?token=([0-9a-f]{64})/.exec(mail.text_body ?? '')![1]!
}

describe('reports go only to confirmed addresses', () => {
  it('twenty report requests to twenty Gmail dot-variants of one mailbox send at most 3 confirmations and no report', async () => {
    const local = `mailabuse${run.replace(/[^a-z]/g, 'x')}`
    const variants = Array.from({ length: 20 }, (_, index) => {
      const cut = 1 + (index % (local.length - 1))
      const dotted = `${local.slice(0, cut)}.${local.slice(cut)}`
      return `${index % 2 ? dotted.toUpperCase() : dotted}${index >= 10 ? `+r${index}` : ''}@${index % 3 ? 'gmail.com' : 'googlemail.com'}`
    })
    expect(new Set(variants).size).toBe(20)
    const statuses: number[] = []
    // each from its own address, so only the per-mailbox limit can stop them
    for (const email of variants) statuses.push((await requestReport({ full_name: 'Dot Variant', email })).status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(EMAIL_LIMIT_PER_HOUR)
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - EMAIL_LIMIT_PER_HOUR)
    await webhooksDone(variants)

    const mail = [
      ...new Map((await Promise.all(variants.map((email) => mailTo(email)))).flat().map((m) => [m.id, m])).values(),
    ]
    expect(mail.filter((message) => message.subject === CONFIRMATION_SUBJECT).length).toBeLessThanOrEqual(3)
    expect(mail.filter(isReport)).toEqual([])
  })

  it('the confirmation email carries no agent data and nothing the visitor typed', async () => {
    const email = uniqueEmail('confirm-text')
    const words = { full_name: 'Click https://evil.example/prize now', property_address: 'Wire 500 USD to evil' }
    expect((await requestReport({ ...words, email, phone: '+1 617 555 0101' })).status).toBe(201)
    const [message] = await mailTo(email)
    expect(message!.subject).toBe(CONFIRMATION_SUBJECT)
    expect(firstLine(message!)).toBe('Hello,')
    for (const body of [message!.subject, message!.text_body ?? '', message!.html_body ?? '']) {
      for (const typed of [...Object.values(words), '617 555', 'evil.example', agentName, 'Mailton'])
        expect(body, typed).not.toContain(typed)
    }
    expect(message!.text_body).toMatch(/^http:\/\/localhost:4321\/report\/confirm\?token=[0-9a-f]{64}$/m)
    expect(message!.attachments ?? []).toEqual([])
  })

  it('the report is mailed only after the link is confirmed, and only once', async () => {
    const email = uniqueEmail('confirm-flow')
    expect(await (await requestReport({ full_name: 'Pat Confirm', email })).json()).toEqual({
      ok: true,
      delivery: 'confirmation',
    })
    await webhooksDone([email])
    expect((await mailTo(email)).filter(isReport)).toEqual([])
    expect(
      await sql(`select email_confirmed_at, report_sent_at from public.report_requests where email = $1`, [email]),
    ).toEqual([{ email_confirmed_at: null, report_sent_at: null }])

    const token = await confirmationToken(email)
    const confirmed = await post('confirm-report', { token })
    expect(confirmed.status).toBe(200)
    expect(await confirmed.json()).toEqual({ status: 'sent', message: REPORT_SENT_MESSAGE })
    const report = (await mailTo(email)).find(isReport)!
    expect(report.subject).toBe(`Your AgentInsight report: ${agentName}`)
    expect(
      await sql(
        `select email_confirmed_via, report_sent_at is not null as sent from public.report_requests where email = $1`,
        [email],
      ),
    ).toEqual([{ email_confirmed_via: 'link', sent: true }])

    const again = await post('confirm-report', { token })
    expect((await again.json()).status).toBe('already_confirmed')
    expect((await mailTo(email)).filter(isReport)).toHaveLength(1)
  })

  it('an unknown or expired confirmation link mails nothing', async () => {
    const unknown = await post('confirm-report', { token: 'ab'.repeat(32) })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ error: LINK_INVALID_MESSAGE })

    const email = uniqueEmail('confirm-expired')
    expect((await requestReport({ full_name: 'Late Clicker', email })).status).toBe(201)
    const token = await confirmationToken(email)
    await sql(`update public.report_requests set confirmation_sent_at = now() - interval '49 hours' where email = $1`, [
      email,
    ])
    const expired = await post('confirm-report', { token })
    expect(expired.status).toBe(410)
    expect(await expired.json()).toEqual({ error: LINK_EXPIRED_MESSAGE })
    expect((await mailTo(email)).filter(isReport)).toEqual([])
  })

  it('a signed-in visitor whose confirmed account email is that mailbox gets the report at once; another address gets a confirmation', async () => {
    const { client, email } = await signedInClient()
    const { data } = await client.auth.getSession()
    const asVisitor = { Authorization: `Bearer ${data.session!.access_token}` }
    const own = await requestReport({ full_name: 'Signed In', email: email.toUpperCase() }, freshLoopback(), asVisitor)
    expect(await own.json()).toEqual({ ok: true, delivery: 'report' })
    const report = await waitFor(async () => (await mailTo(email)).find(isReport), 'the report')
    expect(report.subject).toBe(`Your AgentInsight report: ${agentName}`)
    expect(
      await sql(`select email_confirmed_via from public.report_requests where lower(email) = $1`, [
        email.toLowerCase(),
      ]),
    ).toEqual([{ email_confirmed_via: 'account' }])

    const other = uniqueEmail('someone-else')
    const forOther = await requestReport({ full_name: 'Signed In', email: other }, freshLoopback(), asVisitor)
    expect(await forOther.json()).toEqual({ ok: true, delivery: 'confirmation' })
    await webhooksDone([other])
    expect((await mailTo(other)).map((message) => message.subject)).toEqual([CONFIRMATION_SUBJECT])
  })
})

describe('no mail opens with words a visitor wrote', () => {
  it("subject and first line of the confirmation, the report, the operators' alert and the newsletter confirmation are ours", async () => {
    const { email: adminEmail } = await signedInClient({ admin: true })
    const marker = `Zqvisitor${run}`
    const email = uniqueEmail('first-line')
    expect((await requestReport({ full_name: `${marker} says hi`, email, property_address: marker })).status).toBe(201)
    await post('confirm-report', { token: await confirmationToken(email) })
    const visitorMail = await waitFor(async () => {
      const all = await mailTo(email)
      return all.some(isReport) ? all : undefined
    }, 'the confirmation and the report')
    const alert = await waitFor(
      async () => (await mailTo(adminEmail)).find((message) => message.text_body?.includes(marker)),
      "the operators' alert",
    )
    const subscriber = `${marker.toLowerCase()}-${run}@example.com`
    expect((await post('newsletter-subscribe', { email: subscriber })).status).toBe(202)
    const newsletter = await mailTo(subscriber)

    const sent = [...visitorMail, alert, ...newsletter]
    expect(sent.length).toBeGreaterThanOrEqual(4)
    for (const message of sent) {
      expect(message.subject, message.subject).not.toContain(marker)
      expect(firstLine(message).toLowerCase(), message.subject).not.toContain(marker.toLowerCase())
    }
    // the lead's words are still in the operators' alert, below the first line, escaped
    expect(alert.text_body).toContain(`Name: ${marker} says hi`)
  })
})

describe('per-mailbox and per-IP limits cannot be reset', () => {
  it('counts +tags and case as one mailbox for the report limit', async () => {
    const base = `tagged-${run}`
    for (let index = 0; index < EMAIL_LIMIT_PER_HOUR; index += 1)
      expect((await requestReport({ full_name: 'Tag', email: `${base}+${index}@Example.com` })).status).toBe(201)
    const tagged = await requestReport({ full_name: 'Tag', email: `${base.toUpperCase()}+new@example.com` })
    expect(tagged.status).toBe(429)
    expect(await tagged.json()).toEqual({ error: RATE_LIMIT_MESSAGE })
  })

  it('a forged X-Forwarded-For does not reset a spent request-report IP bucket', async () => {
    const from = freshLoopback()
    for (let index = 0; index < IP_LIMIT_PER_HOUR; index += 1) {
      const response = await requestReport({ full_name: 'Spoof', email: uniqueEmail('spoof') }, from, {
        'X-Forwarded-For': `203.0.113.${index}`,
      })
      expect(response.status).toBe(201)
    }
    const spoofed = await requestReport({ full_name: 'Spoof', email: uniqueEmail('spoof') }, from, {
      'X-Forwarded-For': '198.51.100.77',
    })
    expect(spoofed.status).toBe(429)
    expect(spoofed.headers.get('retry-after')).toBe('3600')
  })

  it('the newsletter limits sign-ups per mailbox and keeps new rows unconfirmed, off the mailing list', async () => {
    const base = `news-${run}`
    for (let index = 0; index < NEWSLETTER_EMAIL_LIMIT_PER_HOUR; index += 1) {
      const response = await post('newsletter-subscribe', { email: `${base}+${index}@example.com` })
      expect(response.status).toBe(202)
      expect(await response.json()).toEqual({ message: NEWSLETTER_CHECK_INBOX })
    }
    const limited = await post('newsletter-subscribe', { email: `${base}+more@example.com` })
    expect(limited.status).toBe(429)
    expect(await limited.json()).toEqual({ error: NEWSLETTER_RATE_LIMIT_MESSAGE })
    const rows = await sql<{ confirmed_at: Date | null }>(
      `select confirmed_at from public.newsletter_subscriptions where email like $1`,
      [`${base}%`],
    )
    expect(rows.length).toBe(NEWSLETTER_EMAIL_LIMIT_PER_HOUR)
    expect(rows.every((row) => row.confirmed_at === null)).toBe(true)
    expect(await sql(`select 1 from public.newsletter_recipients where email like $1`, [`${base}%`])).toEqual([])
  })
})
