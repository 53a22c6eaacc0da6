/**
 * `npm run bench:publish`: how long from "Publish" in the admin, and from a data refresh, to the change answering on
 * the public site, with thousands of agent pages present, and how fast an agent page rendered on demand answers.
 *
 * On a throwaway stack (own PostgreSQL cluster in a temp dir, free ports, no edge functions) with the local site
 * builder and static server wired exactly as `npm start` wires them: seed `--posts` published posts and, per size of
 * `--agents`, that many agents with closed sales (40 per ZIP, 10 ZIPs per city, `refresh_agent_metrics()` as the
 * importer runs it), build the whole site once (prerendering the agents among the first 25 of a ZIP page), then:
 *   - on demand: the first byte and the whole answer of up to `--on-demand` agent pages the build did not prerender,
 *     each asked once (uncached: the first answer of each page is rendered), through the local server's Pages worker;
 *   - per run, blog publish: publish a draft through the REST API as an admin (the same update the admin app sends)
 *     and poll the article's URL every 250 ms until it answers 200;
 *   - each change is started once the builder has settled after the one before (its hard-linked spare made, its
 *     worker runtimes started), as a daily import or an editor's publish meets it;
 *   - per run, data refresh: 1 % of the agents change: one more closed sale for every agent of enough whole ZIPs
 *     (a ZIP's market shares move with any sale there, so whole ZIPs keep the change to 1 % of the agent pages), dated
 *     on the newest sale date so the metrics window stays (moving it changes every page), then
 *     `refresh_agent_metrics()`, both in one transaction as an import applies them, and poll one of those agents'
 *     pages until it shows the new sale count (timed from the transaction's start).
 * Prints, per run: the API call, the webhook reaching the builder (site_builds row queued), the build, the total
 * time to live, all in seconds, the pages the build rendered and where the build's time went (wall-clock and CPU
 * seconds per phase; both from its site_builds log lines), with the machine, its
 * load and the data size; with two sizes or more, a projection to a million agents (a straight line through the two
 * largest sizes), next to the targets. Figures, never a pass or fail.
 *
 * Options: `-- --agents 2000,20000` agent counts (default 2000,20000; up to 1,000,000), `-- --posts 1000` published
 * posts (default 1000), `-- --runs 2` runs per path and size (default 1), `-- --on-demand 200` on-demand pages asked
 * per size (default 200), `-- --static` no local patch: every change is the incremental static build a static host
 * runs (what a change costs where the patch is not available, or declines: more than 2,000 pages).
 */
import { createClient } from '@supabase/supabase-js'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { z } from 'zod'
import { adminTarget } from '../scripts/lib/build.ts'
import { rootDir } from '../scripts/lib/env.ts'
import { startBuildHook } from '../supabase/local/build-hook/index.ts'
import { configureBuildHook, siteBuildCommand } from '../scripts/lib/site-build-hook.ts'
import { sitePatcher } from '../scripts/lib/site-patch.ts'
import { startStaticServer } from '../supabase/local/static-server.ts'
import { startThrowawayStack } from '../supabase/local/throwaway-stack.ts'
import { enrollTotp } from '../tests/support/totp.ts'
import type { Database } from '@shared/database.types.ts'
import { freePort } from '../supabase/local/postgres.ts'

const ArgsSchema = z.object({
  runs: z.coerce.number().int().min(1).max(10).default(1),
  agents: z
    .string()
    .default('2000,20000')
    .transform((value) => value.split(',').map(Number))
    .pipe(z.array(z.number().int().min(1).max(1_000_000)).min(1)),
  posts: z.coerce.number().int().min(1).max(20_000).default(1000),
  onDemand: z.coerce.number().int().min(0).max(10_000).default(200),
  static: z.boolean().default(false),
})

function parseArgs(argv: string[]) {
  const raw: Record<string, string> = {}
  const flags: { static?: boolean } = {}
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--static') {
      flags.static = true
      continue
    }
    const match = /^--(runs|agents|posts|on-demand)$/.exec(argv[i]!)
    if (match?.[1] === 'on-demand') {
      raw.onDemand = argv[(i += 1)] ?? ''
      continue
    }
    if (match) raw[match[1]!] = argv[(i += 1)] ?? ''
  }
  const parsed = ArgsSchema.safeParse({ ...raw, ...flags })
  if (!parsed.success)
    throw new Error(
      `Bad arguments: ${parsed.error.issues.map((issue) => `--${issue.path.join('.')} ${issue.message}`).join('; ')}`,
    )
  return parsed.data
}

