/**
 * `npm start`: the whole product locally in one command. Starts PostgreSQL, the Supabase stand-in (API on
 * :54321, mailbox on :54324) and the edge functions; applies migrations; seeds an empty database and the local
 * admin account; builds the site and the admin app when their sources changed; serves the site on :4321 with the
 * admin at /admin/. Ctrl-C stops everything; the next start reuses the data in .data/.
 */
import path from 'node:path'
import type http from 'node:http'
import { startLocalStack, type LocalStack } from '../supabase/local/stack.ts'
import { assertPortFree } from '../supabase/local/postgres.ts'
import { ensureAdminAccount } from './lib/admin-account.ts'
import { adminTarget, buildIfChanged, siteTarget } from './lib/build.ts'
import { ensureDemoData } from './lib/demo/seed.ts'
import { loadLocalEnv, publicBuildEnv, rootDir } from './lib/env.ts'
import { startStaticServer } from '../supabase/local/static-server.ts'
import { startBuildHook, type BuildHook } from '../supabase/local/build-hook/index.ts'
import { configureBuildHook, siteBuildCommand } from './lib/site-build-hook.ts'
import { sitePatcher } from './lib/site-patch.ts'

const started = Date.now()
let stack: LocalStack | undefined
let site: http.Server | undefined
let siteBuilder: BuildHook | undefined
let stopping = false

async function shutdown(code: number) {
  if (stopping) return
  stopping = true
  console.log('\nStopping...')
  site?.close()
  // nothing listens on the hook once we are gone (`npm run dev` must not retry it)
  if (stack && siteBuilder)
    await configureBuildHook(stack.databaseUrl, { hookUrl: null, secret: null, builder: 'local' }).catch(() => {})
  await siteBuilder?.stop()
  await stack?.stop()
  process.exit(code)
}
process.on('SIGINT', () => void shutdown(0))
process.on('SIGTERM', () => void shutdown(0))

try {
  const env = await loadLocalEnv()
  await assertPortFree(env.SITE_PORT, 'site')
  stack = await startLocalStack({
    rootDir,
    dataDir: path.join(rootDir, '.data'),
    jwtSecret: env.JWT_SECRET,
    anonKey: env.SUPABASE_ANON_KEY,
    serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
    siteUrl: env.SITE_URL,
    ports: { api: env.API_PORT, db: env.DB_PORT, mailbox: env.MAILBOX_PORT },
    databaseUrl: env.DATABASE_URL,
    log: (line) => console.log(line),
  })
  // PostgreSQL died: the stack has stopped itself and says why
  void stack.failed.then((message) => {
    console.error(`\n${message}`)
    void shutdown(1)
  })
  const admin = await ensureAdminAccount({
    apiUrl: stack.apiUrl,
    serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
    databaseUrl: stack.databaseUrl,
    email: env.LOCAL_ADMIN_EMAIL,
    password: env.LOCAL_ADMIN_PASSWORD,
  })
  if (admin === 'created') console.log(`Created the local admin account ${env.LOCAL_ADMIN_EMAIL}.`)
  // an empty database gets the Redfin ZIP benchmarks and fictional demo agents and sales (scripts/lib/demo)
  await ensureDemoData({ databaseUrl: stack.databaseUrl, log: (line) => console.log(line) })

  // the first build and every rebuild share Astro's incremental build cache: unchanged pages are reused
  const cacheDir = path.join(rootDir, 'dist/site-cache')
  const buildEnv = { ...publicBuildEnv(env), ASTRO_CACHE_DIR: cacheDir }
  const builtAt = new Date()
  const siteBuilt = await buildIfChanged(siteTarget, buildEnv)
  await buildIfChanged(adminTarget, publicBuildEnv(env))
  // Publishing rebuilds the site: the database webhook calls this build hook, which swaps each good build in.
  siteBuilder = await startBuildHook({
    initialDir: siteTarget.outDir,
    buildsDir: path.join(rootDir, 'dist/site-builds'),
    build: siteBuildCommand(publicBuildEnv(env), { publishDir: path.join(rootDir, 'dist/site-publish'), cacheDir }),
    supabaseUrl: stack.apiUrl,
    serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
    // a data change re-renders only its pages through the served build's worker (scripts/lib/site-patch.ts)
    patcher: sitePatcher({
      apiUrl: stack.apiUrl,
      serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
      anonKey: env.SUPABASE_ANON_KEY,
      siteSupabaseUrl: env.SUPABASE_URL,
      buildCacheDir: cacheDir,
    }),
    log: (line) => console.log(line),
  })
  // the site in dist/site was built at an earlier start: the data may have changed since (the build reuses every
  // page whose data did not)
  if (!siteBuilt) siteBuilder.request('npm start: published content may have changed since the last build')
  await configureBuildHook(stack.databaseUrl, {
    hookUrl: siteBuilder.hookUrl,
    secret: siteBuilder.secret,
    builder: 'local',
    // a site built now holds every post published so far; one reused from an earlier start is rebuilt just above
    builtAt,
  })
  const builder = siteBuilder
  site = await startStaticServer({
    port: env.SITE_PORT,
    siteDir: () => builder.currentDir(),
    adminDir: adminTarget.outDir,
  })

  const siteUrl = `http://localhost:${env.SITE_PORT}`
  console.log(`
Ready in ${((Date.now() - started) / 1000).toFixed(1)} s.

  Site            ${siteUrl}
  Admin           ${siteUrl}/admin/
  Supabase API    ${stack.apiUrl}   (REST /rest/v1, Auth /auth/v1, Functions /functions/v1)
  Mailbox         http://localhost:${env.MAILBOX_PORT}
  Database        ${stack.databaseUrl.replace(/:[^:@/]+@/, ':****@')}
  Functions       ${stack.functions.join(', ') || '(none)'}
  Site builder    ${siteBuilder.hookUrl}   (database webhook: publishing rebuilds the site)

  Anon key        ${env.SUPABASE_ANON_KEY}
  Admin login     ${env.LOCAL_ADMIN_EMAIL} / ${env.LOCAL_ADMIN_PASSWORD}

Press Ctrl-C to stop.`)
} catch (error) {
  console.error(`\nnpm start failed: ${(error as Error).message}`)
  await shutdown(1)
}
