/**
 * `npm run screenshots [-- --agents 2000 --out docs/screenshots]`
 *
 * Screenshots of every public page and every admin page at a phone (390×844) and a laptop (1280×800) viewport, written
 * as `<page>-390.png` and `<page>-1280.png` to docs/screenshots/ (emptied of PNGs first, so a page that no longer
 * exists leaves no stale picture) so a reviewer can see the product without running it. Each is the full page,
 * cut at 3,000 CSS px and stored as a palette PNG (sharp) to keep the committed files small.
 *
 * It starts a throwaway stack with the seed posts, loads the demo data exactly as `npm start` does on an empty database
 * (Redfin ZIP benchmarks, then `seedDemo`: fictional agents and their closed sales through the importer), sends three
 * report requests through the request-report function as visitors would and asks the content functions for topics
 * and one draft (the built-in writer), then builds and serves the site and the admin as the browser tests do.
 *
 * Which pages: the public ones from src/pages (a dynamic route such as /agent/[id] is shot once, at the first
 * address of its kind in the built site's sitemap.xml; the 404 page at an unknown address), plus the search results,
 * compare, figure-sales and on-demand agent states below (a catch-all route is not shot on its own); the admin ones from admin/src/routes (scripts/lib/admin-routes.ts), signed in as a new
 * administrator with an authenticator app (password, then the app's code), plus the blog page's tabs and editor. Chromium: CHROME_PATH (default /usr/bin/chromium).
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createClient } from '@supabase/supabase-js'
import pg from 'pg'
import { figureSalesUrl } from '@shared/urls.ts'
import { chromium, type Page } from 'playwright'
import sharp from 'sharp'
import { z } from 'zod'
import playwrightConfig from '../playwright.config.ts'
import { startE2ESite } from '../tests/support/e2e-site.ts'
import { rootDir, startTestStack, type TestStackEnv } from '../tests/support/test-stack.ts'
import { enrollTotp, totpCode } from '../tests/support/totp.ts'
import { adminRoutePaths } from './lib/admin-routes.ts'
import { ensureZipBenchmarks, seedDemo } from './lib/demo/seed.ts'

const ArgsSchema = z.object({
  agents: z.coerce.number().int().min(10).max(20_000).default(2000),
  out: z.string().min(1).default(path.join(rootDir, 'docs/screenshots')),
})
const { values } = parseArgs({ options: { agents: { type: 'string' }, out: { type: 'string' } } })
const args = ArgsSchema.parse({ agents: values.agents, out: values.out })

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const
const MAX_HEIGHT = 3_000
const ADMIN_PASSWORD = 'screenshots-Admin-2026!'

type Shot = { name: string; url: string }

/** Public route patterns from src/pages: 'agent/[id]' for src/pages/agent/[id].astro, '' for index.astro. */
function publicPatterns(dir = path.join(rootDir, 'src/pages')): string[] {
  const patterns: string[] = []
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.astro')) continue
    const relative = path.relative(path.join(rootDir, 'src/pages'), path.join(entry.parentPath, entry.name))
    // page-local helpers start with _ and are not routed
    if (relative.split(path.sep).some((part) => part.startsWith('_'))) continue
    patterns.push(
      relative
        .replace(/\.astro$/, '')
        .split(path.sep)
        .join('/')
        .replace(/(^|\/)index$/, ''),
    )
  }
  return patterns.sort()
}

