/**
 * Publishing rebuilds the static site: which database changes fire the site-rebuild webhook (read from the pg_net
 * queue inside the changing transaction, so the answer is exact), its delivery with the shared secret, the
 * production build-hook mode, and the local build hook (supabase/local/build-hook) running a build command: secret
 * check, coalescing, the atomic swap of a good build, a failed build keeping the last good site, and its rows in
 * public.site_builds; a builder that starts closes the open builds of a builder that is gone, not those of one running.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuildHook, type BuildHook } from '../../supabase/local/build-hook/index.ts'
import { configureBuildHook } from '../../scripts/lib/site-build-hook.ts'
import { sql, testEnv } from '../support/env.ts'
import { waitFor } from '../support/wait-for.ts'

const SECRET = 'integration-secret-0123456789abcdef'
let n = 0
const token = () => `rw${Date.now().toString(36)}${(n += 1)}`

/**
 * Runs `statements` in one transaction and returns the reasons of the rebuild requests it queued that mention
 * `mark` (other test files change posts in parallel), read before commit from net.http_request_queue.
 */
async function firedBy(statements: string, mark: string, values: unknown[] = []): Promise<string[]> {
  const client = new pg.Client({ connectionString: testEnv.databaseUrl })
  await client.connect()
  try {
    await client.query('begin')
    const before = await client.query<{ id: string }>(`select coalesce(max(id), 0) as id from net.http_request_queue`)
    await client.query(statements, values)
    // the dispatcher cannot see (or send) this transaction's requests before commit, so they are all still here
    const { rows } = await client.query<{ reason: string }>(
      `select body->>'reason' as reason from net.http_request_queue
        where id > $2 and body->>'source' = 'database webhook' and body->>'reason' like $1 order by id`,
      [`%${mark}%`, before.rows[0]!.id],
    )
    await client.query('commit')
    return rows.map((row) => row.reason)
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    await client.end()
  }
}

/**
 * Runs `statements` in one transaction and returns the reasons of the agent-data rebuild requests this transaction
 * itself queued (rows of net.http_request_queue whose xmin is this transaction: other files change agents in
 * parallel, and agent-data reasons carry no mark of ours).
 */
async function agentDataRequestsBy(statements: string, values: unknown[] = []): Promise<string[]> {
  const client = new pg.Client({ connectionString: testEnv.databaseUrl })
  await client.connect()
  try {
    await client.query('begin')
    await client.query(statements, values)
    const { rows } = await client.query<{ reason: string }>(
      `select body->>'reason' as reason from net.http_request_queue
        where xmin::text = (pg_current_xact_id()::text::bigint % 4294967296)::text
          and body->>'reason' like 'agent data changed:%' order by id`,
    )
    await client.query('rollback')
    return rows.map((row) => row.reason)
  } finally {
    await client.end()
  }
}

