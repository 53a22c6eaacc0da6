/**
 * `npm run check:budgets [-- --site <built site dir> --admin <built admin dir>]`
 *
 * Fails (exit 1) when a page ships more JavaScript than its budget in budgets.json. A page's JavaScript is
 * what loads before the visitor interacts: the inline scripts of its HTML and every script the HTML references
 * (`<script src>`, `<link rel=modulepreload>`, the component-url/renderer-url of an Astro island that hydrates on
 * its own: client:load, client:idle, client:only), plus the chunks those import statically, each file counted once, gzip level 9 (what a static host sends). Chunks
 * reached only through `import()` (lazy dialogs, lazy admin routes) and islands that wait for the visitor
 * (client:visible until scrolled into view, client:interaction until touched or focused) are not counted; the
 * table names the deferred islands. The after-paint scripts (src/lib/after-paint.ts: the header's, Share, the blog
 * filter, imported once the page has painted) are not counted either, as the header's lazily imported code was not
 * before them; their size per page is printed under the table. Where a
 * budget's `html` pattern matches many pages (every agent profile), the heaviest one is checked.
 *
 * Without --site/--admin it builds what it measures: a throwaway local stack with the seed posts and thirty agents
 * (bench/bench-site.ts), the site and the admin built into dist/.budgets-<random>/, removed afterwards (--keep keeps
 * it and prints the --site/--admin arguments that measure it again).
 * Each failure names the page, its file, the size and the budget, with its largest scripts.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import zlib from 'node:zlib'
import { z } from 'zod'
import { seedAgents } from '../bench/bench-site.ts'
import { adminTarget, buildIfChanged, siteTarget } from './lib/build.ts'
import { rootDir } from './lib/env.ts'
import { AFTER_PAINT_TYPE } from '~/lib/after-paint.ts'

const BudgetSchema = z.object({
  /** Page HTML, relative to the built directory; `*` and `[0-9]` patterns as fs.globSync reads them. */
  html: z.string().min(1),
  /** Pages the pattern matches that belong to another budget (e.g. the agent not-found page). */
  exclude: z.array(z.string()).default([]),
  kib: z.number().positive(),
  /** The issue-16 goal where the page does not reach it yet (printed, not enforced). */
  target: z.number().positive().optional(),
})
const BudgetsSchema = z.object({ pages: z.record(z.string(), BudgetSchema), admin: BudgetSchema })
type Budget = z.infer<typeof BudgetSchema>

const { values } = parseArgs({
  options: { site: { type: 'string' }, admin: { type: 'string' }, keep: { type: 'boolean' } },
})

const budgets = BudgetsSchema.parse(JSON.parse(fs.readFileSync(path.join(rootDir, 'budgets.json'), 'utf8')))

const gzipBytes = (text: Buffer | string) => zlib.gzipSync(text, { level: 9 }).length