/** A file name for a route pattern: 'home', 'agent-id', 'agents-state-city', 'blog-category-slug'. */
const shotName = (pattern: string) => pattern.replace(/[[\]]/g, '').replace(/\//g, '-') || 'home'

/** Every <loc> of the site's sitemap (following a sitemap index). */
async function sitemapUrls(baseUrl: string): Promise<string[]> {
  const locs = async (url: string) =>
    [...(await (await fetch(url)).text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!)
  const top = await locs(`${baseUrl}/sitemap.xml`)
  const nested = await Promise.all(top.filter((url) => url.endsWith('.xml')).map((url) => locs(url)))
  return [...top.filter((url) => !url.endsWith('.xml')), ...nested.flat()]
}

/** The public pages to shoot: one address per route pattern, plus the states of the two query-driven pages. */
async function publicShots(baseUrl: string, databaseUrl: string): Promise<Shot[]> {
  const paths = (await sitemapUrls(baseUrl)).map((url) => new URL(url).pathname.replace(/\/+$/, '') || '/')
  const shots: Shot[] = []
  for (const pattern of publicPatterns()) {
    if (pattern === '404') {
      shots.push({ name: 'not-found', url: '/no-such-page' })
      continue
    }
    if (pattern === 'figure-sales') {
      // query-driven: without ?agent= it is its bad-link state; the real page is added below with an agent
      shots.push({ name: 'figure-sales-bad-link', url: '/figure-sales' })
      continue
    }
    if (pattern.includes('[...')) continue // the on-demand agent route: shot below at an agent the build left out
    if (!pattern.includes('[')) {
      shots.push({ name: shotName(pattern), url: `/${pattern}` })
      continue
    }
    const matcher = new RegExp(`^/${pattern.replace(/\[[^\]]+\]/g, '[^/]+')}$`)
    const found = paths.find((candidate) => matcher.test(candidate))
    if (found) shots.push({ name: shotName(pattern), url: found })
    else console.log(`Skipping /${pattern}: no such page in the sitemap`)
  }
  // the agents with the most sales in the busiest demo ZIP, for the search and compare states
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ id: string; name: string; zip_code: string }>(
      `select id, name, zip_code from public.agents
        where zip_code = (select zip_code from public.agents group by zip_code order by count(*) desc, zip_code limit 1)
        order by total_sales desc, name limit 3`,
    )
    const [first] = rows
    if (first) {
      const extra: Shot[] = [
        { name: 'search-results-zip', url: `/search-results?q=${first.zip_code}&type=zipcode` },
        { name: 'search-results-name', url: `/search-results?q=${encodeURIComponent(first.name)}&type=agent` },
        { name: 'search-results-two-letters', url: `/search-results?q=${first.name.slice(0, 2)}&type=agent` },
        { name: 'search-results-one-letter', url: `/search-results?q=${first.name.slice(0, 1)}&type=agent` },
        { name: 'search-results-none', url: '/search-results?q=Nobody%20Anywhere&type=agent' },
        { name: 'compare-agents', url: `/compare?agents=${rows.map((row) => row.id).join(',')}` },
        { name: 'figure-sales', url: figureSalesUrl(first.id, 'sale_to_list_median') },
      ]
      shots.push(...extra)
    }
    const onDemand = await client.query<{ agent_id: string }>(
      `select agent_id from public.agent_page_versions where not prerender order by agent_id limit 1`,
    )
    if (onDemand.rows[0]) shots.push({ name: 'agent-on-demand', url: `/agent/${onDemand.rows[0].agent_id}` })
  } finally {
    await client.end()
  }
  return shots
}

/** The admin pages to shoot, signed in: every route, and the blog page's tabs and editor. */
function adminShots(): Shot[] {
  const shots: Shot[] = []
  for (const route of adminRoutePaths()) {
    if (route === '/admin/login') continue
    const name = route === '/admin' ? 'admin-dashboard' : `admin-${route.slice('/admin/'.length).replace(/\//g, '-')}`
    shots.push({ name, url: route })
  }
  shots.push(
    { name: 'admin-blog-topics', url: '/admin/blog?tab=topics' },
    { name: 'admin-blog-generation', url: '/admin/blog?tab=generation' },
    { name: 'admin-blog-calendar', url: '/admin/blog?tab=calendar' },
    { name: 'admin-blog-new-post', url: '/admin/blog?new=1' },
  )
  return shots
}

/** Loads the demo data as `npm start` does on an empty database. */
async function seed(env: TestStackEnv): Promise<void> {
  const client = new pg.Client({ connectionString: env.TEST_DATABASE_URL })
  await client.connect()
  try {
    await ensureZipBenchmarks(client, (line) => console.log(line))
  } finally {
    await client.end()
  }
  const outDir = fs.mkdtempSync(path.join(rootDir, '.data', 'screenshots-demo-'))
  try {
    await seedDemo({
      databaseUrl: env.TEST_DATABASE_URL,
      agents: args.agents,
      sales: args.agents * 20,
      seed: 'agent-insight-demo',
      outDir,
      log: (line) => console.log(line),
    })
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true })
  }
}

/**
 * What operators would have after a while: report requests from three visitors (through request-report, as the Get
 * Report form sends them), trending topics and one generated draft (the content functions' built-in writer).
 * @returns the administrator (signed up through the admin API, listed in user_roles, with an authenticator app, as
 * every administrator must have): email and the app's TOTP secret.
 */
