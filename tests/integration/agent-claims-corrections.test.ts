/**
 * Corrections of an agent's record, filed by the agent who claimed the profile through the API (RLS and the
 * checking trigger) and decided by an administrator through agent-review: an accepted "not my sale" takes the sale
 * out of the agent's sides and figures while the raw listing and its transaction_sides rows stay exactly as the feed
 * sent them, the profile's counts follow, the audit log holds both steps, and the agent is mailed. Also: a missing
 * sale links the agent to a side the feed left unnamed, a wrong side moves the agent's side, and the refusals
 * (not the owner, a sale not credited, a duplicate, a reject without reason).
 * Agents and sales are written through the test-data factory in a ZIP of this file's own; the sales are dated in the
 * last weeks, so they fall in the metrics window whoever refreshed last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { mailTo, serviceClient, signedInClient, sql, testEnv } from '../support/env.ts'
import { testData } from '../support/factories.ts'

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
const source = `corrections-${run}`
const data = testData('agent-claims-corrections')
let zip = ''
let owner: Awaited<ReturnType<typeof signedInClient>>
let admin: Awaited<ReturnType<typeof signedInClient>>
let adminToken = ''

afterAll(async () => {
  await data.cleanup()
})

async function agent(name: string): Promise<{ id: string; mlsId: string }> {
  const mlsId = `corr-${run}-${name}`
  const id = await data.agent({
    name: `Correction ${name}`,
    mlsId,
    email: `corr-${run}-${name}@example.com`,
    licenseNumber: 'LIC-1',
  })
  return { id, mlsId }
}

/** A closed sale `daysAgo` days back: the list agent by agent_id, the buyer agent by MLS id; returns its id. */
function sale(
  number: string,
  listAgent: string | null,
  buyerMlsId: string | null,
  price: number,
  daysAgo: number,
): Promise<string> {
  return data.sale({
    agentId: listAgent,
    address: `${number} Correction Ave`,
    city: 'Fresno',
    state: 'CA',
    zip,
    listPrice: price,
    salePrice: price,
    daysAgo,
    daysOnMarket: 21,
    source,
    sourceRecordId: `${run}-${number}`,
    buyerAgentMlsId: buyerMlsId,
  })
}

async function refresh() {
  const { error } = await serviceClient().rpc('refresh_agent_metrics', {})
  if (error) throw error
}

