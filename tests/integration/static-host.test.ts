/**
 * The publish directory of `npm run build:deploy`, served by a static host's own local emulator: Cloudflare's
 * Wrangler (`wrangler pages dev`, the npm package, runs offline) reads the generated `_redirects`, `_headers`,
 * `_routes.json` and `_worker.js/` exactly as Pages does. Checks the agent pages (a prerendered one, one rendered on
 * demand by the Pages worker with the same markup, headers and caching, an unknown id's 404), the admin SPA
 * fallback, that the fallback does not swallow the admin's own bundles, the 404 page and status, and the headers. The
 * publish directory is the second build from the same build cache (as the host keeps it between deploys), after one
 * post was published: that build renders only the post's pages and the lists, reuses every other page, and the host
 * serves the new post.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../supabase/local/postgres.ts'
import { createAgents, insertPosts, makeSales, unusedZip } from '../support/factories.ts'
import { sql, testEnv } from '../support/env.ts'

const root = path.resolve(import.meta.dirname, '../..')
let workDir = ''
/** Wrangler's working directory: outside the repository (inside it, `pages dev` names the bundled worker's modules by
 * absolute path and workerd cannot load them: "No such module work/…/middleware-insertion-facade.js"). */
let wranglerDir = ''
let publishDir = ''
let base = ''
let wrangler: ChildProcess | undefined
/** What the second `build:deploy` printed. */
let secondBuild = ''
/** The first build's worker entry (each build names its own generation of cached pages). */
let firstWorker = ''
const slug = `static-host-${Date.now().toString(36)}`
/** 26 agents in one ZIP: the first 25 (three sales each) are prerendered, the 26th (two sales) is rendered on demand. */
let fixture: Awaited<ReturnType<typeof createAgents>>

function runToEnd(command: string, args: string[], env: Record<string, string>, cwd = root): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules/.bin', command), args, { cwd, env: { ...process.env, ...env } })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} exited with ${code}:\n${output.slice(-4000)}`)),
    )
  })
}

async function waitUntilServing(url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000
  for (;;) {
    try {
      await fetch(url)
      return
    } catch {
      if (Date.now() > deadline) throw new Error(`wrangler pages dev did not start:\n${output().slice(-4000)}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}

beforeAll(async () => {
  const zip = await unusedZip()
  fixture = await createAgents(
    zip,
    Array.from({ length: 26 }, (_, index) => ({
      name: `Host Agent ${String(index).padStart(2, '0')}`,
      sales: makeSales(`Host${index}`, index < 25 ? 3 : 2),
    })),
    'Hostville',
    'OR',
  )
  // inside the repository (dist/ is git-ignored): Astro 6 could not write astro:assets images to an outDir outside it (not rechecked on Astro 7)
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true })
  workDir = fs.mkdtempSync(path.join(root, 'dist', '.static-host-'))
  publishDir = path.join(workDir, 'deploy')
  // the host's build cache (node_modules/.astro on Netlify and Cloudflare Pages): this file's own
  const buildEnv = {
    PUBLIC_SUPABASE_URL: testEnv.url,
    PUBLIC_SUPABASE_ANON_KEY: testEnv.anonKey,
    SITE_URL: 'https://agent-insight.example',
    ASTRO_CACHE_DIR: path.join(workDir, 'cache'),
    // every rendered path in the report: other test files publish posts meanwhile, and the list stops at 40 otherwise
    BUILD_REPORT_LIST_LIMIT: '100000',
  }
  await runToEnd('tsx', ['scripts/build-deploy.ts', '--out', publishDir], buildEnv)
  firstWorker = fs.readFileSync(path.join(publishDir, '_worker.js/index.js'), 'utf8')
  await insertPosts([{ title: 'Deployed from the cache', slug, content: '<p>One new post.</p>', status: 'published' }])
  secondBuild = await runToEnd('tsx', ['scripts/build-deploy.ts', '--out', publishDir], buildEnv)
  const port = await freePort()
  let output = ''
  // own working directory (wrangler writes .wrangler/ there) and inspector port, so parallel runs never collide
  wranglerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-insight-wrangler-'))
  wrangler = spawn(
    path.join(root, 'node_modules/.bin/wrangler'),
    [
      'pages',
      'dev',
      publishDir,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(await freePort()),
      '--compatibility-date',
      '2025-01-01',
    ],
    { cwd: wranglerDir, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' }, detached: true },
  )
  wrangler.stdout!.on('data', (chunk) => (output += chunk))
  wrangler.stderr!.on('data', (chunk) => (output += chunk))
  base = `http://127.0.0.1:${port}`
  await waitUntilServing(base, () => output)
  expect(output).not.toContain('invalid redirect rule')
}, 600_000)

afterAll(async () => {
  await fixture?.remove()
  await sql(`delete from public.blog_posts where slug = $1`, [slug])
  if (wrangler?.pid && wrangler.exitCode === null) process.kill(-wrangler.pid, 'SIGTERM')
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true })
  if (wranglerDir) fs.rmSync(wranglerDir, { recursive: true, force: true })
})

