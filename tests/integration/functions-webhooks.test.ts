/**
 * Edge functions under real Deno behind /functions/v1 (verify_jwt honoured, platform variables set), and database
 * webhooks: the Supabase trigger SQL (`supabase_functions.http_request`) queues a request that the dispatcher sends
 * after commit, with retries and a log in net._http_response.
 */
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedInClient, sql, testEnv } from '../support/env.ts'
import { waitFor } from '../support/wait-for.ts'

describe('edge functions', () => {
  it('runs a function under Deno with the platform variables', async () => {
    const response = await fetch(`${testEnv.url}/functions/v1/echo-env`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${testEnv.anonKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      hello: 'Ada',
      path: '/echo-env',
      hasUrl: true,
      hasAnonKey: true,
      hasServiceRoleKey: true,
      runtime: 'deno',
    })
  })

  it("passes the function's own 400 through", async () => {
    const response = await fetch(`${testEnv.url}/functions/v1/echo-env`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${testEnv.anonKey}` },
      body: 'not json',
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'name is required' })
  })

  it("accepts a signed-in user's token", async () => {
    const { client } = await signedInClient()
    const { data, error } = await client.functions.invoke('echo-env', { body: { name: 'Grace' } })
    expect(error).toBeNull()
    expect(data.hello).toBe('Grace')
  })

  it('refuses missing or invalid JWTs when verify_jwt is on', async () => {
    const missing = await fetch(`${testEnv.url}/functions/v1/echo-env`, { method: 'POST', body: '{}' })
    expect(missing.status).toBe(401)
    expect((await missing.json()).message).toBe('Missing authorization header')
    const invalid = await fetch(`${testEnv.url}/functions/v1/echo-env`, {
      method: 'POST',
      body: '{}',
      headers: { Authorization: 'Bearer nope' },
    })
    expect(invalid.status).toBe(401)
    expect((await invalid.json()).message).toBe('Invalid JWT')
  })

  it('lets anyone call a function with verify_jwt = false', async () => {
    const response = await fetch(`${testEnv.url}/functions/v1/public-echo`, { method: 'POST', body: 'hi' })
    expect(response.status).toBe(200)
    expect((await response.json()).body).toBe('hi')
  })

  it("passes the path, the query, a large body and the caller's address on to the function, as the hosted gateway does", async () => {
    const body = 'x'.repeat(1_000_000)
    const response = await fetch(`${testEnv.url}/functions/v1/public-echo/deeper/path?a=1&b=two`, {
      method: 'POST',
      body,
      headers: { 'X-Forwarded-For': '203.0.113.7' },
    })
    expect(response.status).toBe(200)
    const echoed = (await response.json()) as { body: string; path: string; forwardedFor: string }
    expect(echoed.path).toBe('/public-echo/deeper/path?a=1&b=two')
    expect(echoed.body.length).toBe(body.length)
    // the gateway appends the address it sees (the test runs on the same machine)
    expect(echoed.forwardedFor).toBe('203.0.113.7, 127.0.0.1')
  })

  it('answers 404 for an unknown function', async () => {
    const response = await fetch(`${testEnv.url}/functions/v1/no-such-function`, {
      headers: { Authorization: `Bearer ${testEnv.anonKey}` },
    })
    expect(response.status).toBe(404)
  })
})

describe('database webhooks', () => {
  let server: http.Server
  let port = 0
  const received: { body: unknown; headers: http.IncomingHttpHeaders }[] = []
  let failuresLeft = 0

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        if (failuresLeft > 0) {
          failuresLeft -= 1
          response.writeHead(500).end('try again')
          return
        }
        received.push({ body: JSON.parse(body), headers: request.headers })
        response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as { port: number }).port
    // its own schema, dropped afterwards: tests that inspect the public schema (the RLS matrix) never see it
    await sql(`create schema webhook_probe;
      create table webhook_probe.items (id serial primary key, title text);
      create trigger probe_hook after insert or update or delete on webhook_probe.items for each row
      execute function supabase_functions.http_request('http://127.0.0.1:${port}/hook', 'POST', '{"Content-Type":"application/json","X-Probe":"yes"}', '{}', '2000');`)
  })

  afterAll(async () => {
    await sql('drop schema if exists webhook_probe cascade')
    server.close()
  })

  it('sends the Supabase webhook payload after commit, never for a rolled-back change', async () => {
    received.length = 0
    await sql(`begin; insert into webhook_probe.items (title) values ('rolled back'); rollback;`)
    await sql(`insert into webhook_probe.items (title) values ('committed')`)
    const delivery = await waitFor(() => received[0], 'the webhook for the committed insert')
    expect(delivery.body).toMatchObject({
      type: 'INSERT',
      table: 'items',
      schema: 'webhook_probe',
      record: { title: 'committed' },
      old_record: null,
    })
    expect(delivery.headers['x-probe']).toBe('yes')
    // The dispatcher sends queued requests one at a time in queue order, so a request queued by the rolled-back
    // insert would have arrived before this later marker: once the marker is here, nothing else can still come.
    await sql(`insert into webhook_probe.items (title) values ('marker')`)
    await waitFor(() => received[1], 'the webhook for the marker insert')
    expect(received.map((item) => (item.body as { record: { title: string } }).record.title)).toEqual([
      'committed',
      'marker',
    ])
  })

  it('retries a failed delivery and logs the outcome', async () => {
    received.length = 0
    failuresLeft = 1
    await sql(`update webhook_probe.items set title = 'renamed' where title = 'committed'`)
    const delivery = await waitFor(() => received[0], 'the retried webhook')
    expect(delivery.body).toMatchObject({
      type: 'UPDATE',
      record: { title: 'renamed' },
      old_record: { title: 'committed' },
    })
    const log = await waitFor(async () => {
      const rows = await sql<{ status_code: number; attempts: number }>(
        `select status_code, attempts from net._http_response where url like $1 and attempts > 1 order by created desc limit 1`,
        [`http://127.0.0.1:${port}/%`],
      )
      return rows[0]
    }, 'the logged second attempt')
    expect(log).toEqual({ status_code: 200, attempts: 2 })
  })
})
