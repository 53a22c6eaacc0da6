/**
 * `npm run bench:lighthouse [-- --base-url http://localhost:4321 --agent <uuid> --runs 1 --report-dir <dir> --serve]`
 *
 * Lighthouse (mobile profile: Moto G Power viewport, simulated slow 4G and 4x CPU slowdown) over the public pages:
 * /, /blog, an article, /search-results?q=..., an agent profile and /sample-report. Prints Performance,
 * Accessibility, Best Practices and SEO (0-100) and the JavaScript each page ships, in KiB gzip-compressed
 * (each same-origin script the page loaded, gzip level 9, as a static host would serve it; the local server sends
 * them uncompressed, which also costs the local Performance score a little).
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
 * repeated `--base-url <url> --agent <id>` runs skip the start-up.
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

const ArgsSchema = z.object({
  baseUrl: z.url().optional(),
  agent: z.uuid().optional(),
  query: z.string().min(1).default('Smith'),
  runs: z.coerce.number().int().min(1).max(9).default(1),
  reportDir: z.string().min(1).optional(),
  serve: z.boolean().default(false),
})

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    agent: { type: 'string' },
    query: { type: 'string' },
    runs: { type: 'string' },
    'report-dir': { type: 'string' },
    serve: { type: 'boolean' },
  },
})
const args = ArgsSchema.parse({
  baseUrl: values['base-url'],
  agent: values.agent,
  query: values.query,
  runs: values.runs,
  reportDir: values['report-dir'],
  serve: values.serve,
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

/** First agent id through the REST API, for --base-url runs without --agent. */
async function findAgent(): Promise<string | undefined> {
  const url = process.env.SUPABASE_URL ?? process.env.PUBLIC_SUPABASE_URL
  const key = process.env.SUPABASE_ANON_KEY ?? process.env.PUBLIC_SUPABASE_ANON_KEY
  if (!url || !key) return undefined
  const response = await fetch(`${url}/rest/v1/agents?select=id&order=total_sales.desc&limit=1`, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  })
  if (!response.ok) return undefined
  return ((await response.json()) as { id: string }[])[0]?.id
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
      agentId = await seedAgents(stack.env.TEST_DATABASE_URL)
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
    const pages: [string, string | undefined][] = [
      ['Home', '/'],
      ['Blog', '/blog'],
      ['Article', article],
      ['Search results', `/search-results?q=${encodeURIComponent(args.query)}&type=agent`],
      ['Agent profile', agentId ? `/agent/${agentId}` : undefined],
      ['Sample report', '/sample-report'],
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
    for (const [label, path] of pages) {
      if (!path) {
        console.log(
          `Skipping ${label}: ${label === 'Article' ? 'no article linked from /blog' : 'no agent (pass --agent <uuid>)'}`,
        )
        continue
      }
      process.stdout.write(`Measuring ${label} (${path})...\n`)
      results.push(await measure(baseUrl, label, path, chrome.port))
    }

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
      result.path.length > 60 ? `${result.path.slice(0, 57)}...` : result.path,
    ])
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
    const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`
    console.log(line(header))
    console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
    for (const row of rows) console.log(line(row))
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((error: unknown) => console.error('Cleanup failed', error))
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
  process.exitCode = 1
})
