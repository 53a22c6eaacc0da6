/**
 * Claiming an agent profile end to end through the agent-claim and agent-review functions and the API: the license
 * number check, the code mailed to the MLS email (only its HMAC stored), one owner per profile, the owner's edits of
 * bio, specialties and languages under RLS (plain text, other columns refused), reviews decided by an administrator
 * with the reason mailed, revocation, and the audit log of each step. Every test works on agents it creates.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { fetchFrom, freshLoopback } from '../support/client-address.ts'
import { mailTo, signedInClient, sql, testEnv, uniqueEmail } from '../support/env.ts'
import { testData } from '../support/factories.ts'

const data = testData('agent-claims')

afterAll(async () => {
  await data.cleanup()
})

/** A fresh agent whose MLS record has `license` and a unique email; returns its id and email. */
async function agentFixture(license: string | null = 'CA-0123 456') {
  const email = uniqueEmail('mls-agent')
  const id = await data.agent({
    name: 'Claim Fixture Agent',
    email,
    licenseNumber: license,
    mlsId: data.unique(`CLAIM ${email}`),
  })
  return { id, email }
}

async function call(slug: string, token: string, body: unknown, ip = freshLoopback()) {
  const response = await fetchFrom(ip, `${testEnv.url}/functions/v1/${slug}`, {
    method: 'POST',
    headers: { apikey: testEnv.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function tokenOf(client: Awaited<ReturnType<typeof signedInClient>>['client']) {
  const { data } = await client.auth.getSession()
  return data.session!.access_token
}

/** The version of the agent's page (public.agent_page_versions), which the site build keys the page on. */
async function pageVersion(agentId: string): Promise<bigint> {
  const [row] = await sql<{ version: string }>(
    `select version::text from public.agent_page_versions where agent_id = $1`,
    [agentId],
  )
  return BigInt(row?.version ?? '0')
}

/** The code of the newest claim mail to `address`. */
async function mailedCode(address: string): Promise<string> {
  const [message] = await mailTo(address)
  expect(message?.subject).toBe('Your AgentInsight profile claim code')
  return /Your code: (\d{6})/.exec(message!.text_body ?? '')![1]!
}

describe('claiming a profile with the mailed code', () => {
  it('checks the license number, mails a code to the MLS email, approves with the right code and refuses a second claimant', async () => {
    const agent = await agentFixture()
    const owner = await signedInClient()
    const token = await tokenOf(owner.client)

    const wrong = await call('agent-claim', token, { action: 'start', agentId: agent.id, licenseNumber: 'CA-999' })
    expect(wrong).toEqual({
      status: 400,
      body: { error: "That license number does not match the one on this agent's MLS record." },
    })
    expect(await mailTo(agent.email)).toEqual([])

    // case, spaces and punctuation do not matter
    const started = await call('agent-claim', token, { action: 'start', agentId: agent.id, licenseNumber: 'ca0123456' })
    expect(started.status).toBe(200)
    expect(started.body.sentTo).toBe(`${agent.email[0]}•••@example.com`)
    const claimId = started.body.claimId as string
    const [mail] = await mailTo(agent.email)
    expect(mail!.text_body!.split('\n')[0]).toBe('Someone asked to claim your agent profile on AgentInsight.')
    const code = await mailedCode(agent.email)
    // only the HMAC is kept, never the code
    const [stored] = await sql<{ code_hash: string }>(
      `select code_hash from private.agent_claim_codes where claim_id = $1`,
      [claimId],
    )
    expect(stored!.code_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(stored!.code_hash).not.toContain(code)

    const miss = await call('agent-claim', token, {
      action: 'verify',
      claimId,
      code: code === '000000' ? '000001' : '000000',
    })
    expect(miss).toEqual({
      status: 400,
      body: { error: 'That code is not right. You have 4 tries left.', errors: { code: 'That code is not right.' } },
    })

    const verified = await call('agent-claim', token, { action: 'verify', claimId, code })
    expect(verified).toEqual({ status: 200, body: { status: 'approved', agentId: agent.id } })
    const [claim] = await sql<{ status: string; method: string; user_id: string }>(
      `select status, method, user_id from public.agent_claims where id = $1`,
      [claimId],
    )
    expect(claim).toEqual({ status: 'approved', method: 'email_code', user_id: owner.userId })
    const [row] = await sql<{ claimed_at: Date | null }>(`select claimed_at from public.agents where id = $1`, [
      agent.id,
    ])
    expect(row!.claimed_at).toBeInstanceOf(Date)
    expect((await mailTo(owner.email))[0]?.subject).toBe('Your AgentInsight profile claim was approved')
    // the owner reads their claim through the API; the code table is not reachable at all
    const mine = await owner.client.from('agent_claims').select('id, status').eq('id', claimId)
    expect(mine.data).toEqual([{ id: claimId, status: 'approved' }])

    const second = await signedInClient()
    const refused = await call('agent-claim', await tokenOf(second.client), {
      action: 'start',
      agentId: agent.id,
      licenseNumber: 'CA-0123 456',
    })
    expect(refused).toEqual({
      status: 409,
      body: {
        error:
          'This profile has already been claimed by another account. If you are this agent, ask for a review and we will check it by hand.',
      },
    })
    // another user cannot see the owner's claim
    expect((await second.client.from('agent_claims').select('id').eq('id', claimId)).data).toEqual([])

    const audit = await sql<{ actor_id: string; action: string }>(
      `select actor_id, action from public.audit_log where table_name = 'agent_claims' and row_id = $1 order by id`,
      [claimId],
    )
    expect(audit).toEqual([
      { actor_id: owner.userId, action: 'insert' },
      { actor_id: owner.userId, action: 'update' },
    ])
  })

  it('answers 401 without a signed-in user and 400 naming the field for a bad body', async () => {
    expect(
      await call('agent-claim', testEnv.anonKey, { action: 'start', agentId: crypto.randomUUID(), licenseNumber: 'x' }),
    ).toMatchObject({ status: 401, body: { error: 'Sign in to claim or edit an agent profile.' } })
    const user = await signedInClient()
    expect(
      await call('agent-claim', await tokenOf(user.client), { action: 'verify', claimId: 'nope', code: '12' }),
    ).toEqual({
      status: 400,
      body: {
        error: 'claimId must be an id',
        errors: { claimId: 'claimId must be an id', code: 'Enter the 6-digit code from the email' },
      },
    })
  })

  it('says to ask for a review when the MLS record has no license number', async () => {
    const agent = await agentFixture(null)
    const user = await signedInClient()
    expect(
      await call('agent-claim', await tokenOf(user.client), {
        action: 'start',
        agentId: agent.id,
        licenseNumber: 'X1',
      }),
    ).toEqual({
      status: 400,
      body: {
        error:
          'The MLS record of this agent has no license number, so the profile cannot be claimed with a code. Ask for a review instead.',
      },
    })
  })
})

describe('the owner completes the profile', () => {
  it('stores bio, specialties and languages as plain text and refuses every other column', async () => {
    const agent = await agentFixture()
    const owner = await signedInClient()
    await sql(
      `insert into public.agent_claims (agent_id, user_id, status, method, approved_at) values ($1, $2, 'approved', 'admin', now())`,
      [agent.id, owner.userId],
    )
    const before = await pageVersion(agent.id)
    const saved = await owner.client
      .from('agents')
      .update({
        bio: '  <b>Twenty years</b> in   Fresno.\r\n\r\n\r\n<script>alert(1)</script>Call me. ',
        specialties: ['First-time buyers', ' first-time   buyers ', 'Condos'],
        languages: ['English', 'Spanish'],
      })
      .eq('id', agent.id)
      .select('bio, specialties, languages, profile_updated_at')
      .single()
    expect(saved.error).toBeNull()
    expect(saved.data).toMatchObject({
      bio: 'Twenty years in Fresno.\n\nalert(1)Call me.',
      specialties: ['First-time buyers', 'Condos'],
      languages: ['English', 'Spanish'],
    })
    expect(saved.data!.profile_updated_at).not.toBeNull()
    // the page gets a new version, so the next build renders it again
    expect(await pageVersion(agent.id)).toBeGreaterThan(before)

    const renamed = await owner.client.from('agents').update({ name: 'Someone Else' }).eq('id', agent.id).select('id')
    expect(renamed.error).toMatchObject({
      code: 'PT403',
      message:
        'The agent who claimed a profile can change its bio, specialties and languages (and the photo); everything else comes from the MLS.',
    })
    const tooMany = await owner.client
      .from('agents')
      .update({ specialties: Array.from({ length: 11 }, (_, i) => `Specialty ${i}`) })
      .eq('id', agent.id)
      .select('id')
    expect(tooMany.error).toMatchObject({ code: 'PT400', message: 'specialties: List at most 10 specialties.' })

    const stranger = await signedInClient()
    const foreign = await stranger.client.from('agents').update({ bio: 'Not mine' }).eq('id', agent.id).select('id')
    expect(foreign.data).toEqual([])
    const [row] = await sql<{ bio: string; name: string }>(`select bio, name from public.agents where id = $1`, [
      agent.id,
    ])
    expect(row).toEqual({ bio: 'Twenty years in Fresno.\n\nalert(1)Call me.', name: 'Claim Fixture Agent' })

    const [entry] = await sql<{ actor_id: string; after: Record<string, unknown> }>(
      `select actor_id, after from public.audit_log where table_name = 'agents' and row_id = $1 and action = 'update' order by id desc limit 1`,
      [agent.id],
    )
    expect(entry!.actor_id).toBe(owner.userId)
    expect(entry!.after).toMatchObject({ languages: ['English', 'Spanish'] })
  })
})

describe('reviews by an administrator', () => {
  it('rejects with the reason mailed, approves a review by hand, and revokes an approved claim', async () => {
    const agent = await agentFixture()
    const admin = await signedInClient({ admin: true })
    const adminToken = await tokenOf(admin.client)
    const asker = await signedInClient()
    const askerToken = await tokenOf(asker.client)

    const asked = await call('agent-claim', askerToken, {
      action: 'review',
      agentId: agent.id,
      message: 'My MLS email is outdated; call my brokerage at (559) 555-0100.',
    })
    expect(asked.status).toBe(201)
    const claimId = asked.body.claimId as string

    // a user who is no administrator decides nothing
    expect(await call('agent-review', askerToken, { subject: 'claim', id: claimId, decision: 'approve' })).toEqual({
      status: 403,
      body: { error: 'Only administrators decide claims.' },
    })
    expect(await call('agent-review', adminToken, { subject: 'claim', id: claimId, decision: 'reject' })).toEqual({
      status: 400,
      body: {
        error: 'Give a reason: it is mailed to the agent',
        errors: { reason: 'Give a reason: it is mailed to the agent' },
      },
    })
    const rejected = await call('agent-review', adminToken, {
      subject: 'claim',
      id: claimId,
      decision: 'reject',
      reason: 'The brokerage could not confirm <you>.',
    })
    expect(rejected.status).toBe(200)
    expect(rejected.body.mailed).toBeGreaterThanOrEqual(1)
    const [rejection] = await mailTo(asker.email)
    expect(rejection!.subject).toBe('Your AgentInsight profile claim was not approved')
    expect(rejection!.text_body!.split('\n')[0]).toBe(
      'Your claim of an agent profile on AgentInsight was not approved.',
    )
    expect(rejection!.text_body).toContain('The brokerage could not confirm <you>.')
    expect(rejection!.html_body).toContain('The brokerage could not confirm &lt;you&gt;.')

    const again = await call('agent-claim', askerToken, {
      action: 'review',
      agentId: agent.id,
      message: 'Please retry.',
    })
    const approved = await call('agent-review', adminToken, {
      subject: 'claim',
      id: again.body.claimId,
      decision: 'approve',
    })
    expect(approved.status).toBe(200)
    expect(approved.body.decided).toMatchObject({ status: 'approved', method: 'admin', decided_by: admin.userId })
    expect((await mailTo(asker.email))[0]!.subject).toBe('Your AgentInsight profile claim was approved')

    await asker.client.from('agents').update({ bio: 'Owner text' }).eq('id', agent.id)
    const revoked = await call('agent-review', adminToken, {
      subject: 'claim',
      id: again.body.claimId,
      decision: 'revoke',
      reason: 'Claimed by mistake.',
    })
    expect(revoked.status).toBe(200)
    const [row] = await sql<{ claimed_at: Date | null; bio: string | null }>(
      `select claimed_at, bio from public.agents where id = $1`,
      [agent.id],
    )
    expect(row).toEqual({ claimed_at: null, bio: null })
    expect((await mailTo(asker.email))[0]!.subject).toBe('Your AgentInsight profile claim was revoked')

    const trail = await sql<{ actor_id: string; action: string; status: string | null }>(
      `select actor_id, action, after ->> 'status' as status from public.audit_log
        where table_name = 'agent_claims' and row_id = $1 order by id`,
      [again.body.claimId],
    )
    expect(trail).toEqual([
      { actor_id: asker.userId, action: 'insert', status: 'review_requested' },
      { actor_id: admin.userId, action: 'update', status: 'approved' },
      { actor_id: admin.userId, action: 'update', status: 'revoked' },
    ])
  })
})

describe('visibility requests', () => {
  it('the owner asks to hide the phone and leave search engines; an administrator accepts, the agent is mailed and the page changes', async () => {
    const agent = await agentFixture()
    const owner = await signedInClient()
    await sql(
      `insert into public.agent_claims (agent_id, user_id, status, method, approved_at) values ($1, $2, 'approved', 'admin', now())`,
      [agent.id, owner.userId],
    )
    const unchanged = await owner.client
      .from('agent_visibility_requests')
      .insert({ agent_id: agent.id, hide_phone: false, hide_email: false, noindex: false })
    expect(unchanged.error).toMatchObject({ code: 'PT400', message: 'Your profile is already shown this way.' })
    const filed = await owner.client
      .from('agent_visibility_requests')
      .insert({ agent_id: agent.id, hide_phone: true, hide_email: false, noindex: true, note: '<i>Privacy</i> please' })
      .select('id, status, note')
      .single()
    expect(filed.error).toBeNull()
    expect(filed.data).toMatchObject({ status: 'pending', note: 'Privacy please' })
    const stranger = await signedInClient()
    expect(
      (await stranger.client.from('agent_visibility_requests').select('id').eq('id', filed.data!.id)).data,
    ).toEqual([])
    const strangerFiles = await stranger.client
      .from('agent_visibility_requests')
      .insert({ agent_id: agent.id, hide_phone: true, hide_email: true, noindex: true })
    expect(strangerFiles.error).not.toBeNull()

    const before = await pageVersion(agent.id)
    const admin = await signedInClient({ admin: true })
    const accepted = await call('agent-review', await tokenOf(admin.client), {
      subject: 'visibility',
      id: filed.data!.id,
      decision: 'accept',
    })
    expect(accepted.status).toBe(200)
    const [row] = await sql<{ hide_phone: boolean; hide_email: boolean; noindex: boolean }>(
      `select hide_phone, hide_email, noindex from public.agents where id = $1`,
      [agent.id],
    )
    expect(row).toEqual({ hide_phone: true, hide_email: false, noindex: true })
    expect(await pageVersion(agent.id)).toBeGreaterThan(before)
    const [mail] = await mailTo(owner.email)
    expect(mail!.subject).toBe('Your profile visibility request on AgentInsight was accepted')
    expect(mail!.text_body).toContain(
      'Requested: phone number hidden, email address shown, kept out of search engines.',
    )
  })
})
