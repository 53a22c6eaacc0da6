/**
 * Astro integration: the built `_headers` (copied from public/_headers) gets a Content-Security-Policy that lets
 * exactly the inline scripts we author run, and connects only to the configured Supabase project.
 *
 * script-src: `'unsafe-inline'` is replaced by the SHA-256 (base64, the CSP `'sha256-…'` form) of each inline script
 * we wrote or Astro emits for us, never of whatever the build happens to output: a script that arrived through data
 * (a post body, an agent field) matches none of them, gets no hash, and the browser refuses to run it (the build names
 * such pages in a warning). Authored means:
 *  - an `is:inline` script of a `.astro` file under src/ (Astro emits its text verbatim; `define:vars` would make it
 *    depend on data, so it is refused: pass values as `data-*` attributes and read `document.currentScript.dataset`);
 *  - Astro's island runtime and the scripts of the client directives the `.astro` files use: the built-in ones from
 *    Astro's package, custom ones (`clientDirectives`) compiled the way Astro compiles them (esbuild, iife, minified).
 * Processed `<script>` tags are never inlined (assetsInlineLimit below), so they load from /_astro/ under 'self'.
 * Scripts with a `src`, and data blocks such as `application/ld+json`, need no hash.
 *
 * connect-src: the token `{PUBLIC_SUPABASE_URL}` in public/_headers becomes that URL's origin, so a page can call
 * its own project and nothing else (no wildcard `*.supabase.co`, no localhost in production).
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AstroIntegration } from 'astro'
import { build } from 'esbuild'

const EXECUTABLE_TYPES = new Set(['', 'text/javascript', 'module', 'application/javascript'])

/** The placeholder of public/_headers that the build replaces with the project's origin. */
export const SUPABASE_URL_TOKEN = '{PUBLIC_SUPABASE_URL}'

/** Astro's built-in client directives (astro/runtime/client/<name>.prebuilt.js). */
const BUILT_IN_DIRECTIVES = ['idle', 'load', 'media', 'only', 'visible']

/** A custom client directive as registered with `addClientDirective`. */
export interface ClientDirective {
  name: string
  /** Module path relative to the project root, e.g. './src/lib/client-interaction.ts'. */
  entrypoint: string
}

export interface CspOptions {
  /** PUBLIC_SUPABASE_URL: connect-src names its origin. */
  supabaseUrl: string | undefined
  clientDirectives: ClientDirective[]
}

/** The CSP hash source of a script text. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
}

/** The texts of the inline executable scripts in one HTML document. */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = []
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? ''
    if (/\bsrc\s*=/i.test(attributes)) continue
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase() ?? ''
    if (!EXECUTABLE_TYPES.has(type)) continue
    scripts.push(match[2] ?? '')
  }
  return scripts
}

/**
 * The `is:inline` script texts of an `.astro` source (what Astro emits verbatim).
 * @throws Error naming the file when an executable is:inline script uses define:vars (its text would depend on data).
 */
export function authoredInlineScripts(source: string, file = 'source'): string[] {
  const scripts: string[] = []
  // the frontmatter and HTML comments are not markup: a script tag written in a doc comment would otherwise swallow
  // the real script that follows it
  const markup = source.replace(/^---\n[\s\S]*?\n---\n/, '').replace(/<!--[\s\S]*?-->/g, '')
  for (const match of markup.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? ''
    if (!/\bis:inline\b/.test(attributes)) continue
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase() ?? ''
    if (!EXECUTABLE_TYPES.has(type)) continue
    if (/\bdefine:vars\b/.test(attributes))
      throw new Error(
        `${file}: an is:inline script with define:vars cannot be hashed; pass the values as data-* attributes`,
      )
    scripts.push(match[2] ?? '')
  }
  return scripts
}

/** The script Astro emits for a custom client directive: its entrypoint bundled as Astro bundles it. */
async function customDirectiveScript(directive: ClientDirective, root: string): Promise<string> {
  const output = await build({
    stdin: {
      contents: `import directive from ${JSON.stringify(directive.entrypoint)};

(self.Astro || (self.Astro = {}))[${JSON.stringify(directive.name)}] = directive;

window.dispatchEvent(new Event('astro:' + ${JSON.stringify(directive.name)}));`,
      resolveDir: root,
    },
    absWorkingDir: root,
    format: 'iife',
    minify: true,
    bundle: true,
    write: false,
  })
  return output.outputFiles[0]?.text ?? ''
}

