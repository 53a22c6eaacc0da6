/**
 * `npm run build:deploy`: the one directory a static host publishes (default dist/deploy, or `--out <dir>`): the
 * Astro site at its root, the admin app under admin/, the host's `_redirects` and `_headers`
 * (scripts/lib/deploy/host-config.ts), and the Cloudflare Pages worker that renders the agent pages the build did not
 * prerender (`_worker.js/`, `_routes.json`: src/integrations/cloudflare-pages.ts). Reads PUBLIC_SUPABASE_URL, PUBLIC_SUPABASE_ANON_KEY and SITE_URL from the
 * environment or .env (the static host's build settings); both builds fail naming a missing one.
 *
 * The admin on its own origin (production): with ADMIN_URL set, this builds the public site alone, whose /admin
 * answers 301 to ADMIN_URL; `npm run build:deploy -- --admin` (a second site on the host, same repository) builds the
 * admin alone into dist/deploy-admin with its own `_headers` (only its bundles run; it connects only to the
 * project) and links to the public site by SITE_URL. Its session then never shares storage with the public pages.
 *
 * Incremental: the site build reuses every page whose data and template are unchanged from Astro's build cache
 * (node_modules/.astro, or ASTRO_CACHE_DIR), which Netlify and Cloudflare Pages keep between builds; it prints
 * "Pages built: …; reused from the build cache: N." The admin app is copied from the same cache when its sources and
 * build variables are unchanged. Without a cache (a first build, or the host's "clear cache and deploy") everything
 * is built.
 */
import fs from 'node:fs'
import path from 'node:path'
import { rootDir } from './lib/env.ts'
import { adminTarget, run, sourceHash } from './lib/build.ts'
import { supabaseOrigin } from './lib/csp-hashes.ts'
import {
  adminElsewhereRules,
  adminHeadersFile,
  adminOnlyRedirectRules,
  headersFile,
  redirectRules,
  redirectsFile,
  SECTION_NOT_FOUND_PAGES,
} from './lib/deploy/host-config.ts'
import { writePagesHeadersModule } from '~/integrations/cloudflare-pages.ts'

const adminOnly = process.argv.includes('--admin')
const adminUrl = process.env.ADMIN_URL?.trim() || undefined
const outIndex = process.argv.indexOf('--out')
const outDir = path.resolve(
  rootDir,
  outIndex > 0 ? process.argv[outIndex + 1]! : adminOnly ? 'dist/deploy-admin' : 'dist/deploy',
)
const adminDir = path.join(outDir, 'admin')
// the admin links to the public site absolutely when it has its own origin
const env = { ASTRO_TELEMETRY_DISABLED: '1', ...(adminOnly ? { PUBLIC_SITE_URL: process.env.SITE_URL ?? '' } : {}) }
const cacheDir = path.resolve(rootDir, process.env.ASTRO_CACHE_DIR || 'node_modules/.astro')

fs.rmSync(outDir, { recursive: true, force: true })
if (!adminOnly) {
  console.log(`Building the site into ${path.relative(rootDir, outDir)}/ ...`)
  await run(['astro', 'build'], { ...env, ASTRO_OUT_DIR: outDir, ASTRO_CACHE_DIR: cacheDir })
}
if (!adminOnly && adminUrl) {
  // the admin has its own origin: the public site keeps none of it
  fs.writeFileSync(
    path.join(outDir, '_headers'),
    headersFile(
      fs.existsSync(path.join(outDir, '_headers')) ? fs.readFileSync(path.join(outDir, '_headers'), 'utf8') : null,
    ),
  )
  fs.writeFileSync(path.join(outDir, '_redirects'), redirectsFile(adminElsewhereRules(adminUrl)))
  if (fs.existsSync(path.join(outDir, '_worker.js', 'index.js'))) writePagesHeadersModule(outDir)
  copySectionNotFoundPages()
  console.log(`Publish directory ready: ${path.relative(rootDir, outDir)}/ (site; /admin goes to ${adminUrl}).`)
  // the site-only publish is complete: the admin is served from its own origin (ADMIN_URL) and built with --admin, so
  // the admin build below must not run into this directory
  process.exit(0)
}

