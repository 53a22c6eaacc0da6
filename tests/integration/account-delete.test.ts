/**
 * Deleting an account removes everything tied to it: afterwards no row of any table in the database holds the
 * account's email address (only the local mailbox, which stands in for the mail provider outside the database, still
 * has the mails that were sent). Its report requests stay for the operators' counts, anonymised.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_DELETE_MESSAGE } from '@shared/account.ts'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { anonClient, mailTo, signedInClient, sql, testEnv, uniqueEmail } from '../support/env.ts'
import { testData } from '../support/factories.ts'
import { waitFor } from '../support/wait-for.ts'

const fn = (slug: string) => `${testEnv.url}/functions/v1/${slug}`

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

function callAccount(body: unknown, token: string) {
  return fetch(fn('account'), {
    method: 'POST',
    headers: { apikey: testEnv.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

/**
 * Every table of every schema (the local mailbox excepted) with a row whose text holds `needle`, case-insensitively,
 * as `schema.table: count`.
 */
async function tablesHolding(needle: string): Promise<string[]> {
  const tables = await sql<{ schema: string; name: string }>(
    `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast', 'local_mailbox')
      order by 1, 2`,
  )
  const found: string[] = []
  for (const table of tables) {
    let rows: Array<{ n: number }>
    try {
      rows = await sql<{ n: number }>(
        `select count(*)::int as n from ${JSON.stringify(table.schema)}.${JSON.stringify(table.name)} t
          where strpos(lower(t::text), lower($1)) > 0`,
        [needle],
      )
    } catch (error) {
      // another test file dropped its scratch table (say webhook_probe.items) after the listing: it holds no row
      if ((error as { code?: string }).code === '42P01') continue
      throw error
    }
    if (rows[0]!.n > 0) found.push(`${table.schema}.${table.name}: ${rows[0]!.n}`)
  }
  return found
}

const data = testData('account-delete')
afterAll(() => data.cleanup())

