/**
 * `npm run check:docs`: fails (exit 1) when README.md or a Markdown file under docs/ names a repository path that does
 * not exist, so the docs cannot keep pointing at a file that moved or was deleted; when README.md does not link a
 * Markdown file under docs/, so the quickstart reaches every document; and when docs/testing.md's index by feature
 * leaves out a stack or browser test file.
 *
 * What counts as a path: an inline code span or a relative link target that starts with one of the repository's
 * top-level folders (src/, admin/, supabase/, scripts/, tests/, bench/, public/, docs/, .ci/) or names a top-level file
 * (package.json, astro.config.mjs, ...). Link targets resolve from the Markdown file's own folder; code spans from the
 * repository root. Files the reader creates (`.env`, `supabase/functions/.env`), globs and placeholders (`*`, `<id>`, `{a,b}`, `...`) and generated folders (dist/, .data/) are not
 * checked. A trailing `:line`, `#anchor` or punctuation is ignored.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TOP_FOLDERS = ['src', 'admin', 'supabase', 'scripts', 'tests', 'bench', 'public', 'docs', '.ci']
const TOP_FILES = [
  'package.json',
  'package-lock.json',
  'astro.config.mjs',
  'tsconfig.json',
  'vitest.config.ts',
  'playwright.config.ts',
  'eslint.config.js',
  'aliases.ts',
  'budgets.json',
  'netlify.toml',
  '.env.example',
  '.env.production.example',
  '.prettierrc.json',
]
const PLACEHOLDER = /[*<>{}]|\.\.\.|…/

/** One path a document names that is not in the repository. */
export interface DeadPath {
  file: string
  line: number
  target: string
}

/** The Markdown files checked: README.md and every .md under docs/. */
export function markdownFiles(dir = root): string[] {
  const found = [path.join(dir, 'README.md')]
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.name.endsWith('.md')) found.push(full)
    }
  }
  walk(path.join(dir, 'docs'))
  return found.filter((file) => fs.existsSync(file))
}

function clean(target: string): string {
  return target
    .replace(/[#?].*$/, '')
    .replace(/:\d+(-\d+)?$/, '')
    .replace(/[.,;:)]+$/, '')
}

function looksLikeRepoPath(target: string): boolean {
  if (PLACEHOLDER.test(target) || /\s/.test(target)) return false
  // files the reader creates (secrets, local settings) are named in instructions but never committed
  if (/(^|\/)\.env(\.|$)/.test(target)) return false
  if (TOP_FILES.includes(target)) return true
  const first = target.split('/')[0]
  return target.includes('/') && TOP_FOLDERS.includes(first)
}

/** The dead paths in one Markdown file (`file` absolute); `repoRoot` is where code spans resolve. */
export function deadPathsIn(file: string, repoRoot = root): DeadPath[] {
  const dead: DeadPath[] = []
  let inFence = false
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (/^\s*```/.test(text)) inFence = !inFence
      if (inFence) return
      const candidates: { target: string; base: string }[] = []
      for (const match of text.matchAll(/`([^`]+)`/g)) candidates.push({ target: match[1], base: repoRoot })
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:|^#|^\//i.test(match[1])) continue
        candidates.push({ target: match[1], base: path.dirname(file) })
      }
      for (const { target, base } of candidates) {
        const candidate = clean(target)
        const fromBase = path.resolve(base, candidate)
        const relative = path.relative(repoRoot, fromBase).split(path.sep).join('/')
        if (base === repoRoot ? !looksLikeRepoPath(candidate) : !looksLikeRepoPath(relative)) continue
        if (!fs.existsSync(fromBase)) {
          dead.push({ file: path.relative(repoRoot, file), line: index + 1, target: candidate })
        }
      }
    })
  return dead
}

/** The Markdown files under docs/ that README.md does not link (as `[text](docs/...)`), relative to `repoRoot`. */
export function unlinkedDocs(repoRoot = root): string[] {
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8')
  const linked = new Set(
    [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) =>
      path
        .relative(repoRoot, path.resolve(repoRoot, clean(match[1]!)))
        .split(path.sep)
        .join('/'),
    ),
  )
  return markdownFiles(repoRoot)
    .map((file) => path.relative(repoRoot, file).split(path.sep).join('/'))
    .filter((file) => file.startsWith('docs/') && !linked.has(file))
    .sort()
}

/** The heading of docs/testing.md's index of test files by feature. */
export const FEATURE_INDEX_HEADING = '## Where each feature is tested'

/**
 * The stack and browser test files (tests/integration/*.test.ts, tests/e2e/*.spec.ts) that docs/testing.md's index by
 * feature does not name (as `` `site-blog` ``, the file name without .test.ts or .spec.ts), relative to `repoRoot`. The
 * folders group tests by what they need; the index is where a reader finds them by feature, so it must list them all.
 */
export function unindexedTests(repoRoot = root): string[] {
  const doc = fs.readFileSync(path.join(repoRoot, 'docs/testing.md'), 'utf8')
  const start = doc.indexOf(FEATURE_INDEX_HEADING)
  const index = start === -1 ? '' : doc.slice(start).split(/\n## /)[0]!
  const named = new Set([...index.matchAll(/`([a-z0-9-]+)`/g)].map((match) => match[1]!))
  const files = (folder: string, suffix: string) => {
    const dir = path.join(repoRoot, folder)
    if (!fs.existsSync(dir)) return []
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith(suffix) && !named.has(name.slice(0, -suffix.length)))
      .map((name) => `${folder}/${name}`)
  }
  return [...files('tests/integration', '.test.ts'), ...files('tests/e2e', '.spec.ts')].sort()
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dead = markdownFiles().flatMap((file) => deadPathsIn(file))
  for (const { file, line, target } of dead) console.error(`${file}:${line}: ${target} does not exist`)
  const unlinked = unlinkedDocs()
  for (const file of unlinked) console.error(`README.md: does not link ${file}`)
  const unindexed = unindexedTests()
  for (const file of unindexed)
    console.error(`docs/testing.md: "${FEATURE_INDEX_HEADING.slice(3)}" does not name ${file}`)
  if (dead.length > 0) console.error(`${dead.length} path(s) in the docs name nothing in the repository.`)
  if (unlinked.length > 0) console.error(`${unlinked.length} document(s) under docs/ are not linked from README.md.`)
  // the check fails (never skips): status 1 stops .ci/run at this step, with the lines above naming each problem
  if (unindexed.length > 0) console.error(`${unindexed.length} test file(s) are missing from the index by feature.`)
  if (dead.length > 0 || unlinked.length > 0 || unindexed.length > 0) process.exitCode = 1
  else
    console.log(
      `Docs name only paths that exist, README links every document and docs/testing.md indexes every test file (${markdownFiles().length} files checked).`,
    )
}
