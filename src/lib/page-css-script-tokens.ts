/**
 * Build-time half of the per-page CSS (./page-css.ts): a Vite plugin serving `virtual:page-css-script-tokens`, the
 * class tokens of the client code a page may run, so the middleware keeps the rules that a script can add after the
 * page is drawn (a result card, a dialog, the compare tray's chips).
 *
 * - `islands`: for each island (src/islands/<name>.tsx), the tokens of its source and of every module it imports,
 *   statically or with `import()`, through relative paths and the `~/` and `@shared/` aliases (packages are not read:
 *   Tailwind scans src/ only, so no rule of ours comes from them).
 * - `always`: the same for the `<script>` blocks of every .astro file under src/ (the header, the compare tray and
 *   hearts, share, the blog filter): small, and some run on every page.
 * Read from the files at build time (Node); the worker that renders pages on demand gets the lists bundled.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Plugin } from 'vite'

import type { ScriptTokens } from './page-css.ts'
import { classTokens } from './page-css.ts'

export const SCRIPT_TOKENS_MODULE = 'virtual:page-css-script-tokens'
const RESOLVED_ID = `\0${SCRIPT_TOKENS_MODULE}`

const IMPORT_PATTERN =
  /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g

interface Roots {
  /** src/ */
  src: string
  /** supabase/functions/_shared/ */
  shared: string
}

/** The file an import specifier names, or undefined for a package or a file that does not exist. */
function resolveImport(specifier: string, fromFile: string, roots: Roots): string | undefined {
  const bare = specifier.replace(/\?.*$/, '')
  let base: string
  if (bare.startsWith('.')) base = path.resolve(path.dirname(fromFile), bare)
  else if (bare.startsWith('~/')) base = path.join(roots.src, bare.slice(2))
  else if (bare.startsWith('@shared/')) base = path.join(roots.shared, bare.slice('@shared/'.length))
  else return undefined
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate
  return undefined
}

/** The tokens of `text` and of every module it imports (transitively), added to `tokens`. */
function collectGraph(text: string, file: string, roots: Roots, tokens: Set<string>, seen: Set<string>): void {
  classTokens(text, tokens)
  for (const match of text.matchAll(IMPORT_PATTERN)) {
    const resolved = resolveImport(match[1] ?? match[2] ?? match[3] ?? '', file, roots)
    if (!resolved || seen.has(resolved)) continue
    seen.add(resolved)
    collectGraph(fs.readFileSync(resolved, 'utf8'), resolved, roots, tokens, seen)
  }
}

/** Every file under `dir` ending in `extension` (recursively). */
function filesUnder(dir: string, extension: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
    .map((entry) => path.join(entry.parentPath, entry.name))
}

/** The token lists of `root`'s src/ (see the module comment). */
export function scanScriptTokens(root: string): ScriptTokens {
  const roots = { src: path.join(root, 'src'), shared: path.join(root, 'supabase/functions/_shared') }
  const islands: Record<string, string[]> = {}
  for (const file of filesUnder(path.join(roots.src, 'islands'), '.tsx')) {
    if (/\.test\.tsx$/.test(file)) continue
    const tokens = new Set<string>()
    collectGraph(fs.readFileSync(file, 'utf8'), file, roots, tokens, new Set([file]))
    islands[path.basename(file, '.tsx')] = [...tokens].sort()
  }
  const always = new Set<string>()
  const seen = new Set<string>()
  for (const file of filesUnder(roots.src, '.astro')) {
    // processed scripts only: an is:inline script is in the page's HTML already
    for (const match of fs.readFileSync(file, 'utf8').matchAll(/<script(\s[^>]*)?>([^]*?)<\/script>/g)) {
      if (/\bis:inline\b/.test(match[1] ?? '')) continue
      collectGraph(match[2] ?? '', file, roots, always, seen)
    }
  }
  return { always: [...always].sort(), islands }
}

/** The Vite plugin (astro.config.mjs): `import scriptTokens from 'virtual:page-css-script-tokens'`. */
export function pageCssScriptTokens(root: string): Plugin {
  return {
    name: 'page-css-script-tokens',
    resolveId: (id) => (id === SCRIPT_TOKENS_MODULE ? RESOLVED_ID : undefined),
    load: (id) => (id === RESOLVED_ID ? `export default ${JSON.stringify(scanScriptTokens(root))}` : undefined),
  }
}
