/**
 * Builds that scale with data (src/lib/build-scope.ts, supabase/local/site-merge.ts): with the real Astro
 * build behind the local site builder, a data change renders only the changed agent's pages and links every other
 * agent page unchanged (same inode and mtime), an agent that lost its page answers 404, and a blog publish renders
 * no agent page at all.
 */
import fs from 'node:fs'
import type http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAgents, makeSales, unusedZip } from '../e2e/agent-fixtures.ts'
import { startSiteBuilder, type SiteBuilder } from '../../supabase/local/site-builder.ts'
import { STATE_FILE } from '../../supabase/local/site-merge.ts'
import { startStaticServer } from '../../supabase/local/static-server.ts'
import { freePort } from '../../supabase/local/postgres.ts'
import { sql, testEnv } from '../support/env.ts'

const root = path.resolve(import.meta.dirname, '../..')
let work = ''
let builder: SiteBuilder
let server: http.Server
let base = ''
let fixture: Awaited<ReturnType<typeof createAgents>>
let zip = ''
/** agentVersions() just before the first build, the served state the data build starts from. */
let versionsAtFirstBuild = new Map<string, string>()
const slug = `incremental-${Date.now().toString(36)}`

const agentFile = (dir: string, id: string) => path.join(dir, 'agent', id, 'index.html')
const identity = (file: string) => {
  const stat = fs.statSync(file)
  return { ino: stat.ino, mtimeMs: stat.mtimeMs, body: fs.readFileSync(file, 'utf8') }
}
/** The log tail of the newest finished build asked for with `reason`. */
const buildLog = async (reason: string) => {
  const [row] = await sql<{ status: string; log_tail: string }>(
    `select status, log_tail from public.site_builds where trigger_reason = $1 order by id desc limit 1`,
    [reason],
  )
  return row!
}
/** Every agent page of `dir`: id -> identity. */
const agentPages = (dir: string) =>
  new Map(
    fs
      .readdirSync(path.join(dir, 'agent'))
      .filter((id) => id !== 'not-found' && fs.existsSync(agentFile(dir, id)))
      .map((id) => [id, identity(agentFile(dir, id))]),
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
/** Agents whose versions differ between two agentVersions() reads, new ones included: their pages may be rebuilt too. */
const changedBetween = (before: Map<string, string>, after: Map<string, string>) =>
  new Set([...after].filter(([id, version]) => before.get(id) !== version).map(([id]) => id))
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
  builder = await startSiteBuilder({
    initialDir: path.join(work, 'site'),
    buildsDir: path.join(work, 'builds'),
    buildEnv: { PUBLIC_SUPABASE_URL: testEnv.url, PUBLIC_SUPABASE_ANON_KEY: testEnv.anonKey, SITE_URL: base },
    supabaseUrl: testEnv.url,
    serviceRoleKey: testEnv.serviceRoleKey,
    initialDirFresh: true,
    retireAfterMs: 600_000,
    log: (line) => console.log(`[site-builder] ${line}`),
  })
  server = await startStaticServer({ port, siteDir: () => builder.currentDir(), adminDir: path.join(work, 'admin') })
  // no served state yet: the first build renders every page and records their hashes; read before it asks, so any
  // change the build may have missed shows up as a changed version later
  versionsAtFirstBuild = await agentVersions()
  const log = await rebuild(`${slug}: first build`)
  expect(log).toContain('Kind: full (every page built: the site sources changed or no page state yet).')
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
  it('renders only the changed agent (and its ZIP and city pages) on a data change; other agent pages stay the same files', async () => {
    const [alpha, beta, gamma] = fixture.agents
    const served = builder.currentDir()
    expect(fs.existsSync(path.join(served, STATE_FILE))).toBe(true)
    const before = agentPages(served)
    const betaBefore = identity(agentFile(served, beta!.id))
    const gammaBefore = identity(agentFile(served, gamma!.id))
    const homeBefore = identity(path.join(served, 'index.html'))

    await sql(`update public.agents set name = 'Incremental Alpha Renamed' where id = $1`, [alpha!.id])
    const log = await rebuild('agent data changed: agents update')
    expect(log).toMatch(/Kind: data\. Pages built: \d+ agent, \d+ city, \d+ zip; removed: /)

    const now = builder.currentDir()
    // every agent page that is a new file belongs to Alpha or to an agent another test file changed meanwhile
    const elsewhere = changedBetween(versionsAtFirstBuild, await agentVersions())
    elsewhere.delete(alpha!.id)
    const rebuilt = [...agentPages(now)].filter(([id, page]) => before.get(id)?.ino !== page.ino).map(([id]) => id)
    expect(rebuilt).toContain(alpha!.id)
    expect(rebuilt.filter((id) => id !== alpha!.id && !elsewhere.has(id))).toEqual([])
    if (elsewhere.size === 0) expect(log).toContain('Pages built: 1 agent, 1 city, 1 zip; removed: none; files kept:')
    expect(fs.readFileSync(agentFile(now, alpha!.id), 'utf8')).toContain('Incremental Alpha Renamed')
    // Beta and Gamma keep their files unless another test file's refresh changed their figures meanwhile
    if (!elsewhere.has(beta!.id)) expect(identity(agentFile(now, beta!.id))).toEqual(betaBefore)
    if (!elsewhere.has(gamma!.id)) expect(identity(agentFile(now, gamma!.id))).toEqual(gammaBefore)
    // a data build keeps the blog and static pages as they were
    expect(identity(path.join(now, 'index.html'))).toEqual(homeBefore)
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
    const log = await rebuild('agent data changed: agents delete')
    expect(log).toMatch(/Kind: data\. Pages built: [^;]*; removed: (?:[^;]*, )?\d+ agent[ ,;]/)
    expect(log).toContain(`/agent/${gamma.id}`)

    expect(fs.existsSync(agentFile(builder.currentDir(), gamma.id))).toBe(false)
    const response = await fetch(`${base}/agent/${gamma.id}`)
    expect(response.status).toBe(404)
    expect(await (await fetch(`${base}/sitemap.xml`)).text()).not.toContain(`/agent/${gamma.id}<`)
  })

  it('renders no agent, ZIP or city page for a blog publish, and keeps them in the sitemap', async () => {
    const served = builder.currentDir()
    const before = agentPages(served)
    expect(before.size).toBeGreaterThanOrEqual(2)
    const zipPage = identity(path.join(served, 'agents', zip, 'index.html'))

    await sql(
      `insert into public.blog_posts (title, slug, content, status, published_at) values ('Incremental build post', $1, '<p>Fresh.</p>', 'published', now())`,
      [slug],
    )
    const log = await rebuild(`post published: ${slug}`)
    // other test files share this database and may publish posts meanwhile: at least this one article is rendered;
    // they may also unpublish or delete theirs (the RLS matrix does), so only blog pages may be removed (CI, stop 27)
    const kind = /Kind: site\. Pages built: [1-9]\d* article, \d+ other; removed: ([^;]*);/.exec(log)
    expect(kind, log).not.toBeNull()
    expect(kind![1]).not.toMatch(/\d+ (agent|city|zip)\b|\/agents?\//)

    const now = builder.currentDir()
    expect(agentPages(now)).toEqual(before)
    expect(identity(path.join(now, 'agents', zip, 'index.html'))).toEqual(zipPage)
    expect((await fetch(`${base}/blog/${slug}`)).status).toBe(200)
    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text()
    expect(sitemap).toContain(`/blog/${slug}<`)
    expect(sitemap).toContain(`/agent/${fixture.agents[1]!.id}<`)
  })
})