const seconds = (ms: number) => (ms / 1000).toFixed(1)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const paragraph = (i: number, p: number) =>
  `<p>Benchmark article ${i}, paragraph ${p}: sale-to-list ratio, days on market and months of inventory read for one ZIP code tell a seller more than a national headline. Compare the agent's recent closings in the same price band before signing a listing agreement.</p>`

/** Agents per ZIP and ZIPs per city of the seeded data (a ZIP page lists its agents, a city page its ZIPs). */
const AGENTS_PER_ZIP = 40
const ZIPS_PER_CITY = 10

/**
 * Adds agents `from`..`to` (numbered) with 1-4 closed sales each, in ZIPs 10000 + n / AGENTS_PER_ZIP, one city per
 * ZIPS_PER_CITY ZIPs; the caller runs refresh_agent_metrics().
 */
async function seedAgents(db: pg.Client, from: number, to: number) {
  await db.query(
    `with new_agents as (
       insert into public.agents (name, brokerage, city, state, zip_code, mls_id)
       select 'Bench Agent ' || i, 'Bench Realty ' || (i % 50), 'Benchcity ' || ((i / $3) / $4), 'TX', (10000 + i / $3)::text, 'bench-' || i
         from generate_series($1::int, $2::int) i
       returning id, zip_code, city, (substring(mls_id from 7))::int as n
     )
     insert into public.properties (agent_id, address, city, state, zip_code, list_price, sale_price, sale_date, days_on_market, standard_status, status)
     select a.id, s || ' Bench St #' || a.n, a.city, 'TX', a.zip_code, 400000 + s * 10000 + a.n, 395000 + s * 12000 + a.n,
            current_date - (20 + s * 30 + a.n % 20), 10 + s, 'Closed', 'sold'
       from new_agents a cross join generate_series(1, 1 + a.n % 4) s`,
    [from, to, AGENTS_PER_ZIP, ZIPS_PER_CITY],
  )
}

type Path = 'blog publish' | 'data refresh 1 %'
interface Result {
  agents: number
  path: Path
  run: number
  api: number
  webhook: number
  build: number
  total: number
  pages: string
  /** The build's phases, wall-clock and CPU seconds (its "Build phases" line). */
  phases: string
}

/** The p-th percentile (nearest rank) of `values`. */
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN
}

interface SizeFigures {
  agents: number
  prerendered: number
  fullBuild: number
  onDemand: { pages: number; firstByteP50: number; firstByteP95: number; wholeP95: number } | null
}

