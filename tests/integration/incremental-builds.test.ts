/**
 * Builds that scale with data: the local build hook runs the real Astro build with its incremental build cache
 * (src/integrations/build-report.ts): a data change renders only the changed agent's page and its ZIP and city pages
 * and reuses every other agent page from the cache, an agent that lost its page answers 404, and a blog publish
 * renders no agent page at all. What was rendered is read from the build's own report line in site_builds.log_tail.
 */
import fs from 'node:fs'
import type http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAgents, makeSales, unusedZip } from '../e2e/agent-fixtures.ts'
import { startBuildHook, type BuildHook } from '../../supabase/local/build-hook/index.ts'
import { siteBuildCommand } from '../../scripts/lib/site-build-hook.ts'
import { startStaticServer } from '../../supabase/local/static-server.ts'
import { freePort } from '../../supabase/local/postgres.ts'
import { sql, testEnv } from '../support/env.ts'

const root = path.resolve(import.meta.dirname, '../..')
let work = ''
let builder: BuildHook
let server: http.Server
let base = ''
let fixture: Awaited<ReturnType<typeof createAgents>>
let zip = ''
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
/** The log tail of the newest finished build asked for with `reason`. */
const buildLog = async (reason: string) => {
  const [row] = await sql<{ status: string; log_tail: string }>(
    `select status, log_tail from public.site_builds where trigger_reason = $1 order by id desc limit 1`,
    [reason],
  )
  return row!
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
 * Per agent, the row versions its page is built from that another test file (running in parallel) may change: the
 * agent row (renames, metrics refreshes) and its sales. Not updated_at: it holds the changing transaction's start
 * time, so a long transaction (an import) that began before the test's mark and committed after it slipped past a
 * `updated_at >= mark` check (CI, stop 27).
 */
const agentVersions = async () =>
  new Map(
    (
      await sql<{ id: string; version: string }>(
        `select a.id, a.xmin::text || '/' || coalesce(string_agg(p.id::text || ':' || p.xmin::text, ',' order by p.id), '') as version
           from public.agents a left join public.properties p on p.agent_id = a.id
          group by a.id, a.xmin::text`,
      )
    ).map((row) => [row.id, row.version]),
  )
/**
 * Agents whose versions differ between two agentVersions() reads, new and deleted ones included: their pages may be
 * rebuilt or removed too.
 */
const changedBetween = (before: Map<string, string>, after: Map<string, string>) =>
  new Set([
    ...[...after].filter(([id, version]) => before.get(id) !== version).map(([id]) => id),
    ...[...before.keys()].filter((id) => !after.has(id)),
  ])
const rebuild = async (reason: string) => {
  const before = builder.currentDir()
  builder.request(reason)
  await builder.idle()
  const row = await buildLog(reason)
  expect(row.status, row.log_tail).toBe('succeeded')
  expect(builder.currentDir()).not.toBe(before)
  return row.log_tail
}

beforeAll(async () => {
  // inside the repository (dist/ is git-ignored): Astro cannot write astro:assets images to an outDir outside it
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true })
  work = fs.mkdtempSync(path.join(root, 'dist', '.incremental-'))
  zip = await unusedZip()
  fixture = await createAgents(
    zip,
    [
      { name: 'Incremental Alpha', sales: makeSales('Alpha', 3) },
      { name: 'Incremental Beta', sales: makeSales('Beta', 2) },
      { name: 'Incremental Gamma', sales: makeSales('Gamma', 2) },
    ],
    'Incrementon',
    'VT',
  )
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  fs.mkdirSync(path.join(work, 'site'))
  builder = await startBuildHook({
    initialDir: path.join(work, 'site'),
    buildsDir: path.join(work, 'builds'),
    build: siteBuildCommand(
      { PUBLIC_SUPABASE_URL: testEnv.url, PUBLIC_SUPABASE_ANON_KEY: testEnv.anonKey, SITE_URL: base },
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
  await fixture?.remove()
  await sql(`delete from public.blog_posts where slug = $1`, [slug])
  if (work) fs.rmSync(work, { recursive: true, force: true })
})

// every test runs the real Astro build (half a minute or more on a busy 2-core machine)
describe('incremental site builds', { timeout: 600_000 }, () => {
  it('renders only the changed agent (and its ZIP and city pages) on a data change; other agent pages are reused', async () => {
    const [alpha, beta, gamma] = fixture.agents
    const served = builder.currentDir()
    const before = agentPages(served)
    const homeBefore = fs.readFileSync(path.join(served, 'index.html'), 'utf8')
    const versionsBefore = await agentVersions()

    await sql(`update public.agents set name = 'Incremental Alpha Renamed' where id = $1`, [alpha!.id])
    const log = await rebuild('agent data changed: agents update')
    const { built, reused, rendered } = report(log)

    const now = builder.currentDir()
    // agents another test file changed meanwhile may be rendered too; nothing else
    const versionsAfter = await agentVersions()
    const elsewhere = changedBetween(versionsBefore, versionsAfter)
    // an agent deleted since the served build (before the first read) loses its page in this build too
    for (const id of before.keys()) if (!versionsAfter.has(id)) elsewhere.add(id)
    elsewhere.delete(alpha!.id)
    expect(rendered).toContain(`/agent/${alpha!.id}`)
    expect(rendered).toContain(`/agents/${zip}`)
    expect(rendered).toContain('/agents/vt/incrementon')
    if (elsewhere.size === 0) {
      // (other test files may publish posts meanwhile: articles and lists are not counted here)
      expect([built.agent, built.city, built.zip]).toEqual([1, 1, 1])
      expect(reused).toBeGreaterThanOrEqual(before.size - 1)
    } else expect(built.agent).toBeLessThanOrEqual(1 + elsewhere.size)
    expect(fs.readFileSync(agentFile(now, alpha!.id), 'utf8')).toContain('Incremental Alpha Renamed')
    // Beta and Gamma were reused: the same HTML, not rendered
    for (const other of [beta!, gamma!]) {
      if (elsewhere.has(other.id)) continue
      expect(rendered).not.toContain(`/agent/${other.id}`)
      expect(fs.readFileSync(agentFile(now, other.id), 'utf8')).toBe(before.get(other.id))
    }
    expect(fs.readFileSync(path.join(now, 'index.html'), 'utf8')).toBe(homeBefore)
    const response = await fetch(`${base}/agent/${alpha!.id}`)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Incremental Alpha Renamed')
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
    const served = builder.currentDir()
    const before = agentPages(served)
    expect(before.size).toBeGreaterThanOrEqual(2)
    const zipPage = fs.readFileSync(path.join(served, 'agents', zip, 'index.html'), 'utf8')
    const versionsBefore = await agentVersions()

    await sql(
      `insert into public.blog_posts (title, slug, content, status, published_at) values ('Incremental build post', $1, '<p>Fresh.</p>', 'published', now())`,
      [slug],
    )
    const log = await rebuild(`post published: ${slug}`)
    const { built, rendered } = report(log)
    // other test files share this database and may publish posts or change agents meanwhile: at least this article is
    // rendered, and an agent page only when its agent changed
    expect(built.article).toBeGreaterThanOrEqual(1)
    expect(rendered).toContain(`/blog/${slug}`)
    const versionsAfter = await agentVersions()
    const elsewhere = changedBetween(versionsBefore, versionsAfter)
    // an agent deleted since the served build (before the first read) loses its page in this build too
    for (const id of before.keys()) if (!versionsAfter.has(id)) elsewhere.add(id)
    if (elsewhere.size === 0) expect(built.agent ?? 0).toBe(0)
    expect((built.agent ?? 0) <= elsewhere.size).toBe(true)

    const now = builder.currentDir()
    for (const [id, html] of before) if (!elsewhere.has(id)) expect(agentPages(now).get(id)).toBe(html)
    if (![...elsewhere].some((id) => fixture.agents.some((agent) => agent.id === id)))
      expect(fs.readFileSync(path.join(now, 'agents', zip, 'index.html'), 'utf8')).toBe(zipPage)
    expect((await fetch(`${base}/blog/${slug}`)).status).toBe(200)
    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text()
    expect(sitemap).toContain(`/blog/${slug}<`)
    expect(sitemap).toContain(`/agent/${fixture.agents[1]!.id}<`)
  })
})
