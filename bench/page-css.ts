/**
 * `npm run bench:page-css`: what the per-page CSS (src/lib/page-css.ts, run by src/middleware.ts on every HTML page,
 * prerendered or rendered on demand) costs per page, on the pages of a built site.
 *
 * The built pages carry the sheet already cut to what each can use, so the bench first compiles the site's whole
 * Tailwind sheet as the build does (src/styles/global.css through Tailwind's compiler, the classes its scanner finds
 * in src/, then minified by Lightning CSS), puts it back into each page, and times `prunePageStyles` on it: the first
 * call (which parses the sheet: once per build, or per cold worker) and every page after it. Script tokens come from
 * the same scan the build uses (src/lib/page-css-script-tokens.ts).
 *
 * Options: `-- --site dist/site` a built site (default dist/site; `npm start` writes it), `-- --pages 500` pages
 * read (default 500), `-- --against <module.ts>` another module exporting `prunePageStyles` (e.g. an older
 * page-css.ts taken from git): both are timed, interleaved over two rounds (the second reported), and every page's
 * output compared, byte for byte and without white space.
 * Prints milliseconds per page (median, p95, mean), the first call, and the CSS bytes before and after. Figures only.
 */
import { compile, optimize } from '@tailwindcss/node'
import { Scanner } from '@tailwindcss/oxide'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { prunePageStyles, type ScriptTokens } from '~/lib/page-css.ts'
import { scanScriptTokens } from '~/lib/page-css-script-tokens.ts'

const root = path.resolve(import.meta.dirname, '..')
const { values } = parseArgs({
  options: {
    site: { type: 'string', default: path.join(root, 'dist/site') },
    pages: { type: 'string', default: '500' },
    against: { type: 'string' },
  },
})
const pageLimit = Number(values.pages)
if (!Number.isInteger(pageLimit) || pageLimit < 1)
  throw new Error(`--pages must be a whole number above 0, not ${values.pages}`)
const siteDir = path.resolve(values.site!)
if (!fs.existsSync(path.join(siteDir, 'index.html')))
  throw new Error(
    `${siteDir} holds no built site (index.html): run \`npm start\` or \`npm run build\` first, or pass --site`,
  )

type Prune = (html: string, scripts: ScriptTokens) => string

/** The site's whole Tailwind sheet, as the build's Vite plugin makes it before any page is cut. */
async function wholeSheet(): Promise<string> {
  const entry = path.join(root, 'src/styles/global.css')
  const compiler = await compile(fs.readFileSync(entry, 'utf8'), { base: path.dirname(entry), onDependency: () => {} })
  const sources = (
    compiler.root === 'none' ? [] : compiler.root === null ? [{ base: root, pattern: '**/*' }] : [compiler.root]
  ).map((source) => ({ ...source, negated: false }))
  const scanner = new Scanner({ sources: [...sources, ...compiler.sources] })
  return optimize(compiler.build(scanner.scan()), { minify: true }).code
}

/** Up to `limit` HTML files of the site, spread over its kinds of page (sorted paths, every n-th). */
function sitePages(limit: number): string[] {
  const all = fs
    .readdirSync(siteDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html') && !entry.parentPath.includes('_worker.js'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()
  const step = Math.max(1, Math.floor(all.length / limit))
  return all.filter((_, index) => index % step === 0).slice(0, limit)
}

const TAILWIND_STYLE = /<style\b[^>]*>(?:(?!<\/style>)[^])*@layer utilities(?:(?!<\/style>)[^])*<\/style>/i

/** Per-page milliseconds of `prune` over `pages` (after a first call, reported apart), and its outputs. */
function time(prune: Prune, pages: string[], scripts: ScriptTokens) {
  const started = performance.now()
  const first = prune(pages[0]!, scripts)
  const firstMs = performance.now() - started
  const outputs = [first]
  const times: number[] = []
  for (const page of pages.slice(1)) {
    const at = performance.now()
    outputs.push(prune(page, scripts))
    times.push(performance.now() - at)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0
  const mean = times.reduce((sum, value) => sum + value, 0) / Math.max(1, times.length)
  return { firstMs, median: at(0.5), p95: at(0.95), mean, outputs }
}

const sheet = await wholeSheet()
const scripts = scanScriptTokens(root)
const pages = sitePages(pageLimit)
  .map((file) => fs.readFileSync(file, 'utf8'))
  .filter((html) => TAILWIND_STYLE.test(html))
  .map((html) => html.replace(TAILWIND_STYLE, `<style>${sheet}</style>`))
if (pages.length === 0) throw new Error(`no page of ${siteDir} carries the Tailwind sheet`)

const cssBytes = (html: string) =>
  [...html.matchAll(/<style\b[^>]*>([^]*?)<\/style>/gi)].reduce((sum, match) => sum + match[1]!.length, 0)
// each module runs over the pages twice, the two interleaved, and the second round is reported (the first call from
// the first): the module timed first would otherwise pay the JIT's warm-up for both
const other = values.against
  ? ((await import(pathToFileURL(path.resolve(values.against)).href)) as { prunePageStyles: Prune })
  : null
const mineCold = time(prunePageStyles, pages, scripts)
const theirsCold = other ? time(other.prunePageStyles, pages, scripts) : null
const mine = { ...time(prunePageStyles, pages, scripts), firstMs: mineCold.firstMs }
const keptBytes = mine.outputs.map(cssBytes).sort((a, b) => a - b)

console.log(`Per-page CSS on ${pages.length} pages of ${siteDir}`)
console.log(`  machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load ${os.loadavg()[0]!.toFixed(2)}`)
console.log(
  `  whole sheet ${(sheet.length / 1024).toFixed(1)} KiB; kept per page: median ${(keptBytes[Math.floor(keptBytes.length / 2)]! / 1024).toFixed(1)} KiB`,
)
const line = (label: string, figures: ReturnType<typeof time>) =>
  console.log(
    `  ${label}: first call ${figures.firstMs.toFixed(1)} ms; per page median ${figures.median.toFixed(2)} ms, p95 ${figures.p95.toFixed(2)} ms, mean ${figures.mean.toFixed(2)} ms`,
  )
line('src/lib/page-css.ts', mine)

if (other && theirsCold) {
  const theirs = { ...time(other.prunePageStyles, pages, scripts), firstMs: theirsCold.firstMs }
  line(values.against!, theirs)
  const squeeze = (html: string) => html.replace(/\s+/g, '')
  const differing = pages.filter((_, index) => mine.outputs[index] !== theirs.outputs[index]).length
  const differingBeyondSpace = pages.filter(
    (_, index) => squeeze(mine.outputs[index]!) !== squeeze(theirs.outputs[index]!),
  ).length
  console.log(
    `  outputs: ${pages.length - differing} of ${pages.length} pages byte for byte the same; ` +
      `${pages.length - differingBeyondSpace} the same once white space is left out`,
  )
}
