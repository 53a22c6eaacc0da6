/**
 * The demo data generator and seeder on a small run (50 agents): the same seed gives the same records, contact data
 * is fictional, the rows go through the real importer, and every figure shown for an agent traces back to their
 * closed sales. The rows use a per-run source and MLS id prefix (the test database is shared with parallel files);
 * afterAll removes them.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateDemoData } from '../../scripts/lib/demo/generate.ts'
import { demoIdPrefix, seedDemo } from '../../scripts/lib/demo/seed.ts'
import { readRecords } from '../../scripts/lib/import/read-file.ts'
import { sql, testEnv } from '../support/env.ts'

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const prefix = `DT${run}-`
const source = `demo-test-${run}`
const size = { agents: 50, salesPerAgent: 12, idPrefix: prefix }
let dir: string

const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex')

async function records(file: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = []
  for await (const { line, record, problem } of readRecords(file)) {
    if (problem !== undefined) throw new Error(`${file}:${line}: ${problem}`)
    out.push(record)
  }
  return out
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-seed-'))
})

afterAll(async () => {
  await sql(`delete from public.properties where source = $1`, [source])
  await sql(`delete from public.agents where mls_id like $1`, [`${prefix}%`])
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('demo data generator', () => {
  it('gives byte-identical files for the same seed and different ones for another seed', async () => {
    const a = await generateDemoData({ ...size, seed: 'same', outDir: path.join(dir, 'a') })
    const b = await generateDemoData({ ...size, seed: 'same', outDir: path.join(dir, 'b') })
    const c = await generateDemoData({ ...size, seed: 'other', outDir: path.join(dir, 'c') })
    expect(a).toMatchObject({ agents: 50, sales: 600, periodEnd: '2025-09-30' })
    for (const file of ['members', 'properties', 'profiles'] as const) {
      expect(digest(a[file]), file).toBe(digest(b[file]))
      expect(digest(a[file]), file).not.toBe(digest(c[file]))
    }
  })

  it('writes fictional contact data and closed sales inside the 24 months before the period end', async () => {
    const files = await generateDemoData({ ...size, seed: 'contacts', outDir: path.join(dir, 'contacts') })
    const members = await records(files.members)
    expect(members).toHaveLength(50)
    for (const member of members) {
      expect(member.MemberEmail).toMatch(/^[a-z0-9.]+@example\.com$/)
      expect(member.MemberPreferredPhone).toMatch(/^\d{3}-555-01\d{2}$/)
    }
    const sales = await records(files.properties)
    expect(sales).toHaveLength(600)
    // every role of a listing names a generated agent by MemberKey and MemberMlsId alike
    const keys = new Map(members.map((member) => [member.MemberKey, member.MemberMlsId]))
    for (const sale of sales)
      for (const role of ['ListAgent', 'CoListAgent', 'BuyerAgent', 'CoBuyerAgent'])
        if (sale[`${role}Key`] !== undefined && sale[`${role}Key`] !== '')
          expect(keys.get(sale[`${role}Key`]), role).toBe(sale[`${role}MlsId`])
    const dates = sales.map((sale) => String(sale.CloseDate)).sort()
    expect(dates[0]! >= '2023-10-01' && dates.at(-1)! <= '2025-09-30').toBe(true)
    expect(new Set(sales.map((sale) => sale.StandardStatus))).toEqual(new Set(['Closed']))
    // every sale belongs to a generated agent, and each agent works in at most 3 ZIPs
    const ids = new Set(members.map((member) => member.MemberMlsId))
    const zipsByAgent = new Map<unknown, Set<unknown>>()
    for (const sale of sales) {
      expect(ids.has(sale.ListAgentMlsId)).toBe(true)
      zipsByAgent.set(sale.ListAgentMlsId, (zipsByAgent.get(sale.ListAgentMlsId) ?? new Set()).add(sale.PostalCode))
    }
    expect(Math.max(...[...zipsByAgent.values()].map((zips) => zips.size))).toBeLessThanOrEqual(3)
  })
})

describe('seedDemo', () => {
  it('imports through the importer and every agent figure traces to its closed sales', async () => {
    const result = await seedDemo({
      ...size,
      seed: 'seeded',
      databaseUrl: testEnv.databaseUrl,
      source,
      outDir: path.join(dir, 'seed'),
    })
    expect(result.members).toMatchObject({ resource: 'Member', read: 50, rejected: 0, inserted: 50 })
    expect(result.properties).toMatchObject({ resource: 'Property', read: 600, rejected: 0, inserted: 600 })
    expect(result.profilesUpdated).toBe(50)

    const agents = await sql<{
      mls_id: string
      email: string
      bio: string | null
      years_experience: number | null
      total_sales: number
      sales_in_window: number
      local_ranking: number | null
    }>(
      // agents.total_sales counts the sales where the agent had the listing side (list or co-list agent)
      `select a.mls_id, a.email, a.bio, a.years_experience, a.total_sales, a.local_ranking,
              (select count(distinct p.id)::int from public.transaction_sides s join public.properties p on p.id = s.property_id
                where s.agent_id = a.id and s.side = 'listing' and p.standard_status = 'Closed' and p.sale_price > 0
                  and p.sale_date between a.metrics_window_start and a.metrics_window_end) as sales_in_window
       from public.agents a where a.mls_id like $1 order by a.mls_id`,
      [`${prefix}%`],
    )
    expect(agents).toHaveLength(50)
    for (const agent of agents) {
      expect(agent.email, agent.mls_id).toMatch(/@example\.com$/)
      expect(agent.bio, agent.mls_id).toBeTruthy()
      expect(agent.years_experience, agent.mls_id).toBeGreaterThanOrEqual(1)
      expect(agent.total_sales, agent.mls_id).toBe(agent.sales_in_window)
      if (agent.total_sales < 5) expect(agent.local_ranking, agent.mls_id).toBeNull()
    }
    // the run has both kinds of agent, so the two checks above really ran
    expect(agents.some((agent) => agent.total_sales > 0 && agent.total_sales < 5)).toBe(true)
    expect(agents.some((agent) => agent.local_ranking !== null)).toBe(true)
  })

  it('fills every agent role the listings carry, all linked to their agents by Key, with some dual agency', async () => {
    const roles = await sql<{ role: string; sides: number; linked: number }>(
      `select s.role, count(*)::int as sides, count(s.agent_id)::int as linked
       from public.transaction_sides s join public.properties p on p.id = s.property_id
       where p.source = $1 and p.listing_key like $2 group by s.role order by s.role`,
      [source, `${demoIdPrefix(source, 'seeded', prefix)}%`],
    )
    const byRole = Object.fromEntries(roles.map((row) => [row.role, row]))
    expect(byRole.list).toMatchObject({ sides: 600, linked: 600 })
    // about 85 % of sales have a buyer agent, 12 % a co-list agent and 8 % a co-buyer agent
    expect(byRole.buyer!.sides).toBeGreaterThan(450)
    expect(byRole.co_list!.sides).toBeGreaterThan(30)
    expect(byRole.co_buyer!.sides).toBeGreaterThan(20)
    for (const row of roles) expect(row.linked, row.role).toBe(row.sides)
    const [dual] = await sql<{ n: number }>(
      `select count(*)::int as n from public.properties p
       join public.transaction_sides b on b.property_id = p.id and b.role = 'buyer' and b.agent_id = p.agent_id
       where p.source = $1 and p.listing_key like $2`,
      [source, `${demoIdPrefix(source, 'seeded', prefix)}%`],
    )
    expect(dual!.n).toBeGreaterThan(5)
    const [figures] = await sql<{ buyers: number; duals: number; halves: number }>(
      `select count(*) filter (where f.buyer_sales > 0)::int as buyers, count(*) filter (where f.dual_agency_sales > 0)::int as duals,
              count(*) filter (where f.total_sides <> floor(f.total_sides))::int as halves
       from public.agent_figures f join public.agents a on a.id = f.agent_id where a.mls_id like $1`,
      [`${prefix}%`],
    )
    expect(figures!.buyers).toBeGreaterThan(25)
    expect(figures!.duals).toBeGreaterThan(0)
    expect(figures!.halves).toBeGreaterThan(0)
  })

  it('writes the same records again for the same seed: a second seeding changes nothing', async () => {
    const again = await seedDemo({
      ...size,
      seed: 'seeded',
      databaseUrl: testEnv.databaseUrl,
      source,
      outDir: path.join(dir, 'seed-again'),
    })
    expect(again.members).toMatchObject({ inserted: 0, updated: 0, unchanged: 50 })
    expect(again.properties).toMatchObject({ inserted: 0, updated: 0, unchanged: 600 })
    expect(again.profilesUpdated).toBe(0)
  })

  it('seeding with another seed adds its own agents and sales and leaves the existing ones untouched', async () => {
    const first = demoIdPrefix(source, 'seeded', prefix)
    const snapshot = () =>
      sql(
        // identity and own sales; figures depend on the metrics window, which other files' sales may move (it ends
        // at the latest close date in the database), and ZIP rankings move as the other seed's agents join the ZIPs
        `select a.mls_id, a.name, a.email, a.phone, a.bio, a.rating::float8, a.years_experience,
                (select count(*)::int from public.properties p where p.agent_id = a.id) as listings,
                (select count(*)::int from public.transaction_sides s where s.agent_id = a.id) as sides
         from public.agents a where a.mls_id like $1 order by a.mls_id`,
        [`${first}%`],
      )
    const before = await snapshot()
    expect(before).toHaveLength(50)
    const other = await seedDemo({
      ...size,
      seed: 'another seed',
      databaseUrl: testEnv.databaseUrl,
      source,
      outDir: path.join(dir, 'seed-other'),
    })
    expect(other.members).toMatchObject({ read: 50, inserted: 50, updated: 0 })
    expect(other.properties).toMatchObject({ read: 600, inserted: 600, updated: 0 })
    expect(await snapshot()).toEqual(before)
    expect(demoIdPrefix(source, 'another seed', prefix)).not.toBe(first)
  })
})
