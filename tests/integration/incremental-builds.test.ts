/**
 * Builds that scale with data: the local build hook runs the real Astro build with its incremental build cache
 * (src/integrations/build-report.ts), the page keys coming from the database's page versions
 * (public.agent_page_versions, public.zip_page_versions). A data change renders only the changed agent's page and its
 * ZIP and city pages and reads no other agent's data: the build talks to the API through a proxy that refuses every
 * request naming another fixture agent or their ZIP (tests/support/api-proxy.ts), and the build still succeeds; the
 * reused pages are hard links of the files the served output holds, and the render leaves the served output's page as
 * it was. An
 * agent outside the prerendered set is answered on demand by the local server (the site's Pages worker under
 * workerd), an agent that lost its page answers 404, and a blog publish renders no agent page. What was rendered is
 * read from the build's own report line in site_builds.log_tail.
 */
import fs from 'node:fs'
import type http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAgents, insertPosts, makeSales, unusedZip } from '../support/factories.ts'
import { startBuildHook, type BuildHook } from '../../supabase/local/build-hook/index.ts'
import { siteBuildCommand } from '../../scripts/lib/site-build-hook.ts'
import { startStaticServer } from '../../supabase/local/static-server.ts'
import { freePort } from '../../supabase/local/postgres.ts'
import { startApiProxy, type ApiProxy } from '../support/api-proxy.ts'
import { sql, testEnv } from '../support/env.ts'
import { buildLog, pageVersionsOf, rebuild as rebuildSite } from '../support/site-builds.ts'

const root = path.resolve(import.meta.dirname, '../..')
let work = ''
let builder: BuildHook
let server: http.Server
let proxy: ApiProxy
let base = ''
/** Alpha in ZIP A (Incrementon, VT); Beta and Gamma in ZIP B (Otherton, VT); Nora without sales in ZIP A. */
let fixture: Awaited<ReturnType<typeof createAgents>>
let zipA = ''
let zipB = ''
const slug = `incremental-${Date.now().toString(36)}`

const agentFile = (dir: string, id: string) => path.join(dir, 'agent', id, 'index.html')
/** The pages a build rendered, from its report: group -> count, and the listed paths. */
const report = (log: string) => {
  const line = /Pages built: ([^;]*); reused from the build cache: (\d+)\./.exec(log)
  expect(line, log).not.toBeNull()
  const built = Object.fromEntries(
    line![1]!
      .split(', ')
      .filter((part) => part !== 'none')
      .map((part) => part.split(' ') as [string, string])
      .map(([n, group]) => [group, Number(n)]),
  ) as Record<string, number>
  const rendered = (/Rendered: (.*)/.exec(log)?.[1] ?? '').split(', ').filter(Boolean)
  return { built, reused: Number(line![2]), rendered }
}
/** Every agent page of `dir`: id -> HTML. */
const agentPages = (dir: string) =>
  new Map(
    fs
      .readdirSync(path.join(dir, 'agent'))
      .filter((id) => id !== 'not-found' && fs.existsSync(agentFile(dir, id)))
      .map((id) => [id, fs.readFileSync(agentFile(dir, id), 'utf8')]),
  )
/**
 * Every agent's page version (with `-` for a page that is not prerendered): another test file (running in parallel)
 * may change agents between two builds.
 */
const pageVersions = async () =>
  new Map(
    (
      await sql<{ agent_id: string; version: string }>(
        `select agent_id, version::text || case when prerender then '' else '-' end as version from public.agent_page_versions`,
      )
    ).map((row) => [row.agent_id, row.version]),
  )
/**
 * Agents whose pages may be rebuilt or removed besides the test's own change: their versions differ between two
 * pageVersions() reads, or the build being compared served a page that is no longer prerendered (an agent another
 * file deleted before the first read).
 */
const changedBetween = (before: Map<string, string>, after: Map<string, string>, served: Iterable<string> = []) =>
  new Set([
    ...[...after].filter(([id, version]) => before.get(id) !== version).map(([id]) => id),
    ...[...served].filter((id) => after.get(id)?.endsWith('-') !== false),
  ])