/** Every static `import … from "x"`, `import "x"` and `export … from "x"` of a minified chunk (not `import()`). */
function staticImports(code: string): string[] {
  const found: string[] = []
  for (const match of code.matchAll(
    /(?:^|[;\s{}()])(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"'\s]+\.m?js)["']/g,
  ))
    found.push(match[1]!)
  return found
}

interface PageWeight {
  kib: number
  files: { name: string; bytes: number }[]
  /** Entry files of islands that wait for the visitor (client:visible, client:interaction), not counted. */
  deferredIslands: string[]
  /** The after-paint scripts and the chunks they import statically, not counted above (see the module comment). */
  afterPaint: { kib: number; files: string[] }
}

/**
 * The JavaScript of one built HTML page in gzip KiB.
 * @param root the built directory; `urlBase` is the URL path it is served at ('/' for the site, '/admin/').
 */
function pageWeight(root: string, htmlFile: string, urlBase: string): PageWeight {
  const html = fs.readFileSync(htmlFile, 'utf8')
  const files: { name: string; bytes: number }[] = []
  const seen = new Set<string>()
  const afterPaintEntries: string[] = []
  const resolveUrl = (url: string, from: string): string | null => {
    if (/^(?:[a-z]+:)?\/\//i.test(url) || url.startsWith('data:')) return null // another origin is not ours to count
    if (url.startsWith('/')) return url.startsWith(urlBase) ? path.join(root, url.slice(urlBase.length)) : null
    return path.resolve(path.dirname(from), url)
  }
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    if (!fs.existsSync(file))
      throw new Error(
        `${path.relative(root, htmlFile)} references ${path.relative(root, file)}, which the build did not write`,
      )
    const code = fs.readFileSync(file)
    files.push({ name: path.relative(root, file), bytes: gzipBytes(code) })
    for (const imported of staticImports(code.toString('utf8'))) {
      const target = resolveUrl(imported, file)
      if (target) visit(target)
    }
  }
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attributes = match[1]!
    const type = /\btype=["']?([^"'\s>]+)/.exec(attributes)?.[1]
    const src = /\bsrc=["']([^"']+)["']/.exec(attributes)?.[1]
    if (type === AFTER_PAINT_TYPE) {
      if (src) afterPaintEntries.push(src)
      continue
    }
    if (type && type !== 'module' && type !== 'text/javascript') continue // JSON-LD and other data blocks
    if (src) {
      const target = resolveUrl(src, htmlFile)
      if (target) visit(target)
    } else if (match[2]!.trim()) {
      files.push({ name: '(inline script)', bytes: gzipBytes(match[2]!) })
      for (const imported of staticImports(match[2]!)) {
        const target = resolveUrl(imported, htmlFile)
        if (target) visit(target)
      }
    }
  }
  for (const match of html.matchAll(/<link\b[^>]*\brel=["']?modulepreload["']?[^>]*>/g)) {
    const href = /\bhref=["']([^"']+)["']/.exec(match[0])?.[1]
    const target = href ? resolveUrl(href, htmlFile) : null
    if (target) visit(target)
  }
  // islands that hydrate without the visitor doing anything (client:load, client:idle, client:only) count; those that
  // wait for the visitor (client:visible: scrolled into view, client:interaction: touched) are listed as deferred
  const deferred = new Set<string>()
  for (const match of html.matchAll(/<astro-island\b[^>]*>/g)) {
    const client = /\bclient="([^"]+)"/.exec(match[0])?.[1]
    const urls = [...match[0].matchAll(/\b(?:component-url|renderer-url|before-hydration-url)="([^"]+)"/g)].map((url) =>
      resolveUrl(url[1]!, htmlFile),
    )
    for (const target of urls) {
      if (!target) continue
      if (client === 'visible' || client === 'interaction') deferred.add(target)
      else visit(target)
    }
  }
  const deferredFiles = [...deferred].filter((file) => !seen.has(file))
  const kib = files.reduce((sum, file) => sum + file.bytes, 0) / 1024
  // the after-paint scripts, counted apart: visiting them adds their files (and any chunk not counted yet) to `files`
  const counted = files.length
  for (const src of afterPaintEntries) {
    const target = resolveUrl(src, htmlFile)
    if (target) visit(target)
  }
  const afterPaint = files.splice(counted)
  return {
    kib,
    files,
    deferredIslands: deferredFiles.map((file) => path.relative(root, file)),
    afterPaint: {
      kib: afterPaint.reduce((sum, file) => sum + file.bytes, 0) / 1024,
      files: afterPaint.map((file) => file.name),
    },
  }
}

interface Row {
  name: string
  page: string
  weight: PageWeight
  budget: number
  target?: number
}

function check(name: string, budget: Budget, root: string, urlBase: string): Row {
  const pages = fs
    .globSync(budget.html, { cwd: root })
    .filter((page) => !budget.exclude.includes(page))
    .sort()
  if (pages.length === 0) throw new Error(`budgets.json "${name}": no built page matches ${budget.html} in ${root}`)
  let heaviest: Row | undefined
  for (const page of pages) {
    const weight = pageWeight(root, path.join(root, page), urlBase)
    if (!heaviest || weight.kib > heaviest.weight.kib)
      heaviest = { name, page, weight, budget: budget.kib, target: budget.target }
  }
  return heaviest!
}

async function measure(siteDir: string, adminDir: string): Promise<Row[]> {
  return [
    ...Object.entries(budgets.pages).map(([name, budget]) => check(name, budget, siteDir, '/')),
    check('admin', budgets.admin, adminDir, '/admin/'),
  ]
}

