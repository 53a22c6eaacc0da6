/**
 * Astro integration: after a static build, hashes every inline executable `<script>` of every page (SHA-256,
 * base64, the CSP `'sha256-…'` source form) and writes them into the built `_headers` (copied from public/_headers)
 * in place of `'unsafe-inline'` in `script-src`, so the static host's Content-Security-Policy lets exactly the site's
 * own inline scripts run (Astro's island bootstrap, the analytics beacon, the page scripts) and nothing injected.
 * Scripts with a `src`, and data blocks such as `application/ld+json`, need no hash. Style attributes and inline
 * styles stay allowed by `style-src 'unsafe-inline'` (public/_headers).
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AstroIntegration } from 'astro'

const EXECUTABLE_TYPES = new Set(['', 'text/javascript', 'module', 'application/javascript'])

/** The CSP hash sources of the inline executable scripts in one HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? ''
    if (/\bsrc\s*=/i.test(attributes)) continue
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase() ?? ''
    if (!EXECUTABLE_TYPES.has(type)) continue
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(match[2] ?? '', 'utf8')
        .digest('base64')}'`,
    )
  }
  return hashes
}

/** Replaces `'unsafe-inline'` in every script-src of a `_headers` text with `hashes`. */
export function withScriptHashes(headersText: string, hashes: string[]): string {
  return headersText.replace(
    /script-src ([^;\n]*)/g,
    (_directive, sources: string) =>
      `script-src ${sources
        .split(/\s+/)
        .filter((source) => source && source !== "'unsafe-inline'")
        .concat(hashes)
        .join(' ')}`,
  )
}

function htmlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name))
}

/** The integration (astro.config.mjs `integrations`). */
export function cspScriptHashes(): AstroIntegration {
  return {
    name: 'csp-script-hashes',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const outDir = fileURLToPath(dir)
        const headersFile = path.join(outDir, '_headers')
        if (!fs.existsSync(headersFile)) return
        const hashes = [
          ...new Set(htmlFiles(outDir).flatMap((file) => inlineScriptHashes(fs.readFileSync(file, 'utf8')))),
        ].sort()
        fs.writeFileSync(headersFile, withScriptHashes(fs.readFileSync(headersFile, 'utf8'), hashes))
        logger.info(`${hashes.length} inline script hashes written to _headers`)
      },
    },
  }
}