async function main() {
  const { runs, agents: agentSizes, posts, onDemand, static: staticOnly } = parseArgs(process.argv.slice(2))
  const sitePort = await freePort()
  const siteUrl = `http://localhost:${sitePort}`
  console.log('Starting a throwaway stack...')
  const stack = await startThrowawayStack({
    prefix: 'agent-insight-bench-publish-',
    siteUrl,
    functions: false,
    seed: false,
  })
  const work = stack.dataDir
  const keys = { anonKey: stack.anonKey, serviceRoleKey: stack.serviceRoleKey }
  const db = new pg.Client({ connectionString: stack.databaseUrl })
  await db.connect()
  const initialDir = path.join(work, 'site')
  fs.mkdirSync(initialDir)
  // the build's publish and cache directories must lie inside the repository (scripts/lib/site-build-hook.ts)
  fs.mkdirSync(path.join(rootDir, 'dist'), { recursive: true })
  const buildWork = fs.mkdtempSync(path.join(rootDir, 'dist', '.bench-publish-'))
  const builder = await startBuildHook({
    initialDir,
    buildsDir: path.join(work, 'site-builds'),
    build: siteBuildCommand(
      { PUBLIC_SUPABASE_URL: stack.apiUrl, PUBLIC_SUPABASE_ANON_KEY: keys.anonKey, SITE_URL: siteUrl },
      { publishDir: path.join(buildWork, 'publish'), cacheDir: path.join(buildWork, 'cache') },
    ),
    supabaseUrl: stack.apiUrl,
    serviceRoleKey: keys.serviceRoleKey,
    // as `npm start`: a data change re-renders only its pages through the served build's worker; with --static every
    // change is the static build a static host runs (build:deploy's incremental Astro build)
    patcher: staticOnly
      ? undefined
      : sitePatcher({
          apiUrl: stack.apiUrl,
          serviceRoleKey: keys.serviceRoleKey,
          anonKey: keys.anonKey,
          buildCacheDir: path.join(buildWork, 'cache'),
        }),
    // drop a replaced directory soon so 20,000 pages are not held twice
    retireAfterMs: 5_000,
    log: (line) => {
      if (!line.startsWith('Building the site')) console.log(`  [builder] ${line}`)
    },
  })
  const server = await startStaticServer({
    port: sitePort,
    siteDir: () => builder.currentDir(),
    adminDir: adminTarget.outDir,
  })

  const admin = createClient<Database>(stack.apiUrl, keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const email = `bench-admin-${Date.now()}@example.com`
  const password = 'correct-horse-battery-42'
  // a confirmed account through the admin API (sign-up needs an email confirmation first), then a password sign-in
  const service = createClient<Database>(stack.apiUrl, keys.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true })
  if (created.error) throw new Error(`Could not create the bench admin: ${created.error.message}`)
  await db.query(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [created.data.user.id])
  const signIn = await admin.auth.signInWithPassword({ email, password })
  if (signIn.error) throw new Error(`Could not sign in the bench admin: ${signIn.error.message}`)
  // every administrator works at aal2: enroll an authenticator app and step up with its code
  await enrollTotp(admin)

  /**
   * Polls `url` every 50 ms until `live(response, body)`; returns ms from `start` and when the webhook arrived. (Every
   * 250 ms until 2026-11-27: those figures include up to a quarter of a second of waiting for the next poll.)
   */
  const waitLive = async (
    start: number,
    url: string,
    marker: string,
    live: (status: number, body: string, headers: Headers) => boolean,
    last: string,
  ) => {
    let webhook = 0
    for (;;) {
      if (!webhook) {
        const queued = await db.query(`select 1 from public.site_builds where id > $1 and trigger_reason like $2`, [
          last,
          `%${marker}%`,
        ])
        if (queued.rowCount) webhook = Date.now() - start
      }
      const response = await fetch(url)
      if (live(response.status, await response.text(), response.headers)) return { webhook, total: Date.now() - start }
      if (Date.now() - start > 15 * 60_000) throw new Error(`${url} did not go live within 15 minutes`)
      await sleep(50)
    }
  }
  /** The newest finished build after `last` asked for with `marker`: its duration and the pages it rendered. */
  const buildOf = async (last: string, marker: string) => {
    await builder.idle()
    const { rows } = await db.query<{ ms: number; log_tail: string | null }>(
      `select extract(epoch from finished_at - started_at) * 1000 as ms, log_tail from public.site_builds
        where id > $1 and trigger_reason like $2 and status = 'succeeded' order by id desc limit 1`,
      [last, `%${marker}%`],
    )
    // a static build's report, or the patcher's when it re-rendered the changed pages without one
    const report =
      /(Pages built|Pages re-rendered without a static build): .*/.exec(rows[0]?.log_tail ?? '')?.[0] ?? 'unknown'
    // why the patcher declined, when a static build followed
    const declined = /Full build: (.*)/.exec(rows[0]?.log_tail ?? '')?.[1]
    const pages = declined ? `${report} (no patch: ${declined})` : report
    const phases =
      /(?:Build phases \(wall \/ CPU s\)|Patch phases \(s\)): (.*)/.exec(rows[0]?.log_tail ?? '')?.[1] ?? 'unknown'
    return { build: Number(rows[0]?.ms ?? NaN), pages, phases }
  }
  const lastBuild = async () =>
    (await db.query<{ last: string }>(`select coalesce(max(id), 0) as last from public.site_builds`)).rows[0]!.last

  const results: Result[] = []
  const sizes: SizeFigures[] = []
  let seededAgents = 0
  try {
    await configureBuildHook(stack.databaseUrl, { hookUrl: null, secret: null, builder: 'local' })
    console.log(`Seeding ${posts} published posts...`)
    await db.query(
      `insert into public.blog_posts (title, slug, excerpt, content, status, published_at)
       select 'Benchmark article ' || i, 'bench-article-' || i, 'Excerpt of benchmark article ' || i || '.', $2,
              'published', now() - make_interval(mins => i)
         from generate_series(1, $1::int) i`,
      [posts, Array.from({ length: 8 }, (_, p) => paragraph(0, p + 1)).join('\n')],
    )
    for (const size of agentSizes) {
      // seed with the hook off, then one build, so the measured changes start from a live site of `size` agents
      await configureBuildHook(stack.databaseUrl, { hookUrl: null, secret: null, builder: 'local' })
      if (size > seededAgents) {
        console.log(`Seeding ${size - seededAgents} agents with closed sales (${size} in all)...`)
        await seedAgents(db, seededAgents + 1, size)
        await db.query(`select public.refresh_agent_metrics()`)
        seededAgents = size
      }
      const prerendered = Number(
        (await db.query<{ n: string }>(`select count(*) as n from public.agent_page_versions where prerender`)).rows[0]!
          .n,
      )
      console.log(`Building the site with ${posts} posts and ${prerendered} prerendered agent pages...`)
      const buildStarted = Date.now()
      // the new agents' pages are rendered, every page already in the build cache is reused
      builder.request(`bench: ${size} agents seeded`)
      await builder.idle()
      const fullBuild = Date.now() - buildStarted
      console.log(`  build ${seconds(fullBuild)} s`)

      // agent pages rendered on demand: each asked once, so each answer is rendered (nothing cached yet)
      const tail = (
        await db.query<{ agent_id: string }>(
          `select v.agent_id from public.agent_page_versions v join public.agents a on a.id = v.agent_id
            where not v.prerender and a.total_sales > 0 order by random() limit $1`,
          [onDemand + 1],
        )
      ).rows.map((row) => row.agent_id)
      let onDemandFigures: SizeFigures['onDemand'] = null
      if (tail.length > 1) {
        // the first answer starts the local Pages runtime (workerd); a host keeps it running
        await (await fetch(`${siteUrl}/agent/${tail[0]}`)).text()
        const firstBytes: number[] = []
        const wholes: number[] = []
        for (const id of tail.slice(1)) {
          const start = performance.now()
          const response = await fetch(`${siteUrl}/agent/${id}`)
          firstBytes.push(performance.now() - start)
          await response.text()
          wholes.push(performance.now() - start)
          if (response.status !== 200) throw new Error(`/agent/${id} answered ${response.status} on demand`)
        }
        onDemandFigures = {
          pages: firstBytes.length,
          firstByteP50: percentile(firstBytes, 50),
          firstByteP95: percentile(firstBytes, 95),
          wholeP95: percentile(wholes, 95),
        }
        console.log(
          `  on demand: ${firstBytes.length} uncached agent pages, first byte p50 ${onDemandFigures.firstByteP50.toFixed(0)} ms, p95 ${onDemandFigures.firstByteP95.toFixed(0)} ms`,
        )
      }
      sizes.push({ agents: size, prerendered, fullBuild, onDemand: onDemandFigures })
      await configureBuildHook(stack.databaseUrl, {
        hookUrl: builder.hookUrl,
        secret: builder.secret,
        builder: 'local',
      })

      /**
       * Waits until the builder has finished what follows a swap (the hard-linked spare of the served site, the worker
       * runtimes started ahead), so each change is timed from a settled builder, as a daily import or an editor's
       * publish meets it, and not while the previous measured change's after-work still takes the two cores.
       */
      const settled = async (label: string) => {
        const started = performance.now()
        await builder.spareReady()
        const waited = (performance.now() - started) / 1000
        if (waited >= 0.05) console.log(`  ${label}: waited ${waited.toFixed(1)} s for the builder to settle`)
      }

      for (let run = 1; run <= runs; run += 1) {
        // blog publish -> live
        const slug = `bench-new-${size}-${run}-${Date.now().toString(36)}`
        const { rows } = await db.query<{ id: string }>(
          `insert into public.blog_posts (title, slug, content, status) values ($1, $2, $3, 'draft') returning id`,
          [`Newly published ${size}/${run}`, slug, paragraph(size, 1)],
        )
        const url = `${siteUrl}/blog/${slug}`
        if ((await fetch(url)).status === 200) throw new Error(`${url} answered before publishing`)
        await settled(`${size} agents, blog publish run ${run}`)
        let last = await lastBuild()
        let start = Date.now()
        const { error } = await admin
          .from('blog_posts')
          .update({ status: 'published', published_at: new Date().toISOString() })
          .eq('id', rows[0]!.id)
          .select('id')
          .single()
        if (error) throw new Error(`Publishing through the API failed: ${error.message}`)
        let api = Date.now() - start
        let live = await waitLive(start, url, slug, (status) => status === 200, last)
        results.push({ agents: size, path: 'blog publish', run, api, ...live, ...(await buildOf(last, slug)) })
        console.log(`  ${size} agents, blog publish run ${run}: live after ${seconds(live.total)} s`)

        // data refresh -> live: 1 % of the agents change (every agent of enough whole ZIPs gets one more closed sale),
        // then the metrics refresh an import runs
        const zipCount = Math.max(1, Math.round((size * 0.01) / AGENTS_PER_ZIP))
        await settled(`${size} agents, data refresh run ${run}`)
        // the new sales and the refresh in one transaction, as an import applies them (scripts/lib/import): one commit,
        // one rebuild request
        last = await lastBuild()
        start = Date.now()
        await db.query('begin')
        const { rows: changed } = await db.query<{ id: string; total_sales: number; prerender: boolean }>(
          `with zips as (
             select zip_code from public.agents where total_sales > 0 group by zip_code order by random() limit $1
           ),
           added as (
             insert into public.properties (agent_id, address, city, state, zip_code, list_price, sale_price, sale_date, days_on_market, standard_status, status)
             select a.id, $2 || ' Refresh Rd #' || a.mls_id, a.city, 'TX', a.zip_code, 500000, 510000,
                    -- on the newest sale date: a later one would move every agent's metrics window, and so every page
                    (select max(sale_date) from public.properties where standard_status = 'Closed'), 12, 'Closed', 'sold'
               from public.agents a join zips z on z.zip_code = a.zip_code
              where a.total_sales > 0
             returning agent_id
           )
           -- prerendered pages first: an agent page rendered on demand shows new data at once
           select a.id, a.total_sales, coalesce(v.prerender, false) as prerender
             from public.agents a left join public.agent_page_versions v on v.agent_id = a.id
            where a.id in (select agent_id from added)
            order by coalesce(v.prerender, false) desc`,
          [zipCount, `${run}-${Date.now()}`],
        )
        const target = changed[0]!
        if (!target.prerender) throw new Error('None of the changed agents has a prerendered page to watch')
        const agentUrl = `${siteUrl}/agent/${target.id}`
        const expected = `: ${target.total_sales + 1} closed sales`
        await db.query(`select public.refresh_agent_metrics()`)
        await db.query('commit')
        api = Date.now() - start
        live = await waitLive(
          start,
          agentUrl,
          'agent data changed',
          // the rebuilt prerendered file (an answer rendered on demand carries a Cache-Tag)
          (status, body, headers) => status === 200 && body.includes(expected) && !headers.has('cache-tag'),
          last,
        )
        results.push({
          agents: size,
          path: 'data refresh 1 %',
          run,
          api,
          ...live,
          ...(await buildOf(last, 'agent data changed')),
        })
        console.log(
          `  ${size} agents (${changed.length} changed), data refresh run ${run}: live after ${seconds(live.total)} s`,
        )
      }
    }
  } finally {
    await configureBuildHook(stack.databaseUrl, { hookUrl: null, secret: null, builder: 'build_hook' }).catch(() => {})
    await builder.stop()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await db.end()
    await stack.stop()
    fs.rmSync(buildWork, { recursive: true, force: true })
  }

  const cpus = os.cpus()
  /** The mean over runs of `path`'s change -> live at `agents`, in ms. */
  const meanLive = (agents: number, path: Path) => {
    const rows = results.filter((row) => row.agents === agents && row.path === path)
    return rows.reduce((sum, row) => sum + row.total, 0) / rows.length
  }
  /** A straight line through the two largest sizes at a million agents; a falling line (noise) counts as flat. */
  const project = (value: (size: SizeFigures) => number) => {
    if (sizes.length < 2) return NaN
    const [a, b] = [...sizes].sort((x, y) => x.agents - y.agents).slice(-2) as [SizeFigures, SizeFigures]
    return value(b) + Math.max(0, (value(b) - value(a)) / (b.agents - a.agents)) * (1_000_000 - b.agents)
  }
  const rate = (size: SizeFigures) => size.prerendered / size.agents
  console.log(`
Publish to live (local builder, incremental Astro static build, ${new Date().toISOString()})
Machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, load average ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}, Node ${process.version}
Data: ${posts} published posts; agents per size as below (${AGENTS_PER_ZIP} per ZIP, ${ZIPS_PER_CITY} ZIPs per city)

| agents | prerendered agent pages | build after seeding (s; the first size from an empty cache) | on-demand pages asked | first byte p50 / p95 (ms) | whole answer p95 (ms) |
| --- | --- | --- | --- | --- | --- |
${sizes
  .map(
    (size) =>
      `| ${size.agents} | ${size.prerendered} | ${seconds(size.fullBuild)} | ${size.onDemand?.pages ?? 0} | ${size.onDemand ? `${size.onDemand.firstByteP50.toFixed(0)} / ${size.onDemand.firstByteP95.toFixed(0)}` : '-'} | ${size.onDemand ? size.onDemand.wholeP95.toFixed(0) : '-'} |`,
  )
  .join('\n')}

| agents | path | run | API call (s) | webhook -> builder (s) | build (s) | change -> live (s) | pages rendered |
| --- | --- | --- | --- | --- | --- | --- | --- |
${results.map((r) => `| ${r.agents} | ${r.path} | ${r.run} | ${(r.api / 1000).toFixed(2)} | ${(r.webhook / 1000).toFixed(2)} | ${seconds(r.build)} | ${seconds(r.total)} | ${r.pages} |`).join('\n')}

Where each build's time went (wall-clock / CPU seconds of the build process; CPU does not depend on the machine's load):
${results.map((r) => `- ${r.agents} agents, ${r.path}, run ${r.run}: ${r.phases}`).join('\n')}
`)
  const targets: [string, string, string][] = []
  for (const size of sizes) {
    const refresh = meanLive(size.agents, 'data refresh 1 %') / 1000
    const publish = meanLive(size.agents, 'blog publish') / 1000
    if (size.agents === 20_000) targets.push(['data refresh 1 % -> live at 20k', `${refresh.toFixed(1)} s`, '< 5 s'])
    if (size.agents === 100_000) {
      targets.push(['data refresh 1 % -> live at 100k', `${refresh.toFixed(1)} s`, '< 60 s'])
      targets.push(['blog publish -> live at 100k', `${publish.toFixed(1)} s`, '< 5 s'])
    }
    if (size.onDemand)
      targets.push([
        `on-demand agent page, first byte p95 (uncached, local) at ${size.agents}`,
        `${size.onDemand.firstByteP95.toFixed(0)} ms`,
        '< 300 ms',
      ])
  }
  if (sizes.length >= 2) {
    const largest = [...sizes].sort((x, y) => x.agents - y.agents).at(-1)!
    // the size-dependent part of any build (listing the pages, restoring the reused ones, starting Astro) grows like
    // a publish build; a 1 % refresh adds rendering its pages, at the render rate of the one build from an empty
    // cache (the first size's: later sizes reuse its pages), its fixed costs included
    const publish1m = project((size) => meanLive(size.agents, 'blog publish'))
    const refreshRuns = results.filter((row) => row.agents === largest.agents && row.path === 'data refresh 1 %')
    const renderedAt = (row: Result) =>
      [...row.pages.matchAll(/(\d+) (agent|zip|city)\b/g)].reduce((sum, match) => sum + Number(match[1]), 0)
    const refreshPages1m =
      (refreshRuns.reduce((sum, row) => sum + renderedAt(row), 0) / Math.max(1, refreshRuns.length)) *
      (1_000_000 / largest.agents)
    const renderRate = sizes[0]!.prerendered / (sizes[0]!.fullBuild / 1000)
    const refresh1m = publish1m + (refreshPages1m / renderRate) * 1000
    const build1m = ((1_000_000 * rate(largest)) / renderRate) * 1000
    targets.push([
      `data refresh 1 % -> live at 1M (projected: publish build ${(publish1m / 1000).toFixed(0)} s + ${refreshPages1m.toFixed(0)} pages at ${renderRate.toFixed(0)} pages/s)`,
      `${(refresh1m / 60_000).toFixed(1)} min`,
      '< 10 min',
    ])
    targets.push([
      `first full build at 1M (projected: ${(rate(largest) * 100).toFixed(0)} % of agents prerendered at ${renderRate.toFixed(0)} pages/s)`,
      `${(build1m / 60_000).toFixed(1)} min`,
      '< 15 min, or the tail on demand (first byte p95 < 300 ms)',
    ])
  }
  if (targets.length) {
    console.log('| target | measured | goal |\n| --- | --- | --- |')
    for (const [name, value, goal] of targets) console.log(`| ${name} | ${value} | ${goal} |`)
  }
}

await main()