describe('site rebuild webhook', () => {
  let probe: http.Server
  let probeUrl = ''
  const received: { reason: string; secret: string | undefined }[] = []

  beforeAll(async () => {
    probe = http.createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        received.push({
          reason: JSON.parse(body).reason,
          secret: request.headers['x-webhook-secret'] as string | undefined,
        })
        response.writeHead(202, { 'Content-Type': 'application/json' }).end('{"queued":true}')
      })
    })
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    probeUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}/site-build`
    await configureBuildHook(testEnv.databaseUrl, { hookUrl: probeUrl, secret: SECRET, builder: 'local' })
  })

  afterAll(async () => {
    await configureBuildHook(testEnv.databaseUrl, { hookUrl: null, secret: null, builder: 'build_hook' })
    probe.close()
  })

  it('fires when a post goes live, is edited while live, goes off the site or is deleted while live', async () => {
    const slug = token()
    expect(
      await firedBy(`insert into public.blog_posts (title, slug, status) values ('Draft', $1, 'draft')`, slug, [slug]),
    ).toEqual([])
    expect(
      await firedBy(`update public.blog_posts set content = '<p>more</p>', title = 'Draft 2' where slug = $1`, slug, [
        slug,
      ]),
    ).toEqual([])
    expect(
      await firedBy(`update public.blog_posts set status = 'published', published_at = now() where slug = $1`, slug, [
        slug,
      ]),
    ).toEqual([`post published: ${slug}`])
    expect(
      await firedBy(`update public.blog_posts set title = 'Live, retitled' where slug = $1`, slug, [slug]),
    ).toEqual([`post edited: ${slug}`])
    // a save that changes no column the site reads (the same title again; the author) is not a public change
    expect(
      await firedBy(`update public.blog_posts set title = 'Live, retitled', author_id = null where slug = $1`, slug, [
        slug,
      ]),
    ).toEqual([])
    expect(await firedBy(`update public.blog_posts set status = 'draft' where slug = $1`, slug, [slug])).toEqual([
      `post unpublished: ${slug}`,
    ])
    expect(await firedBy(`update public.blog_posts set status = 'published' where slug = $1`, slug, [slug])).toEqual([
      `post published: ${slug}`,
    ])
    expect(await firedBy(`delete from public.blog_posts where slug = $1`, slug, [slug])).toEqual([
      `post deleted: ${slug}`,
    ])
  })

  it('does not fire for drafts, deleted drafts or posts scheduled for later', async () => {
    const slug = token()
    expect(await firedBy(`insert into public.blog_posts (title, slug) values ('Draft', $1)`, slug, [slug])).toEqual([])
    expect(await firedBy(`delete from public.blog_posts where slug = $1`, slug, [slug])).toEqual([])
    const scheduled = token()
    expect(
      await firedBy(
        `insert into public.blog_posts (title, slug, status, published_at) values ('Later', $1, 'published', now() + interval '3 days')`,
        scheduled,
        [scheduled],
      ),
    ).toEqual([])
    expect(
      await firedBy(`update public.blog_posts set title = 'Later, retitled' where slug = $1`, scheduled, [scheduled]),
    ).toEqual([])
    await sql(`delete from public.blog_posts where slug = $1`, [scheduled])
  })

  it('fires once per statement, summarising a bulk change', async () => {
    const mark = token()
    const reasons = await firedBy(
      `insert into public.blog_posts (title, slug, status, published_at)
       select 'Bulk ' || i, $1 || '-' || i, 'published', now() - interval '1 minute' from generate_series(1, 5) i`,
      mark,
      [mark],
    )
    expect(reasons).toEqual([
      `post published: ${mark}-1; post published: ${mark}-2; post published: ${mark}-3; and 2 more`,
    ])
    await sql(`delete from public.blog_posts where slug like $1`, [`${mark}-%`])
  })

  it('fires when a category is created, renamed (name, slug or description) or deleted, not on a no-op save', async () => {
    const slug = token()
    expect(await firedBy(`insert into public.blog_categories (name, slug) values ($1, $1)`, slug, [slug])).toEqual([
      `category created: ${slug}`,
    ])
    expect(await firedBy(`update public.blog_categories set name = name where slug = $1`, slug, [slug])).toEqual([])
    expect(
      await firedBy(`update public.blog_categories set name = $1 || ' renamed' where slug = $1`, slug, [slug]),
    ).toEqual([`category renamed: ${slug}`])
    expect(
      await firedBy(`update public.blog_categories set description = 'Now described' where slug = $1`, slug, [slug]),
    ).toEqual([`category renamed: ${slug}`])
    expect(await firedBy(`delete from public.blog_categories where slug = $1`, slug, [slug])).toEqual([
      `category deleted: ${slug}`,
    ])
  })

  it('asks for a build when a statement changes agents or ZIP benchmarks, not when it matches no row', async () => {
    const nobody = '00000000-0000-4000-8000-00000000dead'
    expect(await agentDataRequestsBy(`update public.agents set bio = 'x' where id = $1`, [nobody])).toEqual([])
    expect(await agentDataRequestsBy(`delete from public.agents where id = $1`, [nobody])).toEqual([])
    expect(await agentDataRequestsBy(`delete from public.zip_market_benchmarks where zip_code = '00000'`)).toEqual([])
    const zip = `9${String(Date.now()).slice(-4)}`
    expect(
      await agentDataRequestsBy(
        `insert into public.agents (name, city, state, zip_code) values ('Webhook Probe', 'Probe', 'MA', $1);
         update public.agents set bio = 'Probe bio' where zip_code = $1 and name = 'Webhook Probe';
         delete from public.agents where zip_code = $1 and name = 'Webhook Probe'`.replaceAll('$1', `'${zip}'`),
      ),
    ).toEqual([
      'agent data changed: agents insert',
      'agent data changed: agents update',
      'agent data changed: agents delete',
    ])
  })

  it('delivers the request after commit with the shared secret header, logged in net._http_response', async () => {
    const slug = token()
    await sql(
      `insert into public.blog_posts (title, slug, status, published_at) values ('Delivered', $1, 'published', now())`,
      [slug],
    )
    const delivery = await waitFor(
      () => received.find((request) => request.reason === `post published: ${slug}`),
      'the webhook delivery',
    )
    expect(delivery.secret).toBe(SECRET)
    const logged = await waitFor(async () => {
      const rows = await sql<{ status_code: number }>(
        `select status_code from net._http_response where url = $1 order by created desc limit 1`,
        [probeUrl],
      )
      return rows[0]
    }, 'the pg_net response log')
    expect(logged.status_code).toBe(202)
    await sql(`delete from public.blog_posts where slug = $1`, [slug])
  })

  it('sends nothing when no hook is configured', async () => {
    await configureBuildHook(testEnv.databaseUrl, { hookUrl: null, secret: null, builder: 'local' })
    try {
      const slug = token()
      expect(
        await firedBy(
          `insert into public.blog_posts (title, slug, status, published_at) values ('Off', $1, 'published', now())`,
          slug,
          [slug],
        ),
      ).toEqual([])
      await sql(`delete from public.blog_posts where slug = $1`, [slug])
    } finally {
      await configureBuildHook(testEnv.databaseUrl, { hookUrl: probeUrl, secret: SECRET, builder: 'local' })
    }
  })

  it('lets two open transactions request a rebuild at once: the second does not wait for the first to commit', async () => {
    const first = new pg.Client({ connectionString: testEnv.databaseUrl })
    const second = new pg.Client({ connectionString: testEnv.databaseUrl })
    await first.connect()
    await second.connect()
    try {
      const mark = token()
      await first.query('begin')
      await second.query('begin')
      const a = await first.query<{ id: string | null }>(`select private.request_site_build($1) as id`, [
        `${mark} first`,
      ])
      expect(a.rows[0]!.id).not.toBeNull()
      // the first transaction stays open, as an import does while it waits for the metrics refresh; a request that
      // waited for its lock on private.site_build_settings here deadlocked with that refresh (CI, stop 27)
      await second.query(`set local lock_timeout = '3s'`)
      const b = await second.query<{ id: string | null }>(`select private.request_site_build($1) as id`, [
        `${mark} second`,
      ])
      expect(b.rows[0]!.id).not.toBeNull()
    } finally {
      await first.query('rollback').catch(() => undefined)
      await second.query('rollback').catch(() => undefined)
      await first.end()
      await second.end()
    }
  })

  it('records a "requested" build in production mode, where the static host reports nothing back', async () => {
    await configureBuildHook(testEnv.databaseUrl, { hookUrl: probeUrl, secret: null, builder: 'build_hook' })
    try {
      const slug = token()
      await sql(
        `insert into public.blog_posts (title, slug, status, published_at) values ('Hosted', $1, 'published', now())`,
        [slug],
      )
      const rows = await sql<{ status: string; started_at: string | null }>(
        `select status, started_at from public.site_builds where trigger_reason = $1`,
        [`post published: ${slug}`],
      )
      expect(rows).toEqual([{ status: 'requested', started_at: null }])
      await sql(`delete from public.blog_posts where slug = $1`, [slug])
    } finally {
      await configureBuildHook(testEnv.databaseUrl, { hookUrl: probeUrl, secret: SECRET, builder: 'local' })
    }
  })
})

describe('local site build hook', () => {
  let work: string
  let builder: BuildHook
  const control = () => path.join(work, 'control')
  /** Runs of the build command so far. */
  const buildCount = () =>
    fs.existsSync(path.join(control(), 'builds.log'))
      ? fs.readFileSync(path.join(control(), 'builds.log'), 'utf8').split('\n').filter(Boolean).length
      : 0
  const hold = () => fs.writeFileSync(path.join(control(), 'hold'), '')
  const release = () => fs.rmSync(path.join(control(), 'hold'), { force: true })
  const failNext = () => fs.writeFileSync(path.join(control(), 'fail'), '')
  /** Every directory the hook swapped in, in order (from its log). */
  const swappedIn: string[] = []

  const post = (body: unknown, headers: Record<string, string> = { 'x-webhook-secret': builder.secret }) =>
    fetch(builder.hookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })

  const buildRow = (reasonLike: string) =>
    sql<{
      status: string
      trigger_reason: string
      log_tail: string | null
      started_at: string | null
      finished_at: string | null
    }>(
      `select status, trigger_reason, log_tail, started_at, finished_at from public.site_builds where trigger_reason like $1 order by id`,
      [reasonLike],
    )

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'site-builder-test-'))
    fs.mkdirSync(path.join(work, 'site'))
    fs.mkdirSync(control())
    fs.writeFileSync(path.join(work, 'site/index.html'), '<h1>initial</h1>')
    const publishDir = path.join(work, 'publish')
    builder = await startBuildHook({
      initialDir: path.join(work, 'site'),
      buildsDir: path.join(work, 'builds'),
      build: {
        command: process.execPath,
        args: [path.resolve(import.meta.dirname, '../fixtures/fake-site-build.mjs')],
        cwd: work,
        env: { FAKE_BUILD_CONTROL: control(), FAKE_PUBLISH_DIR: publishDir },
        publishDir,
      },
      supabaseUrl: testEnv.url,
      serviceRoleKey: testEnv.serviceRoleKey,
      retireAfterMs: 100,
      log: (line) => {
        const served = /now serving (.+)\.$/.exec(line)?.[1]
        if (served) swappedIn.push(served)
      },
    })
  })

  afterAll(async () => {
    await builder?.stop()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('refuses requests without the secret, other paths and methods, and bodies that are not JSON', async () => {
    expect((await post({ reason: 'x' }, {})).status).toBe(401)
    expect((await post({ reason: 'x' }, { 'x-webhook-secret': 'wrong' })).status).toBe(401)
    expect((await fetch(builder.hookUrl.replace('/site-build', '/other'), { method: 'POST' })).status).toBe(404)
    expect((await fetch(builder.hookUrl)).status).toBe(405)
    const bad = await fetch(builder.hookUrl, {
      method: 'POST',
      headers: { 'x-webhook-secret': builder.secret },
      body: '{nope',
    })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'The body must be JSON' })
    expect(buildCount()).toBe(0)
  })

  it('coalesces requests made during a build into exactly one more build, then swaps the good build in', async () => {
    const mark = token()
    hold()
    const before = buildCount()
    const swapsBefore = swappedIn.length
    expect((await post({ reason: `${mark} first` })).status).toBe(202)
    await waitFor(() => (buildCount() === before + 1 ? true : undefined), 'the first build to start')
    for (let i = 1; i <= 5; i += 1) expect((await post({ reason: `${mark} burst ${i}` })).status).toBe(202)
    expect(builder.currentDir()).toBe(path.join(work, 'site'))
    release()
    await waitFor(() => (buildCount() === before + 2 ? true : undefined), 'the coalesced build')
    await builder.idle()
    expect(swappedIn.length).toBe(swapsBefore + 2)
    const [firstServed, secondServed] = swappedIn.slice(swapsBefore) as [string, string]
    expect(buildCount()).toBe(before + 2)

    const rows = await buildRow(`%${mark}%`)
    expect(rows.map((row) => [row.status, row.trigger_reason])).toEqual([
      ['succeeded', `${mark} first`],
      ['succeeded', [1, 2, 3, 4, 5].map((i) => `${mark} burst ${i}`).join('; ')],
    ])
    expect(rows.every((row) => row.started_at && row.finished_at)).toBe(true)
    const served = builder.currentDir()
    expect(served).toBe(secondServed)
    expect(path.dirname(served)).toBe(path.join(work, 'builds'))
    expect(fs.readFileSync(path.join(served, 'index.html'), 'utf8')).toBe(`<h1>build ${before + 2}</h1>`)
    // the replaced build directory is removed once requests in flight had time to finish
    await waitFor(() => (fs.existsSync(firstServed) ? undefined : true), 'the old build to be removed', 5000)
    expect(fs.existsSync(path.join(work, 'site/index.html'))).toBe(true)
  })

  it('keeps the last good site live when a build fails, and records the log tail', async () => {
    const mark = token()
    const live = builder.currentDir()
    failNext()
    expect((await post({ reason: `${mark} broken` })).status).toBe(202)
    const row = await waitFor(async () => {
      const [found] = await buildRow(`${mark}%`)
      return found?.status === 'failed' ? found : undefined
    }, 'the failed build row')
    expect(row.log_tail).toContain('[ERROR] boom: could not load published blog posts')
    expect(row.log_tail).toContain('The build command exited with code 1')
    expect(builder.currentDir()).toBe(live)
    expect(fs.readFileSync(path.join(live, 'index.html'), 'utf8')).toMatch(/^<h1>build \d+<\/h1>$/)
  })

  it('is reached by the database webhook when a post is published', async () => {
    await configureBuildHook(testEnv.databaseUrl, {
      hookUrl: builder.hookUrl,
      secret: builder.secret,
      builder: 'local',
    })
    const slug = token()
    try {
      await sql(
        `insert into public.blog_posts (title, slug, status, published_at) values ('Webhook to builder', $1, 'published', now())`,
        [slug],
      )
      const row = await waitFor(async () => {
        const [found] = await buildRow(`%post published: ${slug}%`)
        return found?.status === 'succeeded' ? found : undefined
      }, 'the webhook-triggered build')
      expect(row.log_tail).toContain('building pages')
    } finally {
      await configureBuildHook(testEnv.databaseUrl, { hookUrl: null, secret: null, builder: 'build_hook' })
      await sql(`delete from public.blog_posts where slug = $1`, [slug])
    }
  })
})

describe('a local site build hook that starts', () => {
  it('closes the builds a builder that is gone left open, and leaves those of a builder still running', async () => {
    const mark = token()
    // a process of this machine that has ended: its pid names no running process (it was just reaped)
    const ended = spawnSync(process.execPath, ['-e', '']).pid
    const host = os.hostname()
    await sql(
      `insert into public.site_builds (status, trigger_reason, started_at, builder_host, builder_pid) values
         ('building', $1 || ' running', now(), $2, $3),
         ('building', $1 || ' ended', now(), $2, $4),
         ('queued', $1 || ' waiting for the ended', null, $2, $4),
         ('building', $1 || ' no builder recorded', now(), null, null)`,
      [mark, host, process.pid, ended],
    )
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'site-builder-restart-'))
    fs.mkdirSync(path.join(work, 'site'))
    const hook = await startBuildHook({
      initialDir: path.join(work, 'site'),
      buildsDir: path.join(work, 'builds'),
      build: { command: process.execPath, args: ['-e', ''], cwd: work, env: {}, publishDir: path.join(work, 'out') },
      supabaseUrl: testEnv.url,
      serviceRoleKey: testEnv.serviceRoleKey,
    })
    try {
      const rows = await sql<{ trigger_reason: string; status: string; log_tail: string | null }>(
        `select trigger_reason, status, log_tail from public.site_builds where trigger_reason like $1 order by id`,
        [`${mark} %`],
      )
      expect(rows.map((row) => [row.trigger_reason.slice(mark.length + 1), row.status, row.log_tail])).toEqual([
        ['running', 'building', null],
        ['ended', 'failed', 'The builder stopped before this build finished.'],
        ['waiting for the ended', 'failed', 'The builder stopped before this build finished. It never started.'],
        ['no builder recorded', 'failed', 'The builder stopped before this build finished.'],
      ])
    } finally {
      await hook.stop()
      await sql(`delete from public.site_builds where trigger_reason like $1`, [`${mark} %`])
      fs.rmSync(work, { recursive: true, force: true })
    }
  })
})