/** The client directives an `.astro` source uses (`client:load`, `client:interaction`...). */
export function usedDirectives(source: string, into: Set<string> = new Set()): Set<string> {
  for (const match of source.matchAll(/\bclient:([a-z][\w-]*)/g)) into.add(match[1]!)
  return into
}

/**
 * Every script text the site authors: its is:inline scripts, and Astro's island runtime and the scripts of the client
 * directives its `.astro` files use (a directive no file uses would be one more hash in every page's header).
 */
export async function authoredScriptTexts(root: string, clientDirectives: ClientDirective[]): Promise<Set<string>> {
  const texts = new Set<string>()
  const used = new Set<string>()
  for (const file of files(path.join(root, 'src'), '.astro')) {
    const source = fs.readFileSync(file, 'utf8')
    for (const text of authoredInlineScripts(source, path.relative(root, file))) texts.add(text)
    usedDirectives(source, used)
  }
  if (used.size > 0) texts.add((await import('astro/runtime/server/astro-island.prebuilt.js')).default)
  for (const name of BUILT_IN_DIRECTIVES.filter((name) => used.has(name)))
    texts.add(((await import(`astro/runtime/client/${name}.prebuilt.js`)) as { default: string }).default)
  for (const directive of clientDirectives.filter(({ name }) => used.has(name)))
    texts.add(await customDirectiveScript(directive, root))
  return texts
}

/**
 * The built `_headers` text: in every script-src, `'unsafe-inline'` replaced by `hashes`; the connect-src token
 * replaced by `supabaseOrigin`.
 */
export function withPolicy(headersText: string, hashes: string[], supabaseOrigin: string): string {
  return headersText
    .replace(
      /script-src ([^;\n]*)/g,
      (_directive, sources: string) =>
        `script-src ${sources
          .split(/\s+/)
          .filter((source) => source && source !== "'unsafe-inline'")
          .concat(hashes)
          .join(' ')}`,
    )
    .replaceAll(SUPABASE_URL_TOKEN, supabaseOrigin)
}

/** The origin of PUBLIC_SUPABASE_URL. @throws Error naming the variable when it is missing or not an http(s) URL. */
export function supabaseOrigin(url: string | undefined): string {
  if (!url) throw new Error('PUBLIC_SUPABASE_URL is not set: the CSP connect-src names the project URL')
  const parsed = new URL(url)
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error(`PUBLIC_SUPABASE_URL must be an http(s) URL, got ${url}`)
  return parsed.origin
}

function files(dir: string, extension: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
    .map((entry) => path.join(entry.parentPath, entry.name))
}

/** The integration (astro.config.mjs `integrations`). */
export function cspScriptHashes(options: CspOptions): AstroIntegration {
  let root = process.cwd()
  let started = 0
  return {
    name: 'csp-script-hashes',
    hooks: {
      'astro:build:start': () => {
        started = Date.now()
      },
      'astro:config:setup': ({ config, updateConfig }) => {
        root = fileURLToPath(config.root)
        // processed <script> tags load from /_astro/ (allowed by 'self') instead of being inlined, so every inline
        // script of a page is one of the authored texts above; other assets keep Vite's default
        updateConfig({
          vite: { build: { assetsInlineLimit: (file: string) => (/\.m?js$/.test(file) ? false : undefined) } },
        })
      },
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir)
        const headersFile = path.join(outDir, '_headers')
        if (!fs.existsSync(headersFile)) return
        // every authored script, whether or not a prebuilt page uses it: pages rendered on demand (the Pages worker)
        // carry the same scripts and are served under the same policy
        const authored = await authoredScriptTexts(root, options.clientDirectives)
        const hashes = new Set([...authored].map(scriptHash))
        const foreign: string[] = []
        // the pages written by this build: a page reused from the build cache keeps its file (a hard link to the
        // copy an earlier build checked), so its modification time is older
        for (const file of files(outDir, '.html')) {
          if (fs.statSync(file).mtimeMs < started - 1000) continue
          for (const text of inlineScripts(fs.readFileSync(file, 'utf8')))
            if (!authored.has(text)) foreign.push(path.relative(outDir, file))
        }
        if (foreign.length > 0)
          logger.warn(
            `inline scripts the site did not author were left unhashed (browsers will not run them): ${[...new Set(foreign)].slice(0, 10).join(', ')}`,
          )
        fs.writeFileSync(
          headersFile,
          withPolicy(fs.readFileSync(headersFile, 'utf8'), [...hashes].sort(), supabaseOrigin(options.supabaseUrl)),
        )
        logger.info(
          `${hashes.size} inline script hashes and connect-src ${supabaseOrigin(options.supabaseUrl)} written to _headers`,
        )
      },
    },
  }
}
