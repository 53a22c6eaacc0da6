/**
 * `npm run size:admin`: builds the admin app into a temporary folder (`vite build --manifest`) and prints the gzip
 * size of the JavaScript admin/index.html loads up front (budget: 150 KB), then what a first visit to the
 * login page and to the dashboard downloads in all (up front plus those pages' lazy modules).
 *
 *   npm run size:admin                       build, then measure
 *   npm run size:admin -- --dist dist/admin  measure a build that already has .vite/manifest.json
 *   npm run size:admin -- --json             one JSON object instead of the table (for budget checks)
 *   npm run size:admin -- --lazy             also list every lazy module (routes, dialogs, charts) and what it adds
 *
 * Sizes do not depend on the Supabase URL and key the build inlines; when PUBLIC_SUPABASE_URL or
 * PUBLIC_SUPABASE_ANON_KEY is unset (and not in .env), the measuring build uses placeholders and says so.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parse as parseDotenv } from 'dotenv'
import { run } from './lib/build.ts'
import { rootDir } from './lib/env.ts'
import { kb, measureLazyModules, measurePage, measureUpFront, readManifest, type JsLoad } from './lib/admin-size.ts'

/** Lazy modules (manifest keys, relative to admin/) that each first page renders besides the up-front bundle. */
const PAGES: Record<string, string[]> = {
  '/admin/login': ['src/features/auth/api/auth-listener.ts', 'src/features/auth/components/auth-login-form.tsx'],
  '/admin (dashboard)': [
    'src/features/auth/api/auth-listener.ts',
    'src/components/layout/admin-layout.tsx',
    'src/features/dashboard/components/dashboard-overview.tsx',
  ],
}

const args = process.argv.slice(2)
const distIndex = args.indexOf('--dist')
const json = args.includes('--json')
const listLazy = args.includes('--lazy')
const log = json ? console.error : console.log

let distDir: string
if (distIndex >= 0) {
  distDir = path.resolve(rootDir, args[distIndex + 1] ?? '')
} else {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-size-'))
  const dotenv = fs.existsSync(path.join(rootDir, '.env'))
    ? parseDotenv(fs.readFileSync(path.join(rootDir, '.env')))
    : {}
  const placeholders: Record<string, string> = {}
  if (!process.env.PUBLIC_SUPABASE_URL && !dotenv.PUBLIC_SUPABASE_URL)
    placeholders.PUBLIC_SUPABASE_URL = 'http://127.0.0.1:54321'
  if (!process.env.PUBLIC_SUPABASE_ANON_KEY && !dotenv.PUBLIC_SUPABASE_ANON_KEY)
    placeholders.PUBLIC_SUPABASE_ANON_KEY = 'placeholder-anon-key'
  if (Object.keys(placeholders).length > 0)
    log(`(measuring build with placeholder ${Object.keys(placeholders).join(', ')})`)
  log(`Building the admin into ${distDir} ...`)
  await run(['vite', 'build', '--config', 'admin/vite.config.ts', '--manifest', '--logLevel', 'warn'], {
    ...placeholders,
    ADMIN_OUT_DIR: distDir,
  })
}

const manifest = readManifest(distDir)
const upFront = measureUpFront(distDir, manifest)
const pages = Object.fromEntries(
  Object.entries(PAGES).map(([page, modules]) => [page, measurePage(distDir, modules, manifest)]),
)

if (json) {
  const shape = (load: JsLoad) => ({ gzipBytes: load.gzipBytes, rawBytes: load.rawBytes, files: load.files })
  console.log(
    JSON.stringify(
      {
        upFront: shape(upFront),
        pages: Object.fromEntries(Object.entries(pages).map(([page, load]) => [page, shape(load)])),
      },
      null,
      2,
    ),
  )
} else {
  log(`\nAdmin JavaScript (gzip at zlib's default level; KB = 1,000 bytes, as Vite reports)`)
  log(
    `  up front (admin/index.html): ${kb(upFront.gzipBytes).padStart(6)} KB gzip  ${kb(upFront.rawBytes).padStart(6)} KB raw  ${upFront.files.length} files`,
  )
  for (const file of upFront.files) {
    log(`      ${file}`)
  }
  for (const [page, load] of Object.entries(pages)) {
    log(
      `  first visit to ${page}: ${kb(load.gzipBytes).padStart(6)} KB gzip  ${kb(load.rawBytes).padStart(6)} KB raw  ${load.files.length} files`,
    )
  }
  if (listLazy) {
    log('  lazy modules, what each adds when first loaded (gzip):')
    for (const { module, added } of measureLazyModules(distDir, manifest))
      log(`    ${kb(added.gzipBytes).padStart(6)} KB  ${module}`)
  }
}
if (distIndex < 0) fs.rmSync(distDir, { recursive: true, force: true })