describe('deleting an account', () => {
  it('leaves no row with its email anywhere in the database, and keeps its requests anonymised', async () => {
    const user = await signedInClient({ metadata: { full_name: 'Dana Delete' } })
    const email = user.email
    const token = (await user.client.auth.getSession()).data.session!.access_token
    const agentId = await data.agent({ name: data.unique('Deletion Agent') })

    // everything an account can leave behind
    expect(
      (await user.client.from('saved_agents').insert({ user_id: user.userId, agent_id: agentId })).error,
    ).toBeNull()
    expect(
      (await user.client.from('compare_lists').insert({ user_id: user.userId, agent_ids: [agentId] })).error,
    ).toBeNull()
    // signed in with the confirmed account email: the report is mailed at once
    const requested = await fetchFrom(freshLoopback(), fn('request-report'), {
      method: 'POST',
      headers: { apikey: testEnv.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        full_name: 'Dana Delete',
        email,
        phone: '617-555-0100',
        property_address: '1 Deletion Way',
        agent_id: agentId,
      }),
    })
    expect(requested.status).toBe(201)
    expect(
      (await callPublic('contact', { full_name: 'Dana Delete', email, message: `Write to me at ${email}` })).status,
    ).toBe(201)
    const leads = await sql<{ id: string }>(
      `select id from public.report_requests where email = $1 order by created_at`,
      [email],
    )
    expect(leads).toHaveLength(2)
    // an operator works the leads through the API: every write lands in the admin audit log, the trash keeps the row
    const operator = await signedInClient({ admin: true })
    expect(
      (await operator.client.from('report_requests').update({ status: 'contacted' }).eq('id', leads[0]!.id)).error,
    ).toBeNull()
    expect(
      (
        await operator.client
          .from('lead_notes')
          .insert({ report_request_id: leads[0]!.id, body: `Called ${email}, will call back` })
      ).error,
    ).toBeNull()
    expect((await operator.client.from('report_requests').delete().eq('id', leads[1]!.id)).error).toBeNull()
    expect((await callPublic('newsletter-subscribe', { email })).status).toBe(202)
    // the report mail (and with it the new-lead webhook's work) is done before the account goes
    await waitFor(async () => ((await mailTo(email)).length >= 2 ? true : undefined), 'the mails to the visitor')
    await waitFor(async () => {
      const [row] = await sql<{ done: boolean }>(
        `select report_sent_at is not null or report_error is not null as done from public.report_requests where id = $1`,
        [leads[0]!.id],
      )
      return row!.done ? true : undefined
    }, 'the report delivery outcome')
    expect((await user.client.auth.updateUser({ password: 'another-horse-battery-43' })).error).toBeNull()
    const fresh = (await user.client.auth.getSession()).data.session!.access_token

    // the scan finds the address where it is, so an empty result afterwards means something
    const before = await tablesHolding(email)
    expect(before).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^auth\.users: /),
        expect.stringMatching(/^auth\.audit_log_entries: /),
        expect.stringMatching(/^public\.report_requests: 2$/),
        expect.stringMatching(/^public\.lead_notes: 1$/),
        expect.stringMatching(/^public\.newsletter_subscriptions: 1$/),
        expect.stringMatching(/^public\.audit_log: /),
      ]),
    )

    const deleted = await callAccount({ action: 'delete' }, fresh)
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toEqual({ deleted: true })

    expect(await tablesHolding(email)).toEqual([])
    // the requests stay for the counts, without anything personal
    const kept = await sql(
      `select lead_type, full_name, phone, property_address, message, agent_id, anonymized_at is not null as anonymized,
              email like 'deleted-%@anonymized.invalid' as placeholder
         from public.report_requests where id = any($1) order by created_at`,
      [leads.map((lead) => lead.id)],
    )
    expect(kept).toEqual([
      {
        lead_type: 'report',
        full_name: 'Deleted account',
        phone: null,
        property_address: null,
        message: null,
        agent_id: agentId,
        anonymized: true,
        placeholder: true,
      },
      {
        lead_type: 'contact',
        full_name: 'Deleted account',
        phone: null,
        property_address: null,
        message: null,
        agent_id: null,
        anonymized: true,
        placeholder: true,
      },
    ])
    expect(
      await sql(`select 1 from public.lead_notes where report_request_id = any($1)`, [leads.map((l) => l.id)]),
    ).toEqual([])
    expect(await sql(`select 1 from auth.users where id = $1`, [user.userId])).toEqual([])
    expect(await sql(`select 1 from public.saved_agents where user_id = $1`, [user.userId])).toEqual([])
    // the session is gone with the user
    expect((await user.client.auth.refreshSession()).error).not.toBeNull()

    await sql(`delete from public.report_requests where id = any($1)`, [leads.map((lead) => lead.id)])
  }, 60_000) // the scan reads every table of the database twice

  it('refuses to delete an administrator account, which another administrator removes instead', async () => {
    const admin = await signedInClient({ admin: true })
    const token = (await admin.client.auth.getSession()).data.session!.access_token
    const answer = await callAccount({ action: 'delete' }, token)
    expect(answer.status).toBe(409)
    expect(await answer.json()).toEqual({ error: ADMIN_DELETE_MESSAGE })
    expect(await sql(`select 1 from auth.users where id = $1`, [admin.userId])).toHaveLength(1)
  })

  it('an administrator erases the address of a visitor without an account, on request; nobody else can', async () => {
    const email = uniqueEmail('erase-me')
    expect((await callPublic('request-report', { full_name: 'Erin Erase', email, phone: '617-555-0199' })).status).toBe(
      201,
    )
    expect(
      (await callPublic('contact', { full_name: 'Erin Erase', email, message: 'Please delete my data' })).status,
    ).toBe(201)
    const leads = await sql<{ id: string }>(`select id from public.report_requests where email = $1`, [email])
    expect(leads).toHaveLength(2)
    expect(await tablesHolding(email)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^public\.report_requests: 2$/)]),
    )

    const visitor = await signedInClient()
    const refused = await visitor.client.rpc('erase_email', { address: email })
    expect(refused.error?.code).toBe('42501')
    expect((await anonClient().rpc('erase_email', { address: email })).error).not.toBeNull()

    const operator = await signedInClient({ admin: true })
    const erased = await operator.client.rpc('erase_email', { address: email.toUpperCase() })
    expect(erased.error).toBeNull()
    expect(erased.data).toEqual({ leads_anonymized: 2, newsletter_removed: 0 })
    expect(await tablesHolding(email)).toEqual([])
    await sql(`delete from public.report_requests where id = any($1)`, [leads.map((lead) => lead.id)])
  }, 60_000)
})