const file = (relative: string) => fs.readFileSync(path.join(publishDir, relative), 'utf8')

/**
 * A page's structure without its data: the head's meta names, the section headings, the landmarks' labels and the
 * islands it hydrates.
 */
const markup = (html: string) => ({
  meta: [...html.matchAll(/<meta (?:name|property)="([^"]+)"/g)].map((match) => match[1]),
  headings: [...html.matchAll(/<h[23][^>]*>([^<]*)</g)].map((match) => match[1]),
  landmarks: [...html.matchAll(/aria-labelledby="([^"]+)"/g)].map((match) => match[1]),
  islands: [...html.matchAll(/component-export="([^"]+)"/g)].map((match) => match[1]),
})

describe('publish directory under wrangler pages dev', () => {
  it('was built from the previous output in the build cache: only the new post and the lists were rendered', async () => {
    const line = /Pages built: ([^;]*); reused from the build cache: (\d+)\./.exec(secondBuild)
    expect(line, secondBuild).not.toBeNull()
    // other test files may publish or change posts and agents meanwhile; this post is rendered, most pages are reused
    expect(line![1]).toMatch(/\b[1-9]\d* article\b/)
    expect(/Rendered: (.*)/.exec(secondBuild)?.[1]?.split(', ')).toContain(`/blog/${slug}`)
    expect(Number(line![2])).toBeGreaterThan(0)
    expect(secondBuild).toContain('Admin app unchanged: copied from the build cache')
    const response = await fetch(`${base}/blog/${slug}`)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Deployed from the cache')
  })

  it('holds the site, the admin app and the host files', () => {
    for (const entry of [
      'index.html',
      '404.html',
      'agent/404.html',
      'blog/404.html',
      'admin/index.html',
      '_redirects',
      '_headers',
      '_routes.json',
      '_worker.js/index.js',
    ]) {
      expect(fs.existsSync(path.join(publishDir, entry)), entry).toBe(true)
    }
  })

  it('serves a prerendered agent page as its file, and renders an agent the build left out on demand', async () => {
    const prerendered = fixture.agents[0]!
    const onDemand = fixture.agents[25]!
    expect(fs.existsSync(path.join(publishDir, 'agent', prerendered.id, 'index.html'))).toBe(true)
    expect(fs.existsSync(path.join(publishDir, 'agent', onDemand.id))).toBe(false)

    const staticPage = await fetch(`${base}/agent/${prerendered.id}`)
    expect(staticPage.status).toBe(200)
    const staticHtml = await staticPage.text()
    expect(staticHtml).toBe(file(`agent/${prerendered.id}/index.html`))

    const rendered = await fetch(`${base}/agent/${onDemand.id}`)
    expect(rendered.status).toBe(200)
    expect(rendered.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=86400, stale-while-revalidate=60')
    expect(rendered.headers.get('cache-tag')).toBe(`agent-${onDemand.id}`)
    const renderedHtml = await rendered.text()
    expect(renderedHtml).toContain(`>Host Agent 25</h1>`)
    // closed sales in the window: indexable, with its canonical URL, like a prerendered page
    expect(renderedHtml).not.toContain('noindex')
    expect(renderedHtml).toContain(`<link rel="canonical" href="https://agent-insight.example/agent/${onDemand.id}">`)
    expect(markup(renderedHtml)).toEqual(markup(staticHtml))
    // the security headers of _headers, which Pages applies to static files only, are on the worker's answer too
    const home = await fetch(`${base}/`)
    for (const name of ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy'])
      expect(rendered.headers.get(name), name).toBe(home.headers.get(name))
    expect(await (await fetch(`${base}/sitemap.xml`)).text()).not.toContain(onDemand.id)
  })

  it("inlines the site's stylesheet once in every page, prerendered or rendered on demand, and no template comment", async () => {
    // Astro bundles the layout's CSS once for the prerendered pages and once for the worker; when the two copies
    // differ (Lightning CSS targets per build), a prerendered page carried both
    const pages = {
      home: file('index.html'),
      prerendered: file(`agent/${fixture.agents[0]!.id}/index.html`),
      onDemand: await (await fetch(`${base}/agent/${fixture.agents[25]!.id}`)).text(),
    }
    for (const [page, html] of Object.entries(pages)) {
      expect(html.match(/@layer utilities\{/g), page).toHaveLength(1)
      expect(html.match(/@layer base\{/g), page).toHaveLength(1)
      // and no comment of the templates' authors (an HTML comment in an .astro template is sent to every visitor;
      // React's and Astro's own markers are all that may remain)
      expect(html.match(/<!--(?!(?: |astro:end|\/?\$[?!]?)-->)[^]{0,60}/g), page).toBeNull()
    }
  })

  it("keeps an on-demand page in the host's cache for this deploy; each deploy starts a new cache generation", async () => {
    const agent = fixture.agents[25]!
    expect(await (await fetch(`${base}/agent/${agent.id}`)).text()).toContain('>Host Agent 25</h1>')
    await sql(`update public.agents set name = 'Host Agent Renamed' where id = $1`, [agent.id])
    try {
      // the cached page, not a new rendering
      expect(await (await fetch(`${base}/agent/${agent.id}`)).text()).toContain('>Host Agent 25</h1>')
    } finally {
      await sql(`update public.agents set name = 'Host Agent 25' where id = $1`, [agent.id])
    }
    const generation = (source: string) => /const BUILD_ID = "([^"]+)"/.exec(source)?.[1]
    expect(generation(file('_worker.js/index.js'))).toBeDefined()
    expect(generation(file('_worker.js/index.js'))).not.toBe(generation(firstWorker))
  })

  it('answers an agent id that is no agent with the agent not-found page and 404', async () => {
    for (const id of ['3f0c1a52-8f0e-4c55-9b7a-0d5a1f5e2c11', 'not-a-uuid']) {
      const response = await fetch(`${base}/agent/${id}`)
      expect(response.status).toBe(404)
      const html = await response.text()
      expect(html).toContain('Agent not found')
      expect(html).toContain('<meta name="robots" content="noindex">')
    }
  })

  it("answers an unknown /blog/* path with the blog's 'Article Not Found' page and 404", async () => {
    for (const route of ['/blog/no-such-article', '/blog/category/no-such-category/extra']) {
      const response = await fetch(`${base}${route}`)
      expect(response.status, route).toBe(404)
      const html = await response.text()
      expect(html, route).toBe(file('blog/404.html'))
      expect(html).toContain('Article Not Found')
      expect(html).toContain('Back to Blog')
    }
    // a real article is still served
    const blog = await fetch(`${base}/blog`)
    expect(blog.status).toBe(200)
  })

  it('answers admin client routes with the admin app, at any depth', async () => {
    for (const route of ['/admin/', '/admin/crm', '/admin/blog/posts/123']) {
      const response = await fetch(`${base}${route}`)
      expect(response.status, route).toBe(200)
      expect(await response.text(), route).toBe(file('admin/index.html'))
    }
    const bare = await fetch(`${base}/admin`, { redirect: 'manual' })
    expect(bare.status).toBe(301)
    expect(new URL(bare.headers.get('location')!, base).pathname).toBe('/admin/')
  })

  it('serves the admin bundles themselves, not the fallback, and 404s a missing one', async () => {
    const script = fs.readdirSync(path.join(publishDir, 'admin/assets')).find((name) => name.endsWith('.js'))!
    const response = await fetch(`${base}/admin/assets/${script}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/javascript/)
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await response.text()).toBe(file(`admin/assets/${script}`))

    const missing = await fetch(`${base}/admin/assets/missing-0000.js`)
    expect(missing.status).toBe(404)
  })

  it('answers an unknown path with the site 404 page and status 404', async () => {
    const response = await fetch(`${base}/no-such-page`)
    expect(response.status).toBe(404)
    expect(await response.text()).toBe(file('404.html'))
  })

  it('sends the headers of _headers (security headers from public/_headers, caching)', async () => {
    const home = await fetch(`${base}/`)
    expect(home.status).toBe(200)
    // the published _headers: public/_headers with the site's inline-script hashes in the CSP (scripts/lib/csp-hashes.ts)
    const published = fs.readFileSync(path.join(publishDir, '_headers'), 'utf8')
    expect(published).not.toContain("script-src 'self' 'unsafe-inline'")
    if (fs.existsSync(path.join(root, 'public/_headers'))) {
      // every header the site's own file sets for /* reaches the visitor (values may hold colons: split at the first)
      const block = /^\/\*\s*\n((?:[ \t]+.+\n?)+)/m.exec(published)?.[1] ?? ''
      const headers = block
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()])
      expect(headers.length).toBeGreaterThan(0)
      for (const [name, value] of headers) expect(home.headers.get(name!), name).toBe(value)
    }
    // the admin page itself is never cached as immutable, or a deploy would not reach returning operators
    const admin = await fetch(`${base}/admin/crm`)
    expect(admin.headers.get('cache-control') ?? '').not.toContain('immutable')
  })
})
