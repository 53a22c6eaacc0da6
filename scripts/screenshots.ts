/**
 * `npm run screenshots [-- --base-url http://localhost:4321 --agent <uuid> --compare <uuid>,<uuid> --out docs/screenshots]`
 *
 * Screenshots of every public page at a phone (390×844) and a laptop (1280×800) viewport, written as
 * `<page>-390.png` and `<page>-1280.png` to docs/screenshots/ so a reviewer can see the site without running it.
 * Each is the full page, cut at 3,000 CSS px and stored as a palette PNG (sharp) to keep the committed files small.
 *
 * Without --base-url it builds and serves the site against a throwaway stack with the seed posts and thirty fixture
 * agents (bench/bench-site.ts), as `npm run bench:lighthouse` does. With --base-url it shoots that site; pass --agent
 * for the profile page and --compare for the compare page (each is skipped otherwise). Chromium: CHROME_PATH (default
 * /usr/bin/chromium).
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright'
import sharp from 'sharp'
import { z } from 'zod'
import { seedAgents } from '../bench/bench-site.ts'
import playwrightConfig from '../playwright.config.ts'
import { startE2ESite } from '../tests/support/e2e-site.ts'
import { parseCompareIds } from '~/lib/compare.ts'
import { agentUrl, compareUrl, zipUrl } from '@shared/urls.ts'
import { sqlAt } from '../tests/support/sql.ts'
import { rootDir, startTestStack } from '../tests/support/test-stack.ts'

const ArgsSchema = z.object({
  baseUrl: z.url().optional(),
  agent: z.uuid().optional(),
  // the compare page's own rule (2-4 uuids): its message names what is wrong
  compare: z
    .string()
    .transform((value, context) => {
      const parsed = parseCompareIds(`?agents=${value}`)
      if (!parsed.ok) context.addIssue({ code: 'custom', message: `--compare: ${parsed.message}` })
      return parsed.ok ? parsed.ids : z.NEVER
    })
    .optional(),
  out: z.string().min(1).default(path.join(rootDir, 'docs/screenshots')),
})
const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    agent: { type: 'string' },
    compare: { type: 'string' },
    out: { type: 'string' },
  },
})
const args = ArgsSchema.parse({
  baseUrl: values['base-url'],
  agent: values.agent,
  compare: values.compare,
  out: values.out,
})

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const
const MAX_HEIGHT = 3_000

/** Why a page without a route is skipped. */
const SKIPPED: Record<string, string> = {
  article: 'no article linked from /blog',
  'agent-profile': 'no agent (pass --agent <uuid>)',
  compare: 'no agents (pass --compare <uuid>,<uuid>)',
}

async function firstArticle(baseUrl: string): Promise<string | undefined> {
  const html = await (await fetch(`${baseUrl}/blog`)).text()
  return /href="(\/blog\/(?!category\/)[a-z0-9-]+)"/.exec(html)?.[1]
}

async function shoot(baseUrl: string, agentId: string | undefined, compareIds: readonly string[] | undefined) {
  const article = await firstArticle(baseUrl)
  const pages: [string, string | undefined][] = [
    ['home', '/'],
    ['search', '/search'],
    ['search-results', '/search-results?q=02139&type=zipcode'],
    ['search-results-empty', '/search-results?q=Nobody%20Anywhere&type=agent'],
    ['search-results-invalid', '/search-results?q=abc&type=zipcode'],
    ['agent-profile', agentId ? agentUrl(agentId) : undefined],
    ['compare', compareIds ? compareUrl(compareIds) : undefined],
    ['zip-page', zipUrl('02139')],
    ['sample-report', '/sample-report'],
    ['blog', '/blog'],
    ['article', article],
    ['blog-category', '/blog/category/market-analysis'],
    ['article-not-found', '/blog/no-such-article'],
    ['about', '/about'],
    ['how-it-works', '/how-it-works'],
    ['auth', '/auth'],
    ['not-found', '/no-such-page'],
  ]
  fs.mkdirSync(args.out, { recursive: true })
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: playwrightConfig.use?.launchOptions?.args ?? ['--headless', '--no-sandbox'],
  })
  try {
    for (const viewport of VIEWPORTS) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1 })
      const page = await context.newPage()
      for (const [name, route] of pages) {
        if (!route) {
          console.log(`Skipping ${name}: ${SKIPPED[name] ?? 'no route'}`)
          continue
        }
        await page.goto(`${baseUrl}${route}`, { waitUntil: 'networkidle' })
        // islands that hydrate when visible: scroll through once so the shot shows them rendered
        await page.evaluate(async () => {
          for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight) {
            window.scrollTo(0, y)
            await new Promise((resolve) => setTimeout(resolve, 50))
          }
          window.scrollTo(0, 0)
        })
        await page.waitForLoadState('networkidle')
        const height = Math.min(MAX_HEIGHT, await page.evaluate(() => document.documentElement.scrollHeight))
        const png = await page.screenshot({
          clip: { x: 0, y: 0, width: viewport.width, height },
          fullPage: true,
          animations: 'disabled',
        })
        const file = path.join(args.out, `${name}-${viewport.width}.png`)
        await sharp(png).png({ palette: true, quality: 80, compressionLevel: 9, effort: 10 }).toFile(file)
        console.log(`${path.relative(rootDir, file)}  ${(fs.statSync(file).size / 1024).toFixed(0)} KiB`)
      }
      await context.close()
    }
  } finally {
    await browser.close()
  }
}

async function main() {
  if (args.baseUrl) {
    await shoot(args.baseUrl.replace(/\/+$/, ''), args.agent, args.compare)
    return
  }
  console.log('Starting a throwaway stack and building the site...')
  const stack = await startTestStack()
  try {
    const agentId = await seedAgents(stack.env.TEST_DATABASE_URL)
    const site = await startE2ESite(stack.env)
    try {
      const others = await sqlAt<{ id: string }>(
        stack.env.TEST_DATABASE_URL,
        `select id from public.agents where id <> $1 and zip_code = '02139' order by name limit 2`,
        [agentId],
      )
      await shoot(site.baseUrl, agentId, [agentId, ...others.map((row) => row.id)])
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
