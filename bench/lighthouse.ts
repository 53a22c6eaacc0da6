/**
 * `npm run bench:lighthouse [-- --base-url http://localhost:4321 --agent <uuid> --runs 1 --report-dir <dir> --serve
 *  --only compare,zip]`
 *
 * Lighthouse (mobile profile: Moto G Power viewport, simulated slow 4G and 4x CPU slowdown) over the public pages:
 * /, /blog, an article, /search-results?q=..., an agent profile (prerendered, and one rendered on demand),
 * /sample-report, /compare with two agents, the agent's ZIP page and its city page, and a bare Astro page served by
 * the same local static server in the same run (bench/fixtures/bare-astro: the home page of Astro's blog starter,
 * no JavaScript, no images). Prints Performance, Accessibility, Best Practices and SEO (0-100), the JavaScript each page ships,
 * in KiB gzip-compressed (each same-origin script the page loaded, gzip level 9, as a static host would serve it),
 * LCP, TBT, CLS, each page's LCP as a multiple of the bare page's, and whether the page meets the targets
 * (Performance 100, TBT <= 30 ms, LCP <= 1.1x the bare page's).
 *
 * Without --base-url it builds and serves the site the way `npm start` does, against a throwaway local stack
 * (own Postgres, free ports) holding the seed posts plus 30 fixture agents with closed sales in one ZIP, so the
 * search and profile pages have data. With --base-url it measures that site; pass --agent for the profile page
 * (else the first agent found through SUPABASE_URL / SUPABASE_ANON_KEY from the environment, else it is skipped).
 * Chromium: CHROME_PATH, else the one `npm test` finds or sets up (tests/support/chromium.ts), with the flags from
 * playwright.config.ts.
 * A benchmark: it prints figures and never fails on them. Scores move by several points between runs on a busy
 * machine; use --runs n to take the median. --report-dir writes each run's full Lighthouse result there
 * (<page>-<run>.json, open in the Lighthouse viewer) to see the LCP element, opportunities and each script's size.
 * --serve builds and serves the bench site, prints its URL and agent id, and keeps serving until interrupted, so
 * repeated `--base-url <url> --agent <id>` runs skip the start-up. --only measures the pages whose label contains one
 * of the comma-separated words (case-insensitive; e.g. `--only compare` for Compare), and the bare page, which
 * every run measures as the yardstick.
 */
import fs from 'node:fs'
import os from 'node:os'
import nodePath from 'node:path'
import { parseArgs } from 'node:util'
import zlib from 'node:zlib'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import pg from 'pg'
import { z } from 'zod'
import playwrightConfig from '../playwright.config.ts'
import { seedAgents } from './bench-site.ts'
import { ensureChromium } from '../tests/support/chromium.ts'
import { startE2ESite } from '../tests/support/e2e-site.ts'
import { startTestStack } from '../tests/support/test-stack.ts'
import { startStaticServer } from '../supabase/local/static-server.ts'
import { freePort } from '../supabase/local/postgres.ts'

const ArgsSchema = z.object({
  baseUrl: z.url().optional(),
  agent: z.uuid().optional(),
  query: z.string().min(1).default('Smith'),
  runs: z.coerce.number().int().min(1).max(9).default(1),
  reportDir: z.string().min(1).optional(),
  serve: z.boolean().default(false),
  only: z
    .string()
    .optional()
    .transform((value) =>
      value
        ?.split(',')
        .map((word) => word.trim().toLowerCase())
        .filter(Boolean),
    ),
})

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    agent: { type: 'string' },
    query: { type: 'string' },
    runs: { type: 'string' },
    'report-dir': { type: 'string' },
    serve: { type: 'boolean' },
    only: { type: 'string' },
  },
})
const args = ArgsSchema.parse({
  baseUrl: values['base-url'],
  agent: values.agent,
  query: values.query,
  runs: values.runs,
  reportDir: values['report-dir'],
  serve: values.serve,
  only: values.only,
})

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const

