/**
 * New-lead email: an anonymous visitor's insert into report_requests fires the database webhook notify_new_lead
 * (private.send_webhook through net.http_post, sent after commit by the pg_net stand-in), the edge function notify-new-lead
 * mails the administrators through the Resend-compatible client, and the message lands in the local mailbox
 * (POST /emails). The function refuses callers without the webhook secret or the service-role key.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { anonClient, mailTo, signedInClient, sql, testEnv } from '../support/env.ts'
import { waitFor } from '../support/wait-for.ts'

const functionUrl = () => `${testEnv.url}/functions/v1/notify-new-lead`

let adminEmail = ''

beforeAll(async () => {
  ;({ email: adminEmail } = await signedInClient({ admin: true }))
  // The stack points the webhook at its own port at start; set it again in case another test file changed it.
  await sql(`select private.configure_webhook('new_lead', $1)`, [functionUrl()])
})

describe('new-lead email', () => {
  it('mails the administrators when a visitor submits a report request, with lead values escaped', async () => {
    const marker = `Lead ${Date.now().toString(36)}`
    // visitors reach report_requests only through the request-report function
    const submitted = await fetchFrom(freshLoopback(), `${testEnv.url}/functions/v1/request-report`, {
      method: 'POST',
      headers: { apikey: testEnv.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        full_name: `${marker} <b>Bold</b>`,
        email: 'visitor@example.com',
        agent_name: 'Jane & Co',
        agent_location: 'Austin, TX',
      }),
    })
    expect(submitted.status).toBe(201)

    const message = await waitFor(
      async () => (await mailTo(adminEmail)).find((item) => item.text_body?.includes(marker)),
      'the new-lead email',
    )
    // subject and first line are fixed: lead values are visitor input
    expect(message.subject).toBe('New agent report request on AgentInsight')
    expect(message.text_body?.split('\n')[0]).toBe('New agent report request')
    expect(message.recipients).toContain(adminEmail)
    expect(message.sender).toBe('Agent Insight <notifications@localhost>')
    expect(message.html_body).toContain(`${marker} &lt;b&gt;Bold&lt;/b&gt;`)
    expect(message.html_body).not.toContain('<b>Bold</b>')
    expect(message.html_body).toContain('Jane &amp; Co')
    expect(message.text_body).toContain('Email: visitor@example.com')
    expect(message.text_body).toContain('Phone: Not provided')
    expect(message.text_body).toContain('Open the CRM: http://localhost:4321/admin/crm')

    // the dispatcher logs the delivery once the function has answered, which can be just after the mail arrived
    const log = await waitFor(async () => {
      const [row] = await sql<{ status_code: number }>(
        `select status_code from net._http_response where url = $1 and content like $2 order by created desc limit 1`,
        [functionUrl(), '%"sent":true%'],
      )
      return row
    }, 'the logged webhook delivery')
    expect(log.status_code).toBe(200)
  })

  it('sends no email for a rolled-back insert', async () => {
    const marker = `Rolled back ${Date.now().toString(36)}`
    await sql(
      `begin; insert into public.report_requests (full_name, email) values ($1, 'rb@example.com'); rollback;`.replace(
        '$1',
        `'${marker}'`,
      ),
    )
    // a committed lead after it proves the webhook is delivering, so the missing one was never sent
    const after = `After rollback ${Date.now().toString(36)}`
    await sql(`insert into public.report_requests (full_name, email) values ($1, 'after@example.com')`, [after])
    await waitFor(
      async () => (await mailTo(adminEmail)).find((item) => item.text_body?.includes(after)),
      'the later email',
    )
    expect((await mailTo(adminEmail)).some((item) => item.text_body?.includes(marker))).toBe(false)
  })
})

describe('notify-new-lead caller check', () => {
  const payload = {
    type: 'INSERT',
    schema: 'public',
    table: 'report_requests',
    record: {
      id: '00000000-0000-4000-8000-00000000abcd',
      full_name: 'Direct Caller',
      email: 'direct@example.com',
      created_at: new Date().toISOString(),
    },
    old_record: null,
  }
  const post = (headers: Record<string, string>, body: unknown = payload) =>
    fetch(functionUrl(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })

  it('refuses a caller without credentials, with a wrong secret or with the anon key', async () => {
    const callers: Record<string, string>[] = [
      {},
      { 'x-webhook-secret': 'guess' },
      { Authorization: `Bearer ${testEnv.anonKey}` },
    ]
    for (const headers of callers) {
      const response = await post(headers)
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({ error: 'Unauthorized: send the webhook secret or the service-role key.' })
    }
    const { client } = await signedInClient({ admin: true })
    const { data } = await client.auth.getSession()
    expect((await post({ Authorization: `Bearer ${data.session!.access_token}` })).status).toBe(401)
  })

  it('accepts the webhook secret and the service-role key, and names a bad payload field', async () => {
    const [{ secret }] = await sql<{ secret: string }>(`select private.webhook_setting('new_lead', 'secret') as secret`)
    const viaSecret = await post({ 'x-webhook-secret': secret! })
    expect(viaSecret.status).toBe(200)
    expect(await viaSecret.json()).toMatchObject({ sent: true })

    const bad = await post({ Authorization: `Bearer ${testEnv.serviceRoleKey}` }, { ...payload, type: 'DELETE' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'type must be INSERT', errors: { type: 'type must be INSERT' } })
  })

  it('keeps the webhook secret and the operator list away from the API roles', async () => {
    const { error: rpcError } = await anonClient().rpc('lead_operator_emails')
    expect(rpcError).toMatchObject({ code: '42501', message: 'permission denied for function lead_operator_emails' })
    const { client } = await signedInClient({ admin: true })
    const { error: verifyError } = await client.rpc('verify_new_lead_webhook_secret', { candidate: 'x' })
    expect(verifyError).toMatchObject({
      code: '42501',
      message: 'permission denied for function verify_new_lead_webhook_secret',
    })
  })
})
