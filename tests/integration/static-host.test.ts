/**
 * The publish directory of `npm run build:deploy`, served by a static host's own local emulator: Cloudflare's
 * Wrangler (`wrangler pages dev`, the npm package, runs offline) reads the generated `_redirects` and `_headers`
 * exactly as Pages does. Checks the agent 404 page, the admin SPA fallback, that the fallback does not
 * swallow the admin's own bundles, the 404 page and status, and the headers. The publish directory is the second
 * build from the same build cache (as the host keeps it between deploys), after one post was published: that build
 * renders only the post's pages and the lists, reuses every other page, and the host serves the new post.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../supabase/local/postgres.ts'
import { sql, testEnv } from '../support/env.ts'

const root = path.resolve(import.meta.dirname, '../..')
let workDir = ''
let publishDir = ''
let base = ''
let wrangler: ChildProcess | undefined
/** What the second `build:deploy` printed. */
let secondBuild = ''
const slug = `static-host-${Date.now().toString(36)}`

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
  }
  await runToEnd('tsx', ['scripts/build-deploy.ts', '--out', publishDir], buildEnv)
  await sql(
    `insert into public.blog_posts (title, slug, content, status, published_at) values ('Deployed from the cache', $1, '<p>One new post.</p>', 'published', now())`,
    [slug],
  )
  secondBuild = await runToEnd('tsx', ['scripts/build-deploy.ts', '--out', publishDir], buildEnv)
  const port = await freePort()
  let output = ''
  // own working directory (wrangler writes .wrangler/ there) and inspector port, so parallel runs never collide
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
    { cwd: workDir, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' }, detached: true },
  )
  wrangler.stdout!.on('data', (chunk) => (output += chunk))
  wrangler.stderr!.on('data', (chunk) => (output += chunk))
  base = `http://127.0.0.1:${port}`
  await waitUntilServing(base, () => output)
  expect(output).not.toContain('invalid redirect rule')
}, 600_000)

afterAll(async () => {
  await sql(`delete from public.blog_posts where slug = $1`, [slug])
  if (wrangler?.pid) process.kill(-wrangler.pid, 'SIGTERM')
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true })
})

const file = (relative: string) => fs.readFileSync(path.join(publishDir, relative), 'utf8')

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
    ]) {
      expect(fs.existsSync(path.join(publishDir, entry)), entry).toBe(true)
    }
  })

  it('answers an agent id the build did not render with the agent not-found page and 404', async () => {
    const response = await fetch(`${base}/agent/3f0c1a52-8f0e-4c55-9b7a-0d5a1f5e2c11`)
    expect(response.status).toBe(404)
    expect(await response.text()).toBe(file('agent/404.html'))
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