async function withFreshBuild<T>(use: (siteDir: string, adminDir: string) => Promise<T>): Promise<T> {
  const { startTestStack } = await import('../tests/support/test-stack.ts')
  console.log('Building the site and the admin against a throwaway stack (seed posts, thirty agents)...')
  const stack = await startTestStack()
  fs.mkdirSync(path.join(rootDir, 'dist'), { recursive: true })
  // inside the repository: Astro 6 could not write astro:assets images to an outDir outside it (not rechecked on Astro 7)
  const outDir = fs.mkdtempSync(path.join(rootDir, 'dist', '.budgets-'))
  try {
    await seedAgents(stack.env.TEST_DATABASE_URL)
    const env = {
      PUBLIC_SUPABASE_URL: stack.env.TEST_SUPABASE_URL,
      PUBLIC_SUPABASE_ANON_KEY: stack.env.TEST_SUPABASE_ANON_KEY,
      SITE_URL: 'http://localhost:4321',
    }
    const site = { ...siteTarget, outDir: path.join(outDir, 'site') }
    const admin = { ...adminTarget, outDir: path.join(outDir, 'admin') }
    await buildIfChanged(site, env, true)
    await buildIfChanged(admin, env, true)
    return await use(site.outDir, admin.outDir)
  } finally {
    if (values.keep)
      console.log(
        `Kept the build: --site ${path.relative(rootDir, outDir)}/site --admin ${path.relative(rootDir, outDir)}/admin`,
      )
    else fs.rmSync(outDir, { recursive: true, force: true })
    await stack.stop()
  }
}

const rows =
  values.site && values.admin
    ? await measure(path.resolve(values.site), path.resolve(values.admin))
    : await withFreshBuild((siteDir, adminDir) => measure(siteDir, adminDir))

const over = rows.filter((row) => row.weight.kib > row.budget)
console.log('\nJavaScript per page, KiB gzip (budgets.json)')
const table = rows.map((row) => [
  row.name,
  row.weight.kib.toFixed(1),
  row.target ? `${row.budget} (goal ${row.target})` : String(row.budget),
  row.weight.kib > row.budget ? 'OVER' : 'ok',
  row.page,
])
const deferredNote = rows
  .filter((row) => row.weight.deferredIslands.length > 0)
  .map((row) => `  ${row.name}: ${row.weight.deferredIslands.join(', ')}`)
const widths = [0, 1, 2, 3, 4].map((column) =>
  Math.max(...[['Page', 'KiB', 'Budget', '', 'Heaviest file'], ...table].map((line) => line[column]!.length)),
)
for (const line of [['Page', 'KiB', 'Budget', '', 'Heaviest file'], ...table])
  console.log(line.map((cell, column) => cell.padEnd(widths[column]!)).join('  '))
const afterPaintNote = rows
  .filter((row) => row.weight.afterPaint.files.length > 0)
  .map(
    (row) => `  ${row.name}: ${row.weight.afterPaint.kib.toFixed(1)} KiB (${row.weight.afterPaint.files.join(', ')})`,
  )
if (afterPaintNote.length > 0)
  console.log(
    `Scripts loaded after the first paint, before the visitor does anything (not counted above):\n${afterPaintNote.join('\n')}`,
  )
if (deferredNote.length > 0)
  console.log(
    `Islands loaded only when the visitor scrolls to or touches them (not counted):\n${deferredNote.join('\n')}`,
  )
if (over.length > 0) {
  console.error('')
  for (const row of over) {
    const largest = [...row.weight.files].sort((a, b) => b.bytes - a.bytes).slice(0, 5)
    console.error(
      `JS budget exceeded: ${row.name} (${row.page}) ships ${row.weight.kib.toFixed(1)} KiB gzip, budget ${row.budget} KiB (budgets.json).`,
    )
    console.error(
      `  largest: ${largest.map((file) => `${file.name} ${(file.bytes / 1024).toFixed(1)} KiB`).join(', ')}`,
    )
  }
  // the point of this check: a page over its budget must stop .ci/run (set -e), with the pages named above
  process.exit(1)
}
console.log(`\nAll ${rows.length} pages within their JS budgets.`)