async function operatorData(env: TestStackEnv): Promise<{ email: string; secret: string }> {
  const service = createClient(env.TEST_SUPABASE_URL, env.TEST_SUPABASE_SERVICE_ROLE_KEY, {
    auth: { persistSession: false },
  })
  const email = 'operator@example.com'
  const created = await service.auth.admin.createUser({ email, password: ADMIN_PASSWORD, email_confirm: true })
  if (created.error) throw created.error
  const role = await service.from('user_roles').insert({ user_id: created.data.user.id, role: 'admin' })
  if (role.error) throw role.error

  const anon = createClient(env.TEST_SUPABASE_URL, env.TEST_SUPABASE_ANON_KEY, { auth: { persistSession: false } })
  const agents = await service.from('agents').select('id, name, city, state').order('total_sales', { ascending: false })
  if (agents.error) throw agents.error
  const visitors = [
    ['Dana Whitfield', 'dana.whitfield@example.com', '(617) 555-0142', '18 Orchard St'],
    ['Luis Romero', 'luis.romero@example.com', '', ''],
    ['Priya Natarajan', 'priya.n@example.com', '(512) 555-0199', ''],
  ] as const
  for (const [index, [fullName, visitorEmail, phone, address]] of visitors.entries()) {
    const agent = agents.data[index * 7]!
    const { error } = await anon.functions.invoke('request-report', {
      body: {
        full_name: fullName,
        email: visitorEmail,
        phone,
        property_address: address,
        agent_id: agent.id,
        agent_name: agent.name,
        agent_location: [agent.city, agent.state].filter(Boolean).join(', '),
        source_page: `/agent/${agent.id}`,
      },
    })
    if (error) throw error
  }

  const admin = createClient(env.TEST_SUPABASE_URL, env.TEST_SUPABASE_ANON_KEY, { auth: { persistSession: false } })
  const signIn = await admin.auth.signInWithPassword({ email, password: ADMIN_PASSWORD })
  if (signIn.error) throw signIn.error
  // administrators work at aal2: enroll the authenticator app (its first code steps this session up)
  const { secret } = await enrollTotp(admin)
  const discovered = await admin.functions.invoke('discover-trending-topics', { body: { location: 'general' } })
  if (discovered.error) throw discovered.error
  const topics = await service.from('trending_topics').select('id').order('priority_score', { ascending: false })
  if (topics.error) throw topics.error
  for (const [index, topic] of topics.data.slice(0, 4).entries()) {
    const update = await service
      .from('trending_topics')
      .update({ status: index < 3 ? 'approved' : 'rejected' })
      .eq('id', topic.id)
    if (update.error) throw update.error
  }
  const generated = await admin.functions.invoke('generate-blog-content', {
    body: { topicId: topics.data[0]!.id, categoryId: null, autoPublish: false },
  })
  if (generated.error) throw generated.error
  return { email, secret }
}

async function capture(page: Page, out: string, name: string, width: number): Promise<void> {
  // no hover highlight where the last click left the pointer
  await page.mouse.move(0, 0)
  // islands that hydrate when visible: scroll through once so the shot shows them rendered
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    window.scrollTo(0, 0)
  })
  await page.waitForLoadState('networkidle')
  // skeletons give way to content; toasts of an earlier page are gone
  await page
    .locator('[aria-busy="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => {})
  const height = Math.min(MAX_HEIGHT, await page.evaluate(() => document.documentElement.scrollHeight))
  const png = await page.screenshot({
    clip: { x: 0, y: 0, width, height },
    fullPage: true,
    animations: 'disabled',
  })
  const file = path.join(out, `${name}-${width}.png`)
  await sharp(png).png({ palette: true, quality: 80, compressionLevel: 9, effort: 10 }).toFile(file)
  console.log(`${path.relative(rootDir, file)}  ${(fs.statSync(file).size / 1024).toFixed(0)} KiB`)
}

async function shoot(baseUrl: string, publicPages: Shot[], admin: { email: string; secret: string }): Promise<void> {
  fs.mkdirSync(args.out, { recursive: true })
  for (const file of fs.readdirSync(args.out)) if (file.endsWith('.png')) fs.rmSync(path.join(args.out, file))
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: playwrightConfig.use?.launchOptions?.args ?? ['--headless', '--no-sandbox'],
  })
  try {
    for (const viewport of VIEWPORTS) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1 })
      const page = await context.newPage()
      for (const shot of publicPages) {
        await page.goto(`${baseUrl}${shot.url}`, { waitUntil: 'networkidle' })
        await capture(page, args.out, shot.name, viewport.width)
      }
      await page.goto(`${baseUrl}/admin/login`, { waitUntil: 'networkidle' })
      await capture(page, args.out, 'admin-login', viewport.width)
      await page.getByLabel('Email').fill(admin.email)
      await page.getByLabel('Password').fill(ADMIN_PASSWORD)
      await page.getByRole('button', { name: 'Access Admin Dashboard' }).click()
      await page.getByLabel('Authentication code').fill(totpCode(admin.secret), { timeout: 30_000 })
      await page.getByRole('button', { name: 'Verify', exact: true }).click()
      await page.waitForURL(/\/admin$/, { timeout: 30_000 })
      // the welcome toast is not part of the dashboard
      await page.getByRole('button', { name: 'Dismiss notification' }).click()
      for (const shot of adminShots()) {
        await page.goto(`${baseUrl}${shot.url}`, { waitUntil: 'networkidle' })
        await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 20_000 })
        await capture(page, args.out, shot.name, viewport.width)
      }
      await context.close()
    }
  } finally {
    await browser.close()
  }
}

async function main() {
  console.log('Starting a throwaway stack...')
  const stack = await startTestStack()
  try {
    console.log(`Loading the demo data (${args.agents} agents)...`)
    await seed(stack.env)
    console.log('Building the site and the admin...')
    const site = await startE2ESite(stack.env)
    try {
      const publicPages = await publicShots(site.baseUrl, stack.env.TEST_DATABASE_URL)
      // after the public shots' data is read: the leads, topics and draft only change the admin
      const admin = await operatorData(stack.env)
      await shoot(site.baseUrl, publicPages, admin)
    } finally {
      await site.stop()
    }
  } finally {
    await stack.stop()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
  process.exitCode = 1
})
