/**
 * The account's data: report requests matched by the confirmed email (public.my_report_requests), the PDF of one of
 * them downloaded again and nobody else's, the JSON export, email status, saved agents and the compare list under
 * RLS with their limits, and contact-form messages as their own lead type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCOUNT_SIGN_IN_MESSAGE, REPORT_NOT_FOUND_MESSAGE } from '@shared/account.ts'
import { CONTACT_RATE_LIMIT_MESSAGE } from '@shared/contact.ts'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { anonClient, signedInClient, sql, testEnv, uniqueEmail } from '../support/env.ts'
import { testData } from '../support/factories.ts'
import { pdfText } from '../support/pdf-text.ts'

const fn = (slug: string) => `${testEnv.url}/functions/v1/${slug}`

function callPublic(slug: string, body: unknown, from = freshLoopback()) {
  return fetchFrom(from, fn(slug), {
    method: 'POST',
    headers: {
      apikey: testEnv.anonKey,
      Authorization: `Bearer ${testEnv.anonKey}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  })
}

/** POSTs to the account function with `token` (a user's access token, or none). */
function callAccount(body: unknown, token?: string) {
  return fetch(fn('account'), {
    method: 'POST',
    headers: {
      apikey: testEnv.anonKey,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  })
}

const data = testData('account-data')
const reportAgentName = data.unique('Report Agent')
let owner: Awaited<ReturnType<typeof signedInClient>> & { token: string }
let other: Awaited<ReturnType<typeof signedInClient>> & { token: string }
let agentId = ''
let otherAgentId = ''

async function signedIn() {
  const user = await signedInClient({ metadata: { full_name: 'Account Owner' } })
  return { ...user, token: (await user.client.auth.getSession()).data.session!.access_token }
}

beforeAll(async () => {
  owner = await signedIn()
  other = await signedIn()
  ;[agentId, otherAgentId] = (await data.agents([
    { name: reportAgentName, city: 'Austin', state: 'TX' },
    { name: data.unique('Other Agent'), city: 'Austin', state: 'TX' },
  ])) as [string, string]
})

afterAll(async () => {
  await sql(`delete from public.report_requests where agent_id = any($1) or email = any($2)`, [
    [agentId, otherAgentId],
    [owner.email, other.email],
  ])
  await data.cleanup()
})

describe('my reports', () => {
  it('lists the report requests made with the account’s confirmed email, whatever the case, and nothing else', async () => {
    expect(
      (await callPublic('request-report', { full_name: 'Owner', email: owner.email.toUpperCase(), agent_id: agentId }))
        .status,
    ).toBe(201)
    expect(
      (await callPublic('request-report', { full_name: 'Other', email: other.email, agent_id: otherAgentId })).status,
    ).toBe(201)
    expect(
      (await callPublic('contact', { full_name: 'Owner', email: owner.email, message: 'Not a report' })).status,
    ).toBe(201)

    const { data, error } = await owner.client.rpc('my_report_requests')
    expect(error).toBeNull()
    expect(data).toHaveLength(1)
    expect(data![0]).toMatchObject({ agent_id: agentId, agent_name: null })
    // requested while signed out: the request's own confirmation link is still unused
    expect(data![0]!.delivery).toBe('awaiting_confirmation')
    // operators' fields are not part of the answer
    expect(Object.keys(data![0]!).sort()).toEqual(
      ['agent_id', 'agent_location', 'agent_name', 'created_at', 'delivery', 'id', 'report_sent_at'].sort(),
    )

    const anonymous = await anonClient().rpc('my_report_requests')
    expect(anonymous.error).not.toBeNull()
  })

  it('shows nothing while the account’s email is unconfirmed', async () => {
    const email = uniqueEmail('unconfirmed-reports')
    const signUp = await anonClient().auth.signUp({ email, password: 'correct-horse-battery-42' })
    expect(signUp.error).toBeNull()
    await sql(`insert into public.report_requests (full_name, email) values ('Someone', $1)`, [email])
    // Auth does not sign an unconfirmed user in; a token signed for them with the project's secret stands in
    const [user] = await sql<{ id: string }>(`select id from auth.users where email = $1`, [email])
    const { signJwt } = await import('../../supabase/local/jwt.ts')
    const token = await signJwt(testEnv.jwtSecret, { role: 'authenticated', sub: user!.id, aud: 'authenticated' }, 300)
    const asUser = () =>
      fetch(`${testEnv.url}/rest/v1/rpc/my_report_requests`, {
        method: 'POST',
        headers: { apikey: testEnv.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{}',
      }).then((response) => response.json())
    expect(await asUser()).toEqual([])
    // the same user once the address is confirmed sees the request
    await sql(`update auth.users set email_confirmed_at = now() where id = $1`, [user!.id])
    expect(await asUser()).toHaveLength(1)
    await sql(`delete from public.report_requests where email = $1`, [email])
  })

  it('downloads the PDF of the owner’s request again, and refuses it to anyone else', async () => {
    const { data } = await owner.client.rpc('my_report_requests')
    const requestId = data![0]!.id

    const download = await callAccount({ action: 'report-pdf', request_id: requestId }, owner.token)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toBe('application/pdf')
    const bytes = new Uint8Array(await download.arrayBuffer())
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
    expect(await pdfText(bytes)).toContain(reportAgentName)

    const stranger = await callAccount({ action: 'report-pdf', request_id: requestId }, other.token)
    expect(stranger.status).toBe(404)
    expect(await stranger.json()).toEqual({ error: REPORT_NOT_FOUND_MESSAGE })
    const anonymous = await callAccount({ action: 'report-pdf', request_id: requestId })
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toEqual({ error: ACCOUNT_SIGN_IN_MESSAGE })
    const bad = await callAccount({ action: 'report-pdf', request_id: 'x' }, owner.token)
    expect(bad.status).toBe(400)
    expect((await bad.json()).errors).toEqual({
      request_id: 'request_id must be the id of one of your report requests',
    })
  })
})

describe('saved agents and the compare list', () => {
  it('each user reads and writes only their own, within the limits', async () => {
    expect(
      (await owner.client.from('saved_agents').insert({ user_id: owner.userId, agent_id: agentId })).error,
    ).toBeNull()
    const foreign = await owner.client.from('saved_agents').insert({ user_id: other.userId, agent_id: agentId })
    expect(foreign.error?.code).toBe('42501')
    expect((await other.client.from('saved_agents').select('agent_id')).data).toEqual([])

    const five = [agentId, otherAgentId, crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()]
    const tooMany = await owner.client.from('compare_lists').upsert({ user_id: owner.userId, agent_ids: five })
    expect(tooMany.error?.code).toBe('23514')
    const four = await owner.client.from('compare_lists').upsert({ user_id: owner.userId, agent_ids: five.slice(0, 4) })
    expect(four.error).toBeNull()
    expect((await owner.client.from('compare_lists').select('agent_ids').single()).data).toEqual({
      agent_ids: five.slice(0, 4),
    })
  })

  it('refuses the 501st saved agent with a message', async () => {
    const user = await signedIn()
    // 499 agents of this file's own: saving other files' agents would tie their rows to this user
    const fillers = await data.agents(
      Array.from({ length: 499 }, (_, index) => ({ name: data.unique(`Filler ${index}`) })),
    )
    await sql(`insert into public.saved_agents (user_id, agent_id) select $1, unnest($2::uuid[])`, [
      user.userId,
      fillers,
    ])
    const [{ n }] = (await sql<{ n: number }>(`select count(*)::int n from public.saved_agents where user_id = $1`, [
      user.userId,
    ])) as [{ n: number }]
    expect(n).toBe(499)
    expect(
      (await user.client.from('saved_agents').insert({ user_id: user.userId, agent_id: agentId })).error,
    ).toBeNull()
    const over = await user.client.from('saved_agents').insert({ user_id: user.userId, agent_id: otherAgentId })
    expect(over.error?.message).toBe('You can save at most 500 agents. Remove some on your account page first.')
    await sql(`delete from public.agents where id = any($1::uuid[])`, [fillers])
  })
})

describe('export', () => {
  it('holds the account, its saved agents, compare list, requests and newsletter state', async () => {
    await sql(
      `insert into public.newsletter_subscriptions (email, confirmed_at) values ($1, now()) on conflict do nothing`,
      [owner.email],
    )
    const answer = await callAccount({ action: 'export' }, owner.token)
    expect(answer.status).toBe(200)
    const data = await answer.json()
    expect(data.account).toMatchObject({ id: owner.userId, email: owner.email, full_name: 'Account Owner' })
    expect(data.saved_agents).toEqual([expect.objectContaining({ agent_id: agentId, agent_name: reportAgentName })])
    expect(data.compare_list).toHaveLength(4)
    expect(data.requests.map((request: { type: string }) => request.type).sort()).toEqual(['contact', 'report'])
    expect(data.requests.find((request: { type: string }) => request.type === 'contact').message).toBe('Not a report')
    expect(data.newsletter.confirmed_at).not.toBeNull()
    expect(data.unsubscribed_at).toBeNull()
    // nothing of another account
    expect(JSON.stringify(data)).not.toContain(other.email)
  })

  it('reports whether the account’s address unsubscribed, and turns emails back on', async () => {
    await sql(`insert into public.email_suppressions (email_hash, source) values (public.email_hash($1), 'link')`, [
      other.email,
    ])
    const status = await (await callAccount({ action: 'email-status' }, other.token)).json()
    expect(status.email).toBe(other.email)
    expect(status.unsubscribed_at).not.toBeNull()
    const resumed = await (await callAccount({ action: 'resume-emails' }, other.token)).json()
    expect(resumed).toEqual({ email: other.email, unsubscribed_at: null })
  })
})

describe('contact form', () => {
  it('stores a contact lead with the message and no agent, names bad fields, and drops bots silently', async () => {
    const email = uniqueEmail('contact')
    const from = freshLoopback()
    const sent = await callPublic(
      'contact',
      { full_name: 'Cleo Contact', email, message: 'Do you cover Maine?', source_page: '/contact' },
      from,
    )
    expect(sent.status).toBe(201)
    expect(
      await sql(
        `select lead_type, message, agent_id, status, source_page from public.report_requests where email = $1`,
        [email],
      ),
    ).toEqual([
      {
        lead_type: 'contact',
        message: 'Do you cover Maine?',
        agent_id: null,
        status: 'pending',
        source_page: '/contact',
      },
    ])

    const bad = await callPublic('contact', { full_name: '', email: 'nope', message: '' })
    expect(bad.status).toBe(400)
    expect((await bad.json()).errors).toEqual({
      full_name: 'Please enter your name',
      email: 'Please enter a valid email address',
      message: 'Please write your message',
    })

    const bot = await callPublic('contact', { full_name: 'Bot', email, message: 'spam', website: 'http://spam.test' })
    expect(bot.status).toBe(201)
    expect(await sql(`select 1 from public.report_requests where email = $1`, [email])).toHaveLength(1)

    for (let index = 1; index < 3; index += 1)
      expect((await callPublic('contact', { full_name: 'Cleo', email, message: `again ${index}` }, from)).status).toBe(
        201,
      )
    const limited = await callPublic('contact', { full_name: 'Cleo', email, message: 'fourth' }, from)
    expect(limited.status).toBe(429)
    expect(await limited.json()).toEqual({ error: CONTACT_RATE_LIMIT_MESSAGE })
    await sql(`delete from public.report_requests where email = $1`, [email])
  })
})