const rebuild = (reason: string) => rebuildSite(builder, reason)

beforeAll(async () => {
  // inside the repository (dist/ is git-ignored): Astro cannot write astro:assets images to an outDir outside it
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true })
  work = fs.mkdtempSync(path.join(root, 'dist', '.incremental-'))
  zipA = await unusedZip()
  do zipB = await unusedZip()
  while (zipB === zipA)
  fixture = await createAgents(
    zipA,
    [
      { name: 'Incremental Alpha', sales: makeSales('Alpha', 3) },
      { name: 'Incremental Beta', sales: makeSales('Beta', 2), zip: zipB },
      { name: 'Incremental Gamma', sales: makeSales('Gamma', 2), zip: zipB },
      // no closed sales in the window: no prerendered page
      { name: 'Incremental Nora', sales: [] },
    ],
    'Incrementon',
    'VT',
  )
  // Beta and Gamma live in another town
  const [, beta, gamma] = fixture.agents
  await sql(`update public.properties set city = 'Otherton' where agent_id = any($1)`, [[beta!.id, gamma!.id]])
  await sql(`update public.agents set city = 'Otherton', zip_code = $2 where id = any($1)`, [
    [beta!.id, gamma!.id],
    zipB,
  ])
  proxy = await startApiProxy(testEnv.url)
  // the page lists name agents only as keyset cursors: never refused
  proxy.alwaysAllow.push('/rest/v1/agent_page_versions', '/rest/v1/zip_page_versions')
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  fs.mkdirSync(path.join(work, 'site'))
  builder = await startBuildHook({
    initialDir: path.join(work, 'site'),
    buildsDir: path.join(work, 'builds'),
    build: siteBuildCommand(
      {
        PUBLIC_SUPABASE_URL: proxy.url,
        PUBLIC_SUPABASE_ANON_KEY: testEnv.anonKey,
        SITE_URL: base,
        // every rendered path in the build log: other files' changes may render more than the default 40 before ours
        BUILD_REPORT_LIST_LIMIT: '100000',
      },
      { publishDir: path.join(work, 'publish'), cacheDir: path.join(work, 'cache') },
    ),
    supabaseUrl: testEnv.url,
    serviceRoleKey: testEnv.serviceRoleKey,
    retireAfterMs: 600_000,
    log: (line) => console.log(`[site-builder] ${line}`),
  })
  server = await startStaticServer({ port, siteDir: () => builder.currentDir(), adminDir: path.join(work, 'admin') })
  // an empty build cache: the first build renders every page
  const log = await rebuild(`${slug}: first build`)
  expect(report(log).reused).toBe(0)
  expect(report(log).built.agent).toBeGreaterThanOrEqual(3)
}, 600_000)

afterAll(async () => {
  await builder?.stop()
  if (server) await new Promise((resolve) => server.close(resolve))
  await proxy?.close()
  await fixture?.remove()
  await sql(`delete from public.blog_posts where slug = $1`, [slug])
  if (work) fs.rmSync(work, { recursive: true, force: true })
})