interface PageResult {
  label: string
  path: string
  scores: Record<(typeof CATEGORIES)[number], number>
  jsGzipKiB: number
  jsFiles: number
  lcpMs: number
  tbtMs: number
  /** Cumulative Layout Shift (unitless score; our target is at most 0.02). */
  cls: number
}

/** The API of the measured site: the throwaway stack's, or SUPABASE_URL / SUPABASE_ANON_KEY from the environment. */
let api: { url: string; key: string } | undefined = (() => {
  const url = process.env.SUPABASE_URL ?? process.env.PUBLIC_SUPABASE_URL
  const key = process.env.SUPABASE_ANON_KEY ?? process.env.PUBLIC_SUPABASE_ANON_KEY
  return url && key ? { url, key } : undefined
})()

/** Rows of a REST query through the anon key, or [] without an API. */
async function rest<T>(query: string): Promise<T[]> {
  if (!api) return []
  const response = await fetch(`${api.url}/rest/v1/${query}`, {
    headers: { apikey: api.key, Authorization: `Bearer ${api.key}` },
  })
  return response.ok ? ((await response.json()) as T[]) : []
}

/** The agent with the most sales, for --base-url runs without --agent. */
const findAgent = async () => (await rest<{ id: string }>('agents?select=id&order=total_sales.desc&limit=1'))[0]?.id

/** An agent with closed sales whose page the build did not prerender (rendered on demand). */
async function findOnDemandAgent(): Promise<string | undefined> {
  const candidates = await rest<{ agent_id: string }>('agent_page_versions?select=agent_id&prerender=is.false&limit=50')
  if (candidates.length === 0) return undefined
  const withSales = await rest<{ id: string }>(
    `agents?select=id&total_sales=gt.0&id=in.(${candidates.map((row) => row.agent_id).join(',')})&limit=1`,
  )
  return withSales[0]?.id
}

/** The agent's ZIP page, its city page and another agent of that ZIP (for compare), from the pages' links. */
async function findArea(baseUrl: string, agentId: string) {
  const agentHtml = await (await fetch(`${baseUrl}/agent/${agentId}`)).text()
  const zip = /href="(\/agents\/\d{5})"/.exec(agentHtml)?.[1]
  if (!zip) return {}
  const zipHtml = await (await fetch(`${baseUrl}${zip}`)).text()
  const city = /href="(\/agents\/[a-z]{2}\/[^"]+)"/.exec(zipHtml)?.[1]
  const other = [...zipHtml.matchAll(/href="\/agent\/([0-9a-f-]{36})"/g)]
    .map((match) => match[1])
    .find((id) => id !== agentId)
  return { zip, city, compare: other ? `/compare?agents=${agentId},${other}` : undefined }
}

/** The bare Astro page (bench/fixtures/bare-astro) served by the local static server the site is served by. */
async function serveBarePage(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'bare-astro-'))
  fs.cpSync(nodePath.join(import.meta.dirname, 'fixtures/bare-astro'), dir, { recursive: true })
  const port = await freePort()
  const server = await startStaticServer({ port, siteDir: () => dir, adminDir: dir })
  return {
    url: `http://localhost:${port}/`,
    async stop() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The first article linked from /blog. */
async function findArticle(baseUrl: string): Promise<string | undefined> {
  const html = await (await fetch(`${baseUrl}/blog`)).text()
  return /href="(\/blog\/(?!category\/)[a-z0-9-]+)"/.exec(html)?.[1]
}

async function gzipKiB(urls: string[]): Promise<number> {
  let bytes = 0
  for (const url of urls)
    bytes += zlib.gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer()), { level: 9 }).length
  return bytes / 1024
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!

/**
 * Deactivates the stack's pg_cron jobs (the 30-second `rebuild-for-due-posts`): the seed holds scheduled posts, and a
 * rebuild that replaces the served files while Lighthouse loads a page ends that run with NO_NAVSTART. A throwaway
 * stack only; measuring a site the visitor would see does not need the scheduler.
 */
