/**
 * Per-page change tracking: the triggers on agents, properties, zip_market_benchmarks and agent_zip_sales give an
 * agent page or a ZIP page a new version exactly when the data it prints changes, and keep the prerendered set (agents
 * with a counted sale, either side, in the window among the first 25 a ZIP page lists by sides) current. The site build takes its page keys from
 * these versions (tests/integration/incremental-builds.test.ts builds with them).
 */
import { afterAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import {
  clientDb,
  createAgents,
  insertSales,
  makeSales,
  refreshAgentMetrics,
  unusedZip,
  type Db,
} from '../support/factories.ts'
import { anonClient, sql } from '../support/env.ts'
import { slugify } from '@shared/slug.ts'

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** Agent page versions (and prerender flags) of `ids`. */
async function agentPages(ids: string[], db: Db = sql) {
  const rows = await db<{ agent_id: string; version: string; prerender: boolean }>(
    `select agent_id, version::text, prerender from public.agent_page_versions where agent_id = any($1)`,
    [ids],
  )
  return new Map(rows.map((row) => [row.agent_id, { version: BigInt(row.version), prerender: row.prerender }]))
}

/** A ZIP's version row: the ZIP page's own version and the version of what it gives its city page. */
async function zipPage(zip: string, db: Db = sql) {
  const [row] = await db<{
    version: string
    city_version: string
    city: string | null
    state: string | null
    ranked_agents: number
  }>(
    `select version::text, city_version::text, city, state, ranked_agents from public.zip_page_versions
      where zip_code = $1`,
    [zip],
  )
  return row ? { ...row, version: BigInt(row.version), city_version: BigInt(row.city_version) } : undefined
}

/**
 * Runs `body` in one transaction on its own connection that holds the metrics refresh's lock, so no other test file's
 * refresh runs between its readings (refreshes inside `body` must go through its `db`); committed at the end.
 */
async function underRefreshLock(body: (db: Db) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await client.connect()
  const db = clientDb(client)
  try {
    await db('begin')
    await db(`select pg_advisory_xact_lock(hashtext('public.refresh_agent_metrics'))`)
    await body(db)
    await db('commit')
  } finally {
    await client.end()
  }
}

async function fixtureIn(zip: string, agents: Parameters<typeof createAgents>[1], city = 'Versionville') {
  const fixture = await createAgents(zip, agents, city, 'VT')
  cleanups.push(async () => {
    await fixture.remove()
    await sql(`delete from public.zip_market_benchmarks where zip_code = $1`, [zip])
  })
  return fixture
}

/**
 * Two agents in a fresh home ZIP (the roamer with three sales, the stayer with two) and one more closed sale of the
 * roamer's at `address` in a second fresh ZIP: a change to that sale moves the roamer's figures and nothing the
 * home ZIP ranks by.
 */
async function roamerFixture(prefix: string, address: string) {
  const [home, away] = [await unusedZip(), await unusedZip()]
  const { agents } = await fixtureIn(home, [
    { name: `${prefix} Roamer`, sales: makeSales(`${prefix.replace(/\W/g, '')}Roamer`, 3) },
    { name: `${prefix} Stayer`, sales: makeSales(`${prefix.replace(/\W/g, '')}Stayer`, 2) },
  ])
  const roamer = agents[0]!
  await insertSales([
    {
      agentId: roamer.id,
      address,
      city: 'Versionville',
      state: 'VT',
      zip: away,
      listPrice: 500_000,
      salePrice: 505_000,
      daysAgo: 12,
      daysOnMarket: 9,
      standardStatus: 'Closed',
    },
  ])
  return { home, away, roamer }
}

describe('page versions', () => {
  it('a shown change of an agent gives their page and their ZIP page a new version; an unchanged refresh none', async () => {
    const zip = await unusedZip()
    const { agents } = await fixtureIn(zip, [
      { name: 'Version Alpha', sales: makeSales('VAlpha', 3) },
      { name: 'Version Beta', sales: makeSales('VBeta', 2) },
    ])
    const [alpha, beta] = agents
    const before = await agentPages([alpha!.id, beta!.id])
    const zipBefore = (await zipPage(zip))!
    expect(zipBefore).toMatchObject({ city: 'Versionville', state: 'VT', ranked_agents: 2 })

    // nothing this fixture prints changed: no new versions (other files' refreshes held off, as they can move the
    // window or the shrinkage weight, which every page prints)
    await underRefreshLock(async (db) => {
      await refreshAgentMetrics(db)
      const settled = await agentPages([alpha!.id, beta!.id], db)
      const zipSettled = (await zipPage(zip, db))!.version
      await refreshAgentMetrics(db)
      expect(await agentPages([alpha!.id, beta!.id], db)).toEqual(settled)
      expect((await zipPage(zip, db))!.version).toBe(zipSettled)
    })

    await sql(`update public.agents set brokerage = 'Renamed Realty' where id = $1`, [alpha!.id])
    const after = await agentPages([alpha!.id, beta!.id])
    expect(after.get(alpha!.id)!.version).toBeGreaterThan(before.get(alpha!.id)!.version)
    expect(after.get(beta!.id)!.version).toBe(before.get(beta!.id)!.version)
    // the ZIP page prints the brokerage in its ranking
    expect((await zipPage(zip))!.version).toBeGreaterThan(zipBefore.version)

    // the bookkeeping stamps alone change nothing a page prints
    const stamped = await agentPages([alpha!.id])
    await sql(`update public.agents set updated_at = now() + interval '1 minute' where id = $1`, [alpha!.id])
    expect(await agentPages([alpha!.id])).toEqual(stamped)
  })

  it("the agent's own words, photo and contact preferences change their page only; a name change their ZIP page too", async () => {
    const zip = await unusedZip()
    const { agents } = await fixtureIn(zip, [{ name: 'Version Gamma', sales: makeSales('VGamma', 2) }])
    const gamma = agents[0]!
    let page = (await agentPages([gamma.id])).get(gamma.id)!.version
    const zipVersion = (await zipPage(zip))!.version

    // what only the agent's page prints: a new version of it, none of the ZIP page
    for (const change of [
      `bio = 'Twenty years in Versionville.'`,
      `specialties = array['First-time buyers']`,
      `languages = array['Spanish']`,
      `photo_url = 'https://example.com/gamma.jpg'`,
      `hide_phone = true, hide_email = true`,
    ]) {
      await sql(`update public.agents set ${change} where id = $1`, [gamma.id])
      const next = (await agentPages([gamma.id])).get(gamma.id)!.version
      expect(next, change).toBeGreaterThan(page)
      expect((await zipPage(zip))!.version, change).toBe(zipVersion)
      page = next
    }

    // the name is on both
    await sql(`update public.agents set name = 'Version Gamma-Smith' where id = $1`, [gamma.id])
    expect((await agentPages([gamma.id])).get(gamma.id)!.version).toBeGreaterThan(page)
    expect((await zipPage(zip))!.version).toBeGreaterThan(zipVersion)
  })

  it("the agents row's listing-side ranking, which no page prints, leaves the agent's page alone", async () => {
    const zip = await unusedZip()
    const { agents } = await fixtureIn(zip, [{ name: 'Version Lister', sales: makeSales('VLister', 2) }])
    const lister = agents[0]!
    // under the refresh's lock: another file's refresh that moved the shrinkage weight would give every page a new
    // version between the readings
    await underRefreshLock(async (db) => {
      const page = (await agentPages([lister.id], db)).get(lister.id)!.version
      const zipVersion = (await zipPage(zip, db))!.version

      // what a metrics refresh rewrites for every agent of a ZIP with a new sale (src/lib/agent-page-columns.test.ts
      // checks the site reads none of it)
      await db(
        `update public.agents set local_ranking = 7, market_share = 12.3, total_agents_in_area = 99, metrics_refreshed_at = now()
          where id = $1`,
        [lister.id],
      )
      expect((await agentPages([lister.id], db)).get(lister.id)!.version).toBe(page)
      expect((await zipPage(zip, db))!.version).toBe(zipVersion)

      // the same statement with a printed column changes the page
      await db(
        `update public.agents set local_ranking = 8, years_experience = coalesce(years_experience, 0) + 1 where id = $1`,
        [lister.id],
      )
      expect((await agentPages([lister.id], db)).get(lister.id)!.version).toBeGreaterThan(page)
    })
  })

  it("a closed sale changes its listing agent's page; an active listing or a stamp does not", async () => {
    const zip = await unusedZip()
    const { agents } = await fixtureIn(zip, [{ name: 'Version Seller', sales: makeSales('VSeller', 2) }])
    const seller = agents[0]!
    const first = (await agentPages([seller.id])).get(seller.id)!.version

    await sql(
      `insert into public.properties (agent_id, address, zip_code, list_price, standard_status, status)
       values ($1, '1 Active St', $2, 500000, 'Active', 'active')`,
      [seller.id, zip],
    )
    expect((await agentPages([seller.id])).get(seller.id)!.version).toBe(first)
    await sql(`update public.properties set modification_timestamp = now() where agent_id = $1`, [seller.id])
    expect((await agentPages([seller.id])).get(seller.id)!.version).toBe(first)

    await sql(
      `insert into public.properties (agent_id, address, zip_code, list_price, sale_price, sale_date, standard_status, status)
       values ($1, '2 Closed St', $2, 500000, 510000, current_date - 1, 'Closed', 'sold')`,
      [seller.id, zip],
    )
    const second = (await agentPages([seller.id])).get(seller.id)!.version
    expect(second).toBeGreaterThan(first)
    await sql(`update public.properties set sale_price = 515000 where agent_id = $1 and address = '2 Closed St'`, [
      seller.id,
    ])
    expect((await agentPages([seller.id])).get(seller.id)!.version).toBeGreaterThan(second)
  })

  it("a sale's buyer agent's page changes with the sale, through its transaction side", async () => {
    const zip = await unusedZip()
    const suffix = Date.now().toString(36)
    const { agents } = await fixtureIn(zip, [
      { name: 'Version Lister', mlsId: `VLIST-${suffix}`, sales: makeSales('VLister', 1) },
      { name: 'Version Buyer', mlsId: `VBUY-${suffix}`, sales: [] },
    ])
    const [lister, buyer] = agents
    const first = (await agentPages([buyer!.id])).get(buyer!.id)!.version
    await sql(
      `insert into public.properties (agent_id, address, zip_code, list_price, sale_price, sale_date, standard_status, status, buyer_agent_mls_id)
       values ($1, '9 Side St', $2, 600000, 610000, current_date - 3, 'Closed', 'sold', $3)`,
      [lister!.id, zip, `VBUY-${suffix}`],
    )
    const [side] = await sql<{ agent_id: string }>(
      `select t.agent_id from public.transaction_sides t join public.properties p on p.id = t.property_id
        where p.address = '9 Side St' and p.zip_code = $1 and t.role = 'buyer'`,
      [zip],
    )
    expect(side!.agent_id).toBe(buyer!.id)
    const second = (await agentPages([buyer!.id])).get(buyer!.id)!.version
    expect(second).toBeGreaterThan(first)
    // the price is on the sale, not the side: the buyer's page changes all the same
    await sql(`update public.properties set sale_price = 605000 where address = '9 Side St' and zip_code = $1`, [zip])
    expect((await agentPages([buyer!.id])).get(buyer!.id)!.version).toBeGreaterThan(second)
  })

  it("an agent's new figures give every ZIP page that prints them a new version, its ranking kept", async () => {
    // one more sale of the roamer's, in another ZIP
    const { home, away } = await roamerFixture('Version', '7 Away St')
    await refreshAgentMetrics()
    const homeBefore = (await zipPage(home))!
    const topBefore = await sql(`select agent_id from private.zip_top_agents where zip_code = $1 order by 1`, [home])

    // the away sale's price: the roamer's figures (volume, sale-to-list) change; nothing the home ZIP ranks by does
    await sql(`update public.properties set sale_price = 540000 where address = '7 Away St' and zip_code = $1`, [away])
    await refreshAgentMetrics()
    const homeAfter = (await zipPage(home))!
    expect(homeAfter.version).toBeGreaterThan(homeBefore.version)
    expect(homeAfter).toMatchObject({ city: homeBefore.city, state: homeBefore.state, ranked_agents: 2 })
    expect(await sql(`select agent_id from private.zip_top_agents where zip_code = $1 order by 1`, [home])).toEqual(
      topBefore,
    )
  })

  it("an agent's figures that no ZIP page prints give the agent's page a new version and leave the ZIP pages alone", async () => {
    const { home, away, roamer } = await roamerFixture('Version Quiet', '9 Quiet Away St')
    // Another test file's sales can move the metrics window, which every coverage row (and so every ZIP page)
    // prints; the change and its refresh run holding the refresh's lock, and again when the window moved all the same
    await underRefreshLock(async (db) => {
      const state = async () => {
        const [row] = await db<{ dom: number; window_end: string; ratio: number; n: number }>(
          `select f.days_on_market_mean::float8 as dom, f.window_end::text, f.sale_to_list_mean::float8 as ratio,
                  f.sale_to_list_n as n
           from public.agent_figures f where f.agent_id = $1`,
          [roamer.id],
        )
        return {
          figures: row!,
          agent: (await agentPages([roamer.id], db)).get(roamer.id)!.version,
          home: (await zipPage(home, db))!.version,
          away: (await zipPage(away, db))!.version,
        }
      }
      for (let attempt = 1; ; attempt++) {
        await refreshAgentMetrics(db)
        const before = await state()
        // the away sale's days on market: the roamer's days-on-market figures move; a ZIP page prints the agents'
        // sides, volume and sale-to-list only
        await db(
          `update public.properties set days_on_market = $2 where address = '9 Quiet Away St' and zip_code = $1`,
          [away, 40 + attempt],
        )
        await refreshAgentMetrics(db)
        const after = await state()
        if (after.figures.window_end !== before.figures.window_end && attempt < 3) continue
        expect(after.figures.dom).not.toBe(before.figures.dom)
        expect([after.figures.ratio, after.figures.n]).toEqual([before.figures.ratio, before.figures.n])
        expect(after.agent).toBeGreaterThan(before.agent)
        expect(after.home).toBe(before.home)
        expect(after.away).toBe(before.away)
        break
      }
    })
  })

  it("one more sale in a busy ZIP leaves the pages of the ZIP's other agents alone when what they print is unchanged", async () => {
    const zip = await unusedZip()
    // 630 sales at their list price: Busy 502, Steady 126 (20.0 % of the listings, 10.0 % of the ZIP's sides), Newcomer 2
    const sales = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, index) => ({
        address: `${index + 1} ${prefix} Busy St`,
        daysAgo: 5 + (index % 600),
        listPrice: 400_000 + index * 100,
        salePrice: 400_000 + index * 100,
        daysOnMarket: 10,
      }))
    const { agents } = await fixtureIn(zip, [
      { name: 'Version Busy', sales: sales('VBusy', 502) },
      { name: 'Version Steady', sales: sales('VSteady', 126) },
      { name: 'Version Newcomer', sales: sales('VNewcomer', 2) },
    ])
    const [, steady, newcomer] = agents
    // Other test files add agents and sales and refresh beside this one; every agent's page prints the window (some
    // files refresh over another) and the shrinkage weight k, estimated from all agents. So the sale and its refresh run
    // in one transaction holding the refresh's lock (no other refresh comes between the readings), and when k moved
    // all the same (another file's sales, committed in between, were refreshed with this one) the sale is taken out and
    // the case run again.
    const steadyFigures = async (db: Db) =>
      (
        await db<{ zip_market_share: number; market_share: number; zip_closed_sales: number; k: number }>(
          `select f.zip_market_share::float8 as zip_market_share, a.market_share::float8 as market_share,
                  (select zc.closed_sales from public.zip_sales_coverage zc where zc.zip_code = f.primary_zip_code)
                    as zip_closed_sales, f.sale_to_list_shrink_k::float8 as k
           from public.agent_figures f join public.agents a on a.id = f.agent_id where f.agent_id = $1`,
          [steady!.id],
        )
      )[0]!
    await underRefreshLock(async (db) => {
      for (let attempt = 1; ; attempt++) {
        await refreshAgentMetrics(db)
        const before = await agentPages([steady!.id, newcomer!.id], db)
        const figuresBefore = await steadyFigures(db)
        const [saleId] = await insertSales(
          [
            {
              agentId: newcomer!.id,
              address: '3 VNewcomer Busy St',
              city: 'Versionville',
              state: 'VT',
              zip,
              listPrice: 410_000,
              salePrice: 410_000,
              daysAgo: 6,
              daysOnMarket: 10,
              standardStatus: 'Closed',
            },
          ],
          db,
        )
        await refreshAgentMetrics(db)
        const after = await agentPages([steady!.id, newcomer!.id], db)
        const figures = await steadyFigures(db)
        if (figures.k !== figuresBefore.k && attempt < 3) {
          await db(`delete from public.properties where id = $1`, [saleId])
          continue
        }
        expect(after.get(newcomer!.id)!.version).toBeGreaterThan(before.get(newcomer!.id)!.version)
        // Steady's shares moved from 20.00 % to 19.97 % of the listings and from 10.00 % to 9.98 % of the sides: 20.0 %
        // and 10.0 % to one decimal, as shown; the ZIP's mean sale-to-list (the prior) stayed 100 %; only the ZIP's
        // count of closed sales, which the page does not print, moved
        expect(figures).toEqual({ zip_market_share: 10, market_share: 20, zip_closed_sales: 631, k: figuresBefore.k })
        expect(after.get(steady!.id)!.version).toBe(before.get(steady!.id)!.version)
        break
      }
    })
  })

  it('two transactions recomputing the same ZIP page both commit: the second waits, then skips the rows the first wrote', async () => {
    const zip = await unusedZip()
    await fixtureIn(zip, [
      { name: 'Version Twice A', sales: makeSales('VTwiceA', 2) },
      { name: 'Version Twice B', sales: makeSales('VTwiceB', 1) },
    ])
    const [first, second] = [1, 2].map(() => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL }))
    await first!.connect()
    await second!.connect()
    try {
      const secondPid = (await second!.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
      await first!.query('begin')
      await first!.query('select private.touch_zip_pages_now($1)', [[zip]])
      await second!.query('begin')
      const secondTouch = second!.query('select private.touch_zip_pages_now($1)', [[zip]]).then(
        () => 'committed',
        (error: Error) => error.message,
      )
      // the second waits for the first's rows (a benchmark edit meeting a refresh's end)
      for (let tries = 0; ; tries++) {
        const [waiting] = await sql<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`,
          [secondPid],
        )
        if (waiting!.n === 1) break
        if (tries > 100) throw new Error('the second transaction never waited for the first')
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      await first!.query('commit')
      expect(await secondTouch).toBe('committed')
      await second!.query('commit')
    } finally {
      await first!.end()
      await second!.end()
    }
    expect(await sql(`select count(*)::int as n from private.zip_top_agents where zip_code = $1`, [zip])).toEqual([
      { n: 2 },
    ])
  })

  it('a benchmark changes its ZIP page, its place, and the pages of agents whose primary ZIP it is', async () => {
    const zip = await unusedZip()
    const { agents } = await fixtureIn(zip, [{ name: 'Version Local', sales: makeSales('VLocal', 2) }])
    const local = agents[0]!
    const agentBefore = (await agentPages([local.id])).get(local.id)!.version
    const zipBefore = (await zipPage(zip))!
    await sql(
      `insert into public.zip_market_benchmarks (zip_code, city, state, period_end, median_sale_price, avg_sale_to_list_fraction, median_dom, homes_sold)
       values ($1, 'Benchmark City', 'NH', '2026-09-30', 455000, 1.01, 20, 30)`,
      [zip],
    )
    expect((await agentPages([local.id])).get(local.id)!.version).toBeGreaterThan(agentBefore)
    const zipAfter = (await zipPage(zip))!
    expect(zipAfter.version).toBeGreaterThan(zipBefore.version)
    expect([zipAfter.city, zipAfter.state]).toEqual(['Benchmark City', 'NH'])
  })

  it("an agent's new figures give a ZIP's city version a new value only where the city page prints the agent", async () => {
    // a crowded ZIP of a city of its own: 25 agents with three sales each print there; two outsiders with one sale
    // there each are 26th. The printed outsider has five more sales in a second ZIP of the city (first there, and
    // with six sales the only agent ranked on the city page: the crowd's three sales each are too few); the quiet
    // outsider has no other sale in the city. Each outsider's other sale is in a ZIP placed elsewhere by its benchmark
    const city = `Crowdtown ${Math.random().toString(36).slice(2, 7)}`
    const [crowded, second, elsewhere] = [await unusedZip(), await unusedZip(), await unusedZip()]
    const { agents } = await fixtureIn(
      crowded,
      [
        ...Array.from({ length: 25 }, (_, index) => ({
          name: `Version Crowd ${String(index).padStart(2, '0')}`,
          sales: makeSales(`VCrowd${index}`, 3),
        })),
        { name: 'Version Printed Outsider', sales: makeSales('VPrintedOut', 5), zip: second },
        { name: 'Version Quiet Outsider', sales: makeSales('VQuietOut', 1) },
      ],
      city,
    )
    const [printed, quiet] = [agents[25]!, agents[26]!]
    await sql(
      `insert into public.zip_market_benchmarks (zip_code, city, state, period_end) values ($1, 'Elsewhere', 'VT', current_date)`,
      [elsewhere],
    )
    cleanups.push(async () => {
      await sql(`delete from public.zip_market_benchmarks where zip_code = $1`, [elsewhere])
    })
    const sale = (agentId: string, address: string, zip: string) => ({
      agentId,
      address,
      city,
      state: 'VT',
      zip,
      listPrice: 500_000,
      salePrice: 505_000,
      daysAgo: 15,
      daysOnMarket: 11,
      standardStatus: 'Closed' as const,
    })
    await insertSales([
      sale(printed.id, '1 Printed Crowded St', crowded),
      sale(printed.id, '1 Printed Elsewhere St', elsewhere),
      sale(quiet.id, '1 Quiet Elsewhere St', elsewhere),
    ])
    const path = `vt/${slugify(city)}`
    await underRefreshLock(async (db) => {
      for (let attempt = 1; ; attempt++) {
        await refreshAgentMetrics(db)
        // the refresh marked the cities of the ZIPs it recomputed stale; the job after the site is live ranks them
        await db(`select private.rank_stale_city_pages(wait => true)`)
        const tops = async (agentId: string) => ({
          zips: (
            await db<{ zip_code: string }>(
              `select zip_code from private.zip_top_agents where agent_id = $1 order by 1`,
              [agentId],
            )
          ).map((row) => row.zip_code),
          cities: (
            await db<{ city_page_path: string }>(
              `select city_page_path from private.city_top_agents where agent_id = $1 order by 1`,
              [agentId],
            )
          ).map((row) => row.city_page_path),
        })
        expect(await tops(printed.id)).toEqual({ zips: [second, elsewhere].sort(), cities: [path] })
        expect(await tops(quiet.id)).toEqual({ zips: [elsewhere], cities: [] })
        expect((await zipPage(crowded, db))!.city).toBe(city)
        // the window and the shrinkage weight k (a whole number of sales, from the data) give every page a new
        // version when they move; other files' sales can move them, and these sales' prices can move k
        const refreshState = async () =>
          (
            await db<{ window_end: string; k: number }>(
              `select f.window_end::text,
                      (select r.sale_to_list_shrink_k from public.figures_refreshes r
                        order by r.refreshed_at desc, r.id desc limit 1)::float8 as k
                 from public.agent_figures f where f.agent_id = $1`,
              [printed.id],
            )
          )[0]!
        const pages = async () => ({ crowded: (await zipPage(crowded, db))!, second: (await zipPage(second, db))! })
        const before = await refreshState()
        const start = await pages()
        // the quiet outsider's sale-to-list mean moves (its sale elsewhere); no page of the city prints it
        await db(`update public.properties set sale_price = $1 where address = '1 Quiet Elsewhere St'`, [
          505_000 + 500 * attempt,
        ])
        await refreshAgentMetrics(db)
        const afterQuiet = await pages()
        // the printed outsider's sale-to-list mean moves; in the city nothing anyone ranks by
        await db(`update public.properties set sale_price = $1 where address = '1 Printed Elsewhere St'`, [
          505_000 + 500 * attempt,
        ])
        await refreshAgentMetrics(db)
        const afterPrinted = await pages()
        // the city's first 25 waits to be ranked again (its ZIPs were recomputed): until then the city page counts as
        // printing every agent with a side there, so the quiet outsider's figure moves the crowded ZIP's city version
        await db(`select private.mark_city_pages_stale(array[$1])`, [path])
        await db(`update public.properties set sale_price = $1 where address = '1 Quiet Elsewhere St'`, [
          505_000 + 500 * attempt + 250,
        ])
        await refreshAgentMetrics(db)
        const afterStale = await pages()
        const ranked = await db<{ n: number }>(`select private.rank_stale_city_pages(wait => true) as n`)
        const stale = await db<{ n: number }>(
          `select count(*)::int as n from private.city_pages_stale where city_page_path = $1`,
          [path],
        )
        const after = await refreshState()
        if ((after.window_end !== before.window_end || after.k !== before.k) && attempt < 3) continue
        expect(afterQuiet).toEqual(start)
        // ZIP pages: the crowded one does not print the printed outsider, the second does
        expect(afterPrinted.crowded.version).toBe(start.crowded.version)
        expect(afterPrinted.second.version).toBeGreaterThan(start.second.version)
        // the city page prints the printed outsider: its ZIPs where the outsider has a side get a new city version
        expect(afterPrinted.crowded.city_version).toBeGreaterThan(start.crowded.city_version)
        expect(afterPrinted.second.city_version).toBeGreaterThan(start.second.city_version)
        // stale: the crowded ZIP's city version moves for the quiet outsider, its own version does not; the ranking
        // clears the mark
        expect(afterStale.crowded.version).toBe(afterPrinted.crowded.version)
        expect(afterStale.crowded.city_version).toBeGreaterThan(afterPrinted.crowded.city_version)
        expect(afterStale.second).toEqual(afterPrinted.second)
        expect(ranked[0]!.n).toBeGreaterThanOrEqual(1)
        expect(stale).toEqual([{ n: 0 }])
        break
      }
    })
  })

  it('prerenders the first 25 agents of each ZIP page with closed sales, and follows the ranking', async () => {
    const zip = await unusedZip()
    // 26 agents: the first 25 with three sales, the last with two; one more agent without sales
    const ranked = Array.from({ length: 26 }, (_, index) => ({
      name: `Version Ranked ${String(index).padStart(2, '0')}`,
      sales: makeSales(`VRanked${index}`, index < 25 ? 3 : 2),
    }))
    const { agents } = await fixtureIn(zip, [...ranked, { name: 'Version Idle', sales: [] }])
    const ids = agents.map((agent) => agent.id)
    const last = agents[25]!
    const idle = agents[26]!
    let pages = await agentPages(ids)
    expect(agents.slice(0, 25).every((agent) => pages.get(agent.id)!.prerender)).toBe(true)
    expect(pages.get(last.id)!.prerender).toBe(false)
    expect(pages.get(idle.id)!.prerender).toBe(false)
    expect((await zipPage(zip))!.ranked_agents).toBe(26)

    // the 26th sells twice more and moves up; the lowest of the others (ties go by name) drops out
    for (const address of ['1 Climb St', '2 Climb St'])
      await sql(
        `insert into public.properties (agent_id, address, zip_code, list_price, sale_price, sale_date, standard_status, status)
         values ($1, $2, $3, 400000, 400000, current_date - 2, 'Closed', 'sold')`,
        [last.id, address, zip],
      )
    await sql(`select public.refresh_agent_metrics()`)
    pages = await agentPages(ids)
    expect(pages.get(last.id)!.prerender).toBe(true)
    // the 25 have the same sides and volume there: the name decides, and the last by name is the one left out
    expect(agents.slice(0, 25).filter((agent) => !pages.get(agent.id)!.prerender)).toEqual([agents[24]])

    // a deleted agent keeps its row, so a cache of the page can tell it changed; it is no longer prerendered
    const before = pages.get(last.id)!.version
    await sql(`delete from public.properties where agent_id = $1`, [last.id])
    await sql(`delete from public.agents where id = $1`, [last.id])
    const gone = (await agentPages([last.id])).get(last.id)!
    expect(gone.prerender).toBe(false)
    expect(gone.version).toBeGreaterThan(before)
    // 25 ranked agents are left: all of them are prerendered again
    pages = await agentPages(ids)
    expect(agents.slice(0, 25).filter((agent) => !pages.get(agent.id)!.prerender)).toEqual([])
  })

  it('a ZIP page ranks both sides: buyer sides change its version, list a buyer-only agent, and get them prerendered', async () => {
    const zip = await unusedZip()
    const suffix = Date.now().toString(36)
    const buyerMls = `VBSIDE-${suffix}`
    const { agents } = await fixtureIn(zip, [
      { name: 'Version Side Lister', sales: makeSales('VSideLister', 3) },
      { name: 'Version Side Buyer', mlsId: buyerMls, sales: [] },
    ])
    const [lister, buyer] = agents
    // the buyer agent brings the buyer of one of the lister's sales; nothing they list
    await sql(`update public.properties set buyer_agent_mls_id = $1 where agent_id = $2 and address = $3`, [
      buyerMls,
      lister!.id,
      '100 VSideLister St',
    ])
    await sql(`select public.refresh_agent_metrics()`)
    const [listed] = await sql<{ buyer_sales: number; total_sales: number; closed_sales: number }>(
      `select buyer_sales, total_sales, closed_sales from public.agent_zip_sales where zip_code = $1 and agent_id = $2`,
      [zip, buyer!.id],
    )
    expect(listed).toEqual({ buyer_sales: 1, total_sales: 1, closed_sales: 0 })
    const zipBefore = (await zipPage(zip))!
    // the page lists both agents, and both are among its first 25: prerendered, the buyer agent too
    expect(zipBefore.ranked_agents).toBe(2)
    let pages = await agentPages([lister!.id, buyer!.id])
    expect([pages.get(lister!.id)!.prerender, pages.get(buyer!.id)!.prerender]).toEqual([true, true])

    // one more buyer side (no listing side changes): the ZIP page's ranking changes with the refresh
    await sql(`update public.properties set buyer_agent_mls_id = $1 where agent_id = $2 and address = $3`, [
      buyerMls,
      lister!.id,
      '101 VSideLister St',
    ])
    await sql(`select public.refresh_agent_metrics()`)
    expect((await zipPage(zip))!.version).toBeGreaterThan(zipBefore.version)

    // a ZIP where nobody had the listing side (a sale without a known list agent) has a page too
    const otherZip = await unusedZip()
    cleanups.push(async () => {
      await sql(`delete from public.properties where zip_code = $1`, [otherZip])
    })
    await sql(
      `insert into public.properties (address, city, state, zip_code, list_price, sale_price, sale_date, standard_status, status, buyer_agent_mls_id)
       values ('7 Buyer Only St', 'Versionville', 'VT', $1, 500000, 505000, current_date - 4, 'Closed', 'sold', $2)`,
      [otherZip, buyerMls],
    )
    await sql(`select public.refresh_agent_metrics()`)
    expect(await zipPage(otherZip)).toMatchObject({ ranked_agents: 1, city: 'Versionville', state: 'VT' })

    // the buyer agent's page compares with the ZIP of most of their sides: its benchmark is read and tracked
    const [compared] = await sql<{ figures_zip: string | null; listing_zip: string | null }>(
      `select f.primary_zip_code as figures_zip, a.primary_zip_code as listing_zip
         from public.agent_figures f join public.agents a on a.id = f.agent_id where f.agent_id = $1`,
      [buyer!.id],
    )
    expect(compared).toEqual({ figures_zip: zip, listing_zip: null })
    pages = await agentPages([buyer!.id])
    await sql(
      `insert into public.zip_market_benchmarks (zip_code, city, state, period_end, median_sale_price, avg_sale_to_list_fraction, median_dom, homes_sold)
       values ($1, 'Versionville', 'VT', '2026-09-30', 455000, 1.01, 20, 30)`,
      [zip],
    )
    expect((await agentPages([buyer!.id])).get(buyer!.id)!.version).toBeGreaterThan(pages.get(buyer!.id)!.version)
    const { data, error } = await anonClient().rpc('agent_page_benchmarks', { agent_ids: [buyer!.id] })
    expect(error).toBeNull()
    expect(data!.map((row) => row.zip_code)).toEqual([zip])
  })

  it('prerenders the first 25 a ZIP page lists by sides: a buyer agent with more sides moves a listing agent out', async () => {
    const zip = await unusedZip()
    const suffix = Date.now().toString(36)
    // 25 listing agents with 2 sales each, and a buyer agent who brings the buyers of 3 of their sales
    const buyerMls = `VBTOP-${suffix}`
    const listers = Array.from({ length: 25 }, (_, index) => ({
      name: `Version Top ${String(index).padStart(2, '0')}`,
      sales: makeSales(`VTop${index}`, 2),
    }))
    const { agents } = await fixtureIn(zip, [...listers, { name: 'Version Top Buyer', mlsId: buyerMls, sales: [] }])
    const buyer = agents[25]!
    let pages = await agentPages(agents.map((agent) => agent.id))
    expect(agents.filter((agent) => pages.get(agent.id)!.prerender)).toHaveLength(25)
    expect(pages.get(buyer.id)!.prerender).toBe(false)

    for (const index of [0, 1, 2])
      await sql(`update public.properties set buyer_agent_mls_id = $1 where agent_id = $2 and address = $3`, [
        buyerMls,
        agents[index]!.id,
        `100 VTop${index} St`,
      ])
    await sql(`select public.refresh_agent_metrics()`)
    pages = await agentPages(agents.map((agent) => agent.id))
    // 3 buyer sides beat every lister's 2 listing sides; the last lister by name (equal sides and volume) drops out
    expect(pages.get(buyer.id)!.prerender).toBe(true)
    expect(
      agents
        .slice(0, 25)
        .filter((agent) => !pages.get(agent.id)!.prerender)
        .map((agent) => agent.name),
    ).toEqual(['Version Top 24'])
  })

  it('anyone reads the versions (the build does, with the anon key); nobody writes them through the API', async () => {
    const zip = await unusedZip()
    const { agents } = await fixtureIn(zip, [{ name: 'Version Public', sales: makeSales('VPublic', 1) }])
    const anon = anonClient()
    const { data, error } = await anon
      .from('agent_page_versions')
      .select('agent_id, version, prerender')
      .eq('agent_id', agents[0]!.id)
    expect(error).toBeNull()
    expect(data).toEqual([{ agent_id: agents[0]!.id, version: expect.any(Number), prerender: true }])
    const write = await anon.from('agent_page_versions').update({ version: 1 }).eq('agent_id', agents[0]!.id)
    expect(write.error?.code).toBe('42501')
  })

  it("anyone reads the benchmarks of agents' primary ZIPs, for at most 100 agents a call", async () => {
    const zip = await unusedZip()
    const { agents } = await fixtureIn(zip, [{ name: 'Version Benchmarked', sales: makeSales('VBench', 2) }])
    await sql(
      `insert into public.zip_market_benchmarks (zip_code, city, state, period_end, median_sale_price, avg_sale_to_list_fraction, median_dom, homes_sold)
       values ($1, 'Versionville', 'VT', '2026-09-30', 455000, 1.01, 20, 30)`,
      [zip],
    )
    const anon = anonClient()
    const { data, error } = await anon.rpc('agent_page_benchmarks', {
      agent_ids: [agents[0]!.id, crypto.randomUUID()],
    })
    expect(error).toBeNull()
    expect(data!.map((row) => [row.zip_code, row.city, Number(row.median_sale_price)])).toEqual([
      [zip, 'Versionville', 455000],
    ])
    const tooMany = await anon.rpc('agent_page_benchmarks', {
      agent_ids: Array.from({ length: 101 }, () => crypto.randomUUID()),
    })
    expect(tooMany.error?.code).toBe('22023')
    expect(tooMany.error?.message).toBe('agent_ids must name at most 100 agents')
  })
})