// every test runs the real Astro build (half a minute or more on a busy 2-core machine)
describe('incremental site builds', { timeout: 600_000 }, () => {
  it("renders only the changed agent and its ZIP and city pages, reading no other agent's data", async () => {
    const [alpha, beta, gamma] = fixture.agents
    /** The versions of the pages this build must not read (Beta's, Gamma's and ZIP B's). */
    const guarded = () => pageVersionsOf([beta!.id, gamma!.id], zipB)
    let served: string
    let before: Map<string, string>
    let versionsBefore: Map<string, string>
    let log: string
    // Another test file's metrics refresh can give every page a new version (a new shrinkage constant changes every
    // agent's figures): then this build must read Beta, Gamma and ZIP B after all. So the builds first catch up with
    // nothing refused, and the measured build is tried again (at most three times) when the guarded pages changed
    // while it ran.
    for (let attempt = 1; ; attempt += 1) {
      const guard = await guarded()
      await rebuild(`${slug}: catch up ${attempt}`)
      served = builder.currentDir()
      before = agentPages(served)
      versionsBefore = await pageVersions()

      await sql(`update public.agents set name = $2 where id = $1`, [
        alpha!.id,
        `Incremental Alpha Renamed${attempt === 1 ? '' : ` ${attempt}`}`,
      ])
      // the other agents' data and their ZIP are not readable during this build: any read of them fails it
      proxy.refuse = new Set([beta!.id, gamma!.id, zipB])
      proxy.requests.length = 0
      const reason = 'agent data changed: agents update'
      try {
        builder.request(reason)
        await builder.idle()
      } finally {
        proxy.refuse = new Set()
      }
      const row = await buildLog(reason)
      if (row.status === 'succeeded' || attempt === 3 || (await guarded()) === guard) {
        expect(row.status, row.log_tail).toBe('succeeded')
        expect(builder.currentDir()).not.toBe(served)
        log = row.log_tail
        break
      }
    }
    const { built, reused, rendered } = report(log)
    expect(proxy.requests.filter((request) => request.refused)).toEqual([])
    // Alpha's own data was read
    expect(
      proxy.requests.some((request) => request.path.startsWith('/rest/v1/agents') && request.path.includes(alpha!.id)),
    ).toBe(true)

    const now = builder.currentDir()
    // agents another test file changed meanwhile may be rendered too; nothing else
    const elsewhere = changedBetween(versionsBefore, await pageVersions(), before.keys())
    elsewhere.delete(alpha!.id)
    expect(rendered).toContain(`/agent/${alpha!.id}`)
    expect(rendered).toContain(`/agents/${zipA}`)
    expect(rendered).toContain('/agents/vt/incrementon')
    expect(rendered).not.toContain(`/agents/${zipB}`)
    expect(rendered).not.toContain('/agents/vt/otherton')
    if (elsewhere.size === 0) {
      // (other test files may publish posts meanwhile: articles and lists are not counted here)
      expect([built.agent, built.city, built.zip]).toEqual([1, 1, 1])
      expect(reused).toBeGreaterThanOrEqual(before.size - 1)
    } else expect(built.agent).toBeLessThanOrEqual(1 + elsewhere.size)
    expect(fs.readFileSync(agentFile(now, alpha!.id), 'utf8')).toContain('Incremental Alpha Renamed')
    // Beta and Gamma were reused: the same HTML, not rendered, and not copied either: the new output's file is a hard
    // link of the build cache's copy (a copy has one link). Not necessarily the served file's inode: when the catch-up
    // build rendered them (another file's refresh), the served output holds that render and the cache its own copy.
    for (const other of [beta!, gamma!]) {
      expect(rendered).not.toContain(`/agent/${other.id}`)
      expect(fs.readFileSync(agentFile(now, other.id), 'utf8')).toBe(before.get(other.id))
      expect(fs.statSync(agentFile(now, other.id)).nlink).toBeGreaterThan(1)
    }
    // rendering Alpha wrote new files: the output served until the swap (still on disk) kept the old page
    expect(fs.readFileSync(agentFile(served, alpha!.id), 'utf8')).toBe(before.get(alpha!.id))
    const response = await fetch(`${base}/agent/${alpha!.id}`)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Incremental Alpha Renamed')
  })

  it('answers an agent outside the prerendered set on demand, from the same page component, out of the sitemap', async () => {
    const [alpha, , , nora] = fixture.agents
    const dir = builder.currentDir()
    expect(fs.existsSync(agentFile(dir, nora!.id))).toBe(false)
    const onDemand = await fetch(`${base}/agent/${nora!.id}`)
    expect(onDemand.status).toBe(200)
    expect(onDemand.headers.get('cache-tag')).toBe(`agent-${nora!.id}`)
    const html = (await onDemand.text()).replaceAll('<!-- -->', '')
    expect(html).toContain('>Incremental Nora</h1>')
    // no closed sales in the window: kept out of search results
    expect(html).toContain('<meta name="robots" content="noindex">')
    // the prerendered page of Alpha has the same layout: the same section headings after the name (Nora has no
    // figures, so her Performance section says so instead of Alpha's per-side groups)
    const headings = (page: string) => [...page.matchAll(/<h2[^>]*>([^<]*)</g)].map((match) => match[1])
    const prerendered = fs.readFileSync(agentFile(dir, alpha!.id), 'utf8').replaceAll('<!-- -->', '')
    expect(prerendered).not.toContain('content="noindex"')
    expect(headings(html)).toEqual(headings(prerendered))
    expect(html).toContain('No closed sales in the window on either side, so there are no figures yet.')
    expect(prerendered).toContain('>Listing side</h3>')
    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text()
    expect(sitemap).toContain(`/agent/${alpha!.id}<`)
    expect(sitemap).not.toContain(nora!.id)
    // an id that is no agent: the agent not-found page with 404
    const unknown = await fetch(`${base}/agent/3f0c1a52-8f0e-4c55-9b7a-0d5a1f5e2c11`)
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toContain('Agent not found')
  })

  it('removes the page of an agent that no longer has figures: its URL answers the agent 404, the sitemap drops it', async () => {
    const gamma = fixture.agents[2]!
    expect((await fetch(`${base}/agent/${gamma.id}`)).status).toBe(200)
    expect(await (await fetch(`${base}/sitemap.xml`)).text()).toContain(`/agent/${gamma.id}<`)

    await sql(`delete from public.properties where agent_id = $1`, [gamma.id])
    await sql(`delete from public.agents where id = $1`, [gamma.id])
    await rebuild('agent data changed: agents delete')

    expect(fs.existsSync(agentFile(builder.currentDir(), gamma.id))).toBe(false)
    const response = await fetch(`${base}/agent/${gamma.id}`)
    expect(response.status).toBe(404)
    expect(await (await fetch(`${base}/sitemap.xml`)).text()).not.toContain(`/agent/${gamma.id}<`)
  })

  it('renders no agent, ZIP or city page for a blog publish, and keeps them in the sitemap', async () => {
    // The versions first, then a build that catches up with them, then the pages: a page whose data another file
    // changed before the versions were read, while its rebuild was still pending, is then served at those versions
    // (read the other way round, the served page could be older than its version, and the publish's build would
    // bring it up to date without counting as a change).
    const versionsBefore = await pageVersions()
    await rebuild(`${slug}: catch up`)
    const served = builder.currentDir()
    const before = agentPages(served)
    expect(before.size).toBeGreaterThanOrEqual(2)
    const zipPage = fs.readFileSync(path.join(served, 'agents', zipA, 'index.html'), 'utf8')

    await insertPosts([{ title: 'Incremental build post', slug, content: '<p>Fresh.</p>', status: 'published' }])
    const log = await rebuild(`post published: ${slug}`)
    const { built, rendered } = report(log)
    // other test files share this database and may publish posts or change agents meanwhile: at least this article is
    // rendered, and an agent page only when its agent changed
    expect(built.article).toBeGreaterThanOrEqual(1)
    expect(rendered).toContain(`/blog/${slug}`)
    const elsewhere = changedBetween(versionsBefore, await pageVersions(), before.keys())
    if (elsewhere.size === 0) expect(built.agent ?? 0).toBe(0)
    expect((built.agent ?? 0) <= elsewhere.size).toBe(true)

    const now = builder.currentDir()
    for (const [id, html] of before) if (!elsewhere.has(id)) expect(agentPages(now).get(id)).toBe(html)
    if (![...elsewhere].some((id) => fixture.agents.some((agent) => agent.id === id)))
      expect(fs.readFileSync(path.join(now, 'agents', zipA, 'index.html'), 'utf8')).toBe(zipPage)
    expect((await fetch(`${base}/blog/${slug}`)).status).toBe(200)
    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text()
    expect(sitemap).toContain(`/blog/${slug}<`)
    expect(sitemap).toContain(`/agent/${fixture.agents[0]!.id}<`)
  })
})