async function pauseScheduler(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rowCount } = await client.query('update cron.job set active = false where active')
    console.log(`Paused ${rowCount ?? 0} scheduled job(s) for the measurement.`)
  } finally {
    await client.end()
  }
}

/** One Lighthouse run; a runtime error (NO_NAVSTART, a page that did not load) is retried once and said so. */
async function runOnce(url: string, port: number, path: string) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] })
    if (!result) throw new Error(`Lighthouse returned nothing for ${path}`)
    const error = result.lhr.runtimeError
    if (!error) return result.lhr
    if (attempt >= 2) throw new Error(`Lighthouse failed on ${path} twice: ${error.code ?? ''} ${error.message}`)
    console.log(`  Lighthouse failed on ${path} (${error.code ?? ''} ${error.message}); retrying once.`)
  }
}

async function measure(baseUrl: string, label: string, path: string, port: number): Promise<PageResult> {
  const runs: PageResult[] = []
  for (let run = 0; run < args.runs; run += 1) {
    const lhr = await runOnce(`${baseUrl}${path}`, port, path)
    if (args.reportDir) {
      fs.mkdirSync(args.reportDir, { recursive: true })
      fs.writeFileSync(
        nodePath.join(args.reportDir, `${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${run + 1}.json`),
        JSON.stringify(lhr),
      )
    }
    const requests =
      (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string }[] } | undefined)
        ?.items ?? []
    const origin = new URL(baseUrl).origin
    const scripts = [
      ...new Set(
        requests
          .filter((item) => item.resourceType === 'Script' && item.url.startsWith(origin))
          .map((item) => item.url),
      ),
    ]
    runs.push({
      label,
      path,
      scores: Object.fromEntries(
        CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
      ) as PageResult['scores'],
      jsGzipKiB: await gzipKiB(scripts),
      jsFiles: scripts.length,
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
    })
  }
  return {
    ...runs[0]!,
    scores: Object.fromEntries(
      CATEGORIES.map((category) => [category, median(runs.map((run) => run.scores[category]))]),
    ) as PageResult['scores'],
    lcpMs: median(runs.map((run) => run.lcpMs)),
    tbtMs: median(runs.map((run) => run.tbtMs)),
    cls: median(runs.map((run) => run.cls)),
  }
}

