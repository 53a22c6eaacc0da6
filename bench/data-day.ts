/**
 * `npm run bench:day -- --db <postgres url> [--share 1] [--month]`: one day of new data on a database that already
 * holds data (the stack `npm run bench:search -- ... --keep` leaves, at national size 1,000,000 agents / 12,000,000
 * sales), rolled back, and what it would take to make it live.
 *
 * In one transaction, as an import applies a feed: one more closed sale for `--share` percent of the agents (picked by
 * a hash of their id, so reruns pick the same agents), dated the day after the newest sale as a live feed's day is
 * (the newest sale's own day when the next one would start a new month: the window, whole calendar months, moves then,
 * and that monthly refresh is a full one with every page; `--month` dates them on the first day of the next month
 * instead, to measure that monthly day), then `refresh_agent_metrics()`, then
 * `private.rank_stale_city_pages(wait => true)` (pg_cron's job after the site is live: timed apart, off the path). It
 * counts the pages that got a new version (page versions are what the site builds read): prerendered agent pages,
 * agent pages in all, ZIP pages and city pages (distinct city pages of the ZIPs whose city version moved), then rolls
 * everything back, so the database is as before and the run can be repeated.
 *
 * Prints the times in seconds and the page counts, and a projection of change -> live: insert + refresh + the static
 * build's own costs (`--build-fixed`, seconds; default 114: start, bundle, listing, linking and Astro's bookkeeping of
 * about 600,000 reused pages, from the 100,000-agent `bench:publish -- --static` run scaled by the reused pages) + the
 * pages at `--pages-per-second` (default 200, the full builds' render rate). Figures only: it never fails on time.
 * Run it alone: on two cores anything beside it moves the refresh by a third.
 *
 * Errors: a missing or malformed option throws `Bad arguments: --<option> <what is wrong>` before connecting; an
 * unreachable --db, or a database without the product's schema, ends the run with the driver's message; nothing is
 * committed either way.
 */
import pg from 'pg'
import { parseArgs } from 'node:util'
import { z } from 'zod'

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    share: { type: 'string', default: '1' },
    month: { type: 'boolean', default: false },
    'pages-per-second': { type: 'string', default: '200' },
    'build-fixed': { type: 'string', default: '114' },
  },
})
const parsed = z
  .object({
    db: z.url({
      protocol: /^postgres(ql)?$/,
      error: (issue) =>
        issue.input === undefined
          ? 'is required: the postgres:// URL of a database with data, e.g. the one `bench:search -- --keep` prints'
          : 'must be a postgres:// URL, e.g. the one `bench:search -- --keep` prints',
    }),
    share: z.coerce.number().int().min(1).max(100),
    month: z.boolean(),
    'pages-per-second': z.coerce.number().positive(),
    'build-fixed': z.coerce.number().min(0),
  })
  .safeParse(values)
if (!parsed.success)
  throw new Error(
    `Bad arguments: ${parsed.error.issues.map((issue) => `--${issue.path.join('.')} ${issue.message}`).join('; ')}`,
  )
const { db, share, month, 'pages-per-second': pagesPerSecond, 'build-fixed': buildFixed } = parsed.data

const client = new pg.Client({ connectionString: db })
await client.connect()
const seconds = (since: number) => (performance.now() - since) / 1000
try {
  await client.query('begin')
  console.log('Snapshotting page versions...')
  await client.query(`create temp table day_agents0 on commit drop as
    select agent_id, version from public.agent_page_versions`)
  await client.query(`create temp table day_zips0 on commit drop as
    select zip_code, version, city_version from public.zip_page_versions`)
  await client.query(`create index on day_agents0 (agent_id)`)
  await client.query(`analyze day_agents0`)

  console.log(`Inserting a closed sale for ${share} % of the agents...`)
  let start = performance.now()
  const inserted = await client.query(
    `insert into public.properties (agent_id, list_agent_mls_id, address, city, state, zip_code, list_price, sale_price,
                                    sale_date, days_on_market, property_type, standard_status)
     select a.id, a.mls_id, (row_number() over ()) || ' Data Day St', a.city, a.state, a.primary_zip_code, 400000, 404000,
            (select case when $2 then (date_trunc('month', n.newest) + interval '1 month')::date
                         when extract(day from n.newest + 1) = 1 then n.newest else n.newest + 1 end
               from (select max(sale_date) as newest from public.properties) n),
            21, 'Single Family Residential', 'Closed'
       from public.agents a
      where a.primary_zip_code is not null and abs(hashtext(a.id::text)) % 100 < $1`,
    [share, month],
  )
  const insertS = seconds(start)
  console.log(`  ${inserted.rowCount} sales in ${insertS.toFixed(1)} s`)

  console.log('Refreshing the metrics...')
  start = performance.now()
  const refresh = await client.query<{ agents_updated: number; refresh_kind: string; agents_recomputed: number }>(
    `select agents_updated, refresh_kind, agents_recomputed from public.refresh_agent_metrics()`,
  )
  const refreshS = seconds(start)
  const r = refresh.rows[0]!
  console.log(
    `  ${r.refresh_kind}: ${r.agents_recomputed} agents recomputed, ${r.agents_updated} updated in ${refreshS.toFixed(1)} s`,
  )

  console.log('Ranking the stale city pages (after the site is live)...')
  start = performance.now()
  const ranked = await client.query<{ n: number }>(`select private.rank_stale_city_pages(wait => true) as n`)
  const rankS = seconds(start)
  console.log(`  ${ranked.rows[0]!.n} cities in ${rankS.toFixed(1)} s`)

  const agents = (
    await client.query<{ prerendered: number; all: number }>(
      `select count(*) filter (where v.prerender)::int as prerendered, count(*)::int as all
         from public.agent_page_versions v join day_agents0 o using (agent_id) where v.version <> o.version`,
    )
  ).rows[0]!
  const areas = (
    await client.query<{ zips: number; cities: number }>(
      `select count(*) filter (where z.version <> o.version)::int as zips,
              count(distinct z.city_page_path) filter (where z.city_version <> o.city_version)::int as cities
         from public.zip_page_versions z join day_zips0 o using (zip_code)`,
    )
  ).rows[0]!
  const pages = agents.prerendered + areas.zips + areas.cities
  const renderS = pages / pagesPerSecond
  const liveS = insertS + refreshS + buildFixed + renderS
  console.log(`
Data day (${share} % of the agents with a new closed sale${month ? ' on the first day of a new month' : ''}), rolled back, ${new Date().toISOString()}
| step | seconds |
| --- | --- |
| insert | ${insertS.toFixed(1)} |
| refresh_agent_metrics() | ${refreshS.toFixed(1)} |
| city pages ranked (after live, off the path) | ${rankS.toFixed(1)} |

Pages with a new version: prerendered agent ${agents.prerendered} (agent pages in all ${agents.all}), ZIP ${areas.zips}, city ${areas.cities}: ${pages} to render
Projection change -> live: insert ${insertS.toFixed(0)} s + refresh ${refreshS.toFixed(0)} s + static build's own costs ${buildFixed} s + ${pages} pages at ${pagesPerSecond}/s ${renderS.toFixed(0)} s = ${(liveS / 60).toFixed(1)} min (target < 10 min at 1,000,000 agents)`)
} finally {
  await client.query('rollback').catch(() => {})
  await client.end()
}