async function review(body: Record<string, unknown>) {
  const response = await fetchFrom(freshLoopback(), `${testEnv.url}/functions/v1/agent-review`, {
    method: 'POST',
    headers: { apikey: testEnv.anonKey, Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const figures = async (agentId: string) =>
  (
    await sql<{ listing_sales: number; buyer_sales: number; total_sales: number }>(
      `select listing_sales, buyer_sales, total_sales from public.agent_figures where agent_id = $1`,
      [agentId],
    )
  )[0]

/** The agent's sides as the figures count them (the corrections overlay applied), by sale address. */
const effectiveSides = async (agentId: string) =>
  sql<{ address: string; side: string }>(
    `select p.address, e.side from private.effective_transaction_sides e join public.properties p on p.id = e.property_id
      where e.agent_id = $1 order by p.address, e.side`,
    [agentId],
  )

/** The sales behind the agent's listing-side sales figure, as visitors read them (public.agent_figure_sales). */
const salesBehind = async (agentId: string) => {
  const { data, error } = await serviceClient().rpc('agent_figure_sales', {
    agent_id: agentId,
    metric: 'listing_sales',
  })
  if (error) throw error
  const answer = data as { value: number; rows: { address: string }[] }
  return { value: Number(answer.value), addresses: answer.rows.map((row) => row.address).sort() }
}

/** The agent page's recent sales (public.agent_page_sales, as the profile reads them): address, role and side. */
const pageSales = async (agentId: string) => {
  const { data, error } = await serviceClient().rpc('agent_page_sales', { agent_ids: [agentId], max_per_agent: 10 })
  if (error) throw error
  return data
    .map((row) => ({ address: row.address, role: row.role, side: row.side }))
    .sort((a, b) => a.address.localeCompare(b.address) || a.side.localeCompare(b.side))
}

/** The version of the agent's page (public.agent_page_versions), which the site build keys the page on. */
const pageVersion = async (agentId: string) =>
  BigInt(
    (
      await sql<{ version: string }>(`select version::text from public.agent_page_versions where agent_id = $1`, [
        agentId,
      ])
    )[0]?.version ?? '0',
  )

let me: { id: string; mlsId: string }
let other: { id: string; mlsId: string }
const saleIds: Record<string, string> = {}

beforeAll(async () => {
  zip = await data.zip()
  me = await agent('Owner')
  other = await agent('Other')
  saleIds.a = await sale('1', me.id, null, 500_000, 10)
  saleIds.b = await sale('2', me.id, other.mlsId, 600_000, 12)
  saleIds.c = await sale('3', me.id, null, 700_000, 14)
  saleIds.d = await sale('4', other.id, me.mlsId, 800_000, 16)
  // a sale whose buyer agent the feed names by an MLS id we know no agent for
  saleIds.e = await sale('5', other.id, `unknown-${run}`, 900_000, 18)
  await refresh()
  owner = await signedInClient()
  admin = await signedInClient({ admin: true })
  adminToken = (await admin.client.auth.getSession()).data.session!.access_token
  await sql(
    `insert into public.agent_claims (agent_id, user_id, status, method, approved_at) values ($1, $2, 'approved', 'admin', now())`,
    [me.id, owner.userId],
  )
})

describe('a "not my sale" correction', () => {
  it('changes the figures and the sides once accepted, never the raw rows, and leaves both steps in the audit log', async () => {
    expect(await figures(me.id)).toEqual({ listing_sales: 3, buyer_sales: 1, total_sales: 4 })
    expect((await pageSales(me.id)).map((row) => row.address)).toContain('1 Correction Ave')
    expect(await salesBehind(me.id)).toEqual({
      value: 3,
      addresses: ['1 Correction Ave', '2 Correction Ave', '3 Correction Ave'],
    })
    const rawBefore = await sql(`select to_jsonb(p) - 'updated_at' as row from public.properties p where p.id = $1`, [
      saleIds.a,
    ])
    const sidesBefore = await sql(`select * from public.transaction_sides where property_id = $1 order by id`, [
      saleIds.a,
    ])

    const filed = await owner.client
      .from('agent_corrections')
      .insert({ agent_id: me.id, kind: 'not_my_sale', property_id: saleIds.a, explanation: 'A colleague listed it.' })
      .select('id, status, recorded_role, listing_number, address, recorded_close_price')
      .single()
    expect(filed.error).toBeNull()
    expect(filed.data).toMatchObject({
      status: 'pending',
      recorded_role: 'list',
      listing_number: `${run}-1`,
      address: '1 Correction Ave',
      recorded_close_price: 500000,
    })
    const correctionId = filed.data!.id
    // pending changes nothing but the count the profile shows
    expect(
      await sql(`select corrections_accepted, corrections_pending from public.agents where id = $1`, [me.id]),
    ).toEqual([{ corrections_accepted: 0, corrections_pending: 1 }])
    expect(await figures(me.id)).toEqual({ listing_sales: 3, buyer_sales: 1, total_sales: 4 })

    const versionBefore = await pageVersion(me.id)
    const accepted = await review({ subject: 'correction', id: correctionId, decision: 'accept' })
    expect(accepted.status).toBe(200)
    expect(accepted.body.decided).toMatchObject({ status: 'accepted', decided_by: admin.userId })

    expect(await figures(me.id)).toEqual({ listing_sales: 2, buyer_sales: 1, total_sales: 3 })
    // the sales behind the figure, as visitors read them, leave the sale out; the page gets a new version
    expect(await salesBehind(me.id)).toEqual({ value: 2, addresses: ['2 Correction Ave', '3 Correction Ave'] })
    // so does the profile's list of recent sales
    expect(await pageSales(me.id)).toEqual([
      { address: '2 Correction Ave', role: 'list', side: 'listing' },
      { address: '3 Correction Ave', role: 'list', side: 'listing' },
      { address: '4 Correction Ave', role: 'buyer', side: 'buyer' },
    ])
    expect(await pageVersion(me.id)).toBeGreaterThan(versionBefore)
    expect((await effectiveSides(me.id)).map((row) => row.address)).toEqual([
      '2 Correction Ave',
      '3 Correction Ave',
      '4 Correction Ave',
    ])
    expect(
      await sql(`select corrections_accepted, corrections_pending from public.agents where id = $1`, [me.id]),
    ).toEqual([{ corrections_accepted: 1, corrections_pending: 0 }])
    // the raw listing and its sides are as the feed sent them
    expect(
      await sql(`select to_jsonb(p) - 'updated_at' as row from public.properties p where p.id = $1`, [saleIds.a]),
    ).toEqual(rawBefore)
    expect(await sql(`select * from public.transaction_sides where property_id = $1 order by id`, [saleIds.a])).toEqual(
      sidesBefore,
    )
    // visitors see the accepted correction of the sale, not what anybody wrote
    const { data: marks } = await serviceClient().rpc('agent_sale_corrections', { agent_ids: [me.id] })
    expect(marks).toEqual([
      expect.objectContaining({ correction_id: correctionId, property_id: saleIds.a, kind: 'not_my_sale' }),
    ])
    expect(Object.keys(marks![0]!)).not.toContain('explanation')

    const trail = await sql<{ actor_id: string; action: string; status: string }>(
      `select actor_id, action, after ->> 'status' as status from public.audit_log
        where table_name = 'agent_corrections' and row_id = $1 order by id`,
      [correctionId],
    )
    expect(trail).toEqual([
      { actor_id: owner.userId, action: 'insert', status: 'pending' },
      { actor_id: admin.userId, action: 'update', status: 'accepted' },
    ])
    const [notice] = await mailTo(owner.email)
    expect(notice!.subject).toBe('Your correction on AgentInsight was accepted')
    expect(notice!.text_body).toContain(`Correction: Not my sale (1 Correction Ave, MLS ${run}-1)`)
  })
})

describe('other corrections', () => {
  it('a missing sale links the agent to the side the feed left unnamed', async () => {
    const filed = await owner.client
      .from('agent_corrections')
      .insert({
        agent_id: me.id,
        kind: 'missing_sale',
        listing_number: `${run}-5`,
        address: '5 Correction Ave',
        side: 'buyer',
      })
      .select('id, property_id')
      .single()
    expect(filed.error).toBeNull()
    expect(filed.data!.property_id).toBe(saleIds.e)
    expect((await review({ subject: 'correction', id: filed.data!.id, decision: 'accept' })).status).toBe(200)
    expect(await effectiveSides(me.id)).toContainEqual({ address: '5 Correction Ave', side: 'buyer' })
    // the unnamed side is the agent's now, not split with a phantom party
    const [credit] = await sql<{ parties: number }>(
      `select count(*)::int as parties from private.effective_transaction_sides where property_id = $1 and side = 'buyer'`,
      [saleIds.e],
    )
    expect(credit!.parties).toBe(1)
    expect((await figures(me.id))!.buyer_sales).toBe(2)
  })

  it('a wrong side moves the agent to the side they had', async () => {
    const filed = await owner.client
      .from('agent_corrections')
      .insert({ agent_id: me.id, kind: 'wrong_side', property_id: saleIds.c, side: 'buyer' })
      .select('id')
      .single()
    expect(filed.error).toBeNull()
    expect((await review({ subject: 'correction', id: filed.data!.id, decision: 'accept' })).status).toBe(200)
    expect(await effectiveSides(me.id)).toContainEqual({ address: '3 Correction Ave', side: 'buyer' })
    expect(await effectiveSides(me.id)).not.toContainEqual({ address: '3 Correction Ave', side: 'listing' })
    // the profile lists the sale with the role the agent had
    expect((await pageSales(me.id)).filter((row) => row.address === '3 Correction Ave')).toEqual([
      { address: '3 Correction Ave', role: 'buyer', side: 'buyer' },
    ])
  })

  it('refuses what cannot be a correction, naming why', async () => {
    const notCredited = await owner.client
      .from('agent_corrections')
      .insert({ agent_id: me.id, kind: 'not_my_sale', property_id: saleIds.a })
      .select('id')
    expect(notCredited.error).toMatchObject({
      code: 'PT400',
      message: 'This sale is not credited to you, so there is nothing to correct.',
    })
    const first = await owner.client
      .from('agent_corrections')
      .insert({
        agent_id: me.id,
        kind: 'wrong_price_date',
        property_id: saleIds.b,
        listing_number: `${run}-2`,
        close_price: 610000,
      })
      .select('id, close_price, recorded_close_price')
      .single()
    expect(first.data).toMatchObject({ close_price: 610000, recorded_close_price: 600000 })
    const twice = await owner.client
      .from('agent_corrections')
      .insert({
        agent_id: me.id,
        kind: 'wrong_price_date',
        property_id: saleIds.b,
        listing_number: `${run}-2`,
        close_price: 620000,
      })
      .select('id')
    expect(twice.error).toMatchObject({
      code: 'PT409',
      message: 'You have already filed this correction; it is waiting for review.',
    })
    expect(await review({ subject: 'correction', id: first.data!.id, decision: 'reject', reason: '' })).toMatchObject({
      status: 400,
    })
    const rejected = await review({
      subject: 'correction',
      id: first.data!.id,
      decision: 'reject',
      reason: 'The MLS shows $600,000.',
    })
    expect(rejected.body.decided).toMatchObject({ status: 'rejected', decision_reason: 'The MLS shows $600,000.' })
    expect((await mailTo(owner.email))[0]!.text_body).toContain('The MLS shows $600,000.')

    const stranger = await signedInClient()
    const foreign = await stranger.client
      .from('agent_corrections')
      .insert({ agent_id: me.id, kind: 'not_my_sale', property_id: saleIds.b })
      .select('id')
    expect(foreign.error).not.toBeNull()
    expect(await sql(`select 1 from public.agent_corrections where user_id = $1`, [stranger.userId])).toEqual([])
    // the owner withdraws a pending one; nobody else can
    const pending = await owner.client
      .from('agent_corrections')
      .insert({ agent_id: me.id, kind: 'not_my_sale', property_id: saleIds.d })
      .select('id')
      .single()
    expect(
      (
        await stranger.client
          .from('agent_corrections')
          .update({ status: 'withdrawn' })
          .eq('id', pending.data!.id)
          .select('id')
      ).data,
    ).toEqual([])
    const withdrawn = await owner.client
      .from('agent_corrections')
      .update({ status: 'withdrawn' })
      .eq('id', pending.data!.id)
      .select('status')
      .single()
    expect(withdrawn.data).toEqual({ status: 'withdrawn' })
    const accepting = await owner.client
      .from('agent_corrections')
      .update({ status: 'accepted' })
      .eq('id', pending.data!.id)
      .select('status')
    expect(accepting.data ?? []).toEqual([])
  })

  it('finds a sale by MLS number in any feed, and asks for the address when two feeds have the number', async () => {
    // sales of feeds no metrics refresh has covered: closed long before any window
    const oldSale = (number: string, feed: string, recordId: string) =>
      data.sale({
        agentId: me.id,
        address: `${number} Feed Ave`,
        city: 'Fresno',
        state: 'CA',
        zip,
        listPrice: 300_000,
        salePrice: 300_000,
        daysAgo: 4000,
        source: `${source}-${feed}`,
        sourceRecordId: recordId,
      })
    const late = await oldSale('1', 'late', `${run}-late`)
    const found = await owner.client
      .from('agent_corrections')
      .insert({ agent_id: me.id, kind: 'not_my_sale', listing_number: `${run}-LATE` })
      .select('property_id')
      .single()
    expect(found.error).toBeNull()
    expect(found.data!.property_id).toBe(late)

    await oldSale('2', 'a', `${run}-twin`)
    const twin = await oldSale('3', 'b', `${run}-twin`)
    const ambiguous = await owner.client
      .from('agent_corrections')
      .insert({ agent_id: me.id, kind: 'wrong_side', listing_number: `${run}-twin`, side: 'buyer' })
      .select('id')
    expect(ambiguous.error).toMatchObject({
      code: 'PT400',
      message: `address: More than one listing in our data has MLS number ${run}-twin (feeds: ${source}-a, ${source}-b). Give the address of the sale too, so we can tell which one you mean.`,
    })
    const wrongAddress = await owner.client
      .from('agent_corrections')
      .insert({
        agent_id: me.id,
        kind: 'wrong_side',
        listing_number: `${run}-twin`,
        side: 'buyer',
        address: '9 Elsewhere Rd',
      })
      .select('id')
    expect(wrongAddress.error?.message).toBe(
      `address: None of the listings with MLS number ${run}-twin in our data (feeds: ${source}-a, ${source}-b) is at that address alone. Check the address of the sale.`,
    )
    const picked = await owner.client
      .from('agent_corrections')
      .insert({
        agent_id: me.id,
        kind: 'wrong_side',
        listing_number: `${run}-twin`,
        side: 'buyer',
        address: '3 feed ave.',
      })
      .select('property_id')
      .single()
    expect(picked.error).toBeNull()
    expect(picked.data!.property_id).toBe(twin)
  })
})