// the admin app: from the build cache when its sources and public build variables are the ones it was built from
const adminCache = path.join(cacheDir, adminOnly ? 'agent-insight-admin-origin' : 'agent-insight-admin')
const adminStamp = path.join(adminCache, '.source-hash')
const publicVars = Object.fromEntries(
  ['PUBLIC_SUPABASE_URL', 'PUBLIC_SUPABASE_ANON_KEY', 'SITE_URL', 'ADMIN_URL'].map((name) => [
    name,
    process.env[name] ?? '',
  ]),
)
// the admin build falls back to .env for the variables the environment does not set
const envFile = path.join(rootDir, '.env')
const adminHash = sourceHash(adminTarget, {
  ...publicVars,
  '.env': fs.existsSync(envFile) ? fs.readFileSync(envFile, 'utf8') : '',
})
if (fs.existsSync(adminStamp) && fs.readFileSync(adminStamp, 'utf8') === adminHash) {
  console.log(`Admin app unchanged: copied from the build cache into ${path.relative(rootDir, adminDir)}/.`)
  fs.cpSync(adminCache, adminDir, { recursive: true, filter: (source) => source !== adminStamp })
} else {
  console.log(`Building the admin app into ${path.relative(rootDir, adminDir)}/ ...`)
  await run(['vite', 'build', '--config', 'admin/vite.config.ts'], { ...env, ADMIN_OUT_DIR: adminDir })
  fs.rmSync(adminCache, { recursive: true, force: true })
  fs.cpSync(adminDir, adminCache, { recursive: true })
  fs.writeFileSync(adminStamp, adminHash)
}

if (adminOnly) {
  const entries = fs
    .readdirSync(adminDir, { withFileTypes: true })
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
  fs.writeFileSync(path.join(outDir, '_headers'), adminHeadersFile(supabaseOrigin(process.env.PUBLIC_SUPABASE_URL)))
  fs.writeFileSync(path.join(outDir, '_redirects'), redirectsFile(adminOnlyRedirectRules(entries)))
  console.log(
    `Publish directory ready: ${path.relative(rootDir, outDir)}/ (admin app at /admin/, _redirects, _headers).`,
  )
  // the admin-only publish is complete: the rest of this script assembles the combined site + admin directory, which
  // would overwrite the admin origin's own _headers and _redirects
  process.exit(0)
}

copySectionNotFoundPages()

// public/_headers (security headers) was copied by Astro, with the site's inline-script hashes written into its CSP
// (scripts/lib/csp-hashes.ts); keep that copy and add the layout's caching rules
const builtHeaders = path.join(outDir, '_headers')
const securityHeaders = fs.existsSync(builtHeaders) ? builtHeaders : path.join(rootDir, 'public/_headers')
fs.writeFileSync(
  path.join(outDir, '_headers'),
  headersFile(fs.existsSync(securityHeaders) ? fs.readFileSync(securityHeaders, 'utf8') : null),
)
// the worker adds the _headers rules to the pages it renders (Pages applies the file to static files only)
if (fs.existsSync(path.join(outDir, '_worker.js', 'index.js'))) writePagesHeadersModule(outDir)
fs.writeFileSync(
  path.join(outDir, '_redirects'),
  redirectsFile(
    redirectRules(
      fs
        .readdirSync(adminDir, { withFileTypes: true })
        .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)),
    ),
  ),
)
console.log(
  `Publish directory ready: ${path.relative(rootDir, outDir)}/ (site, admin/, _redirects, _headers, _worker.js/, _routes.json).`,
)

/**
 * Section 404 pages: an agent id the build did not render gets the agent not-found page, an unknown /blog/* path the
 * blog's 'Article Not Found' page, both with status 404. Cloudflare Pages serves the nearest 404.html up the path;
 * Netlify reads the status-404 rules of netlify.toml (SECTION_NOT_FOUND_PAGES in scripts/lib/deploy/host-config.ts).
 */
function copySectionNotFoundPages(): void {
  for (const { section, page } of SECTION_NOT_FOUND_PAGES) {
    const source = path.join(outDir, page)
    if (fs.existsSync(source)) fs.copyFileSync(source, path.join(outDir, section, '404.html'))
  }
}