async function main() {
  let baseUrl = args.baseUrl?.replace(/\/+$/, '')
  let agentId = args.agent
  const cleanups: (() => Promise<void>)[] = []
  try {
    if (!baseUrl) {
      console.log('Starting a throwaway stack and building the site (as npm start serves it)...')
      const stack = await startTestStack()
      cleanups.unshift(() => stack.stop())
      await pauseScheduler(stack.env.TEST_DATABASE_URL)
      await seedAgents(stack.env.TEST_DATABASE_URL)
      api = { url: stack.env.TEST_SUPABASE_URL, key: stack.env.TEST_SUPABASE_ANON_KEY }
      // the agent with the most sales: prerendered (the first of its ZIP page)
      agentId = await findAgent()
      const site = await startE2ESite(stack.env)
      cleanups.unshift(() => site.stop())
      baseUrl = site.baseUrl
      if (args.serve) {
        console.log(
          `Serving ${baseUrl} (agent ${agentId}); measure with --base-url ${baseUrl} --agent ${agentId}. Ctrl-C stops.`,
        )
        await new Promise<void>((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve))
        return
      }
    } else {
      agentId ??= await findAgent()
    }

    const article = await findArticle(baseUrl)
    const area = agentId ? await findArea(baseUrl, agentId) : {}
    const onDemand = await findOnDemandAgent()
    // measured as visitors after the first get it: from the host's cache (the first render's time is bench:publish's)
    if (onDemand) await (await fetch(`${baseUrl}/agent/${onDemand}`)).text()
    const bare = await serveBarePage()
    cleanups.unshift(() => bare.stop())
    const pages: [string, string | undefined, string?][] = [
      ['Bare Astro page', '/', bare.url.replace(/\/$/, '')],
      ['Home', '/'],
      ['Blog', '/blog'],
      ['Article', article],
      ['Search results', `/search-results?q=${encodeURIComponent(args.query)}&type=agent`],
      ['Agent profile', agentId ? `/agent/${agentId}` : undefined],
      ['Agent on demand', onDemand ? `/agent/${onDemand}` : undefined],
      ['Sample report', '/sample-report'],
      ['Compare', area.compare],
      ['ZIP page', area.zip],
      ['City page', area.city],
    ]

    const flags = (playwrightConfig.use?.launchOptions?.args ?? ['--headless', '--no-sandbox']).filter(
      (flag) => flag !== '--headless',
    )
    let chromePath = process.env.CHROME_PATH
    if (!chromePath) {
      const found = await ensureChromium((line) => console.log(line))
      chromePath = found.executablePath
      // the npm build brings its own NSS libraries; Chrome inherits this process's environment
      if (found.libraryPath)
        process.env.LD_LIBRARY_PATH = [found.libraryPath, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':')
    }
    const chrome = await chromeLauncher.launch({
      chromePath,
      chromeFlags: ['--headless=new', ...flags],
    })
    cleanups.unshift(async () => {
      chrome.kill()
    })

    const results: PageResult[] = []
    for (const [label, path, origin] of pages) {
      if (args.only && label !== 'Bare Astro page' && !args.only.some((word) => label.toLowerCase().includes(word)))
        continue
      if (!path) {
        console.log(
          `Skipping ${label}: ${label === 'Article' ? 'no article linked from /blog' : 'none found (pass --agent <uuid>, or the site has none)'}`,
        )
        continue
      }
      process.stdout.write(`Measuring ${label} (${path})...\n`)
      results.push(await measure(origin ?? baseUrl, label, path, chrome.port))
    }
    const bareLcp = results.find((result) => result.label === 'Bare Astro page')?.lcpMs ?? NaN

    console.log(`\nLighthouse ${'12'} mobile profile, ${args.runs} run(s) per page (median), ${baseUrl}`)
    console.log(
      `Machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${os.loadavg()[0]!.toFixed(1)}`,
    )
    const header = [
      'Page',
      'Perf',
      'A11y',
      'Best Pr.',
      'SEO',
      'JS gzip KiB',
      'JS files',
      'LCP ms',
      'TBT ms',
      'CLS',
      'LCP / bare',
      'Targets',
      'Path',
    ]
    const rows = results.map((result) => [
      result.label,
      String(result.scores.performance),
      String(result.scores.accessibility),
      String(result.scores['best-practices']),
      String(result.scores.seo),
      result.jsGzipKiB.toFixed(1),
      String(result.jsFiles),
      String(Math.round(result.lcpMs)),
      String(Math.round(result.tbtMs)),
      result.cls.toFixed(3),
      `${(result.lcpMs / bareLcp).toFixed(2)}x`,
      result.label === 'Bare Astro page'
        ? '(reference)'
        : [
            result.scores.performance === 100 ? 'Perf 100' : 'Perf < 100',
            result.tbtMs <= 30 ? 'TBT ok' : 'TBT > 30',
            result.lcpMs <= 1.1 * bareLcp ? 'LCP ok' : 'LCP > 1.1x',
          ].join(', '),
      result.path.length > 60 ? `${result.path.slice(0, 57)}...` : result.path,
    ])
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
    const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`
    console.log(line(header))
    console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
    for (const row of rows) console.log(line(row))
    console.log(
      'Targets: Performance 100, TBT <= 30 ms, LCP <= 1.1x the bare Astro page measured in the same run and served by the same local static server.',
    )
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((error: unknown) => console.error('Cleanup failed', error))
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
  process.exitCode = 1
})
