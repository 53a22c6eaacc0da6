/**
 * The built site for browser tests, served exactly as `npm start` serves it (supabase/local/static-server.ts), built
 * into a temporary directory against the test stack so it never touches dist/ of a running `npm start`.
 */
import type http from 'node:http'
import fs from 'node:fs'
import path from 'node:path'
import { adminTarget, buildIfChanged, siteTarget } from '../../scripts/lib/build.ts'
import { startStaticServer } from '../../supabase/local/static-server.ts'
import { startBuildHook } from '../../supabase/local/build-hook/index.ts'
import { configureBuildHook, siteBuildCommand } from '../../scripts/lib/site-build-hook.ts'
import { sitePatcher } from '../../scripts/lib/site-patch.ts'
import { freePort } from '../../supabase/local/postgres.ts'
import { rootDir, type TestStackEnv } from './test-stack.ts'

/**
 * Builds the site and the admin against `env`'s stack, starts the build hook and the static server, and returns the
 * site's URL. `log` receives the build hook's lines (default: the console, each line marked `[site-builder]`).
 */
export async function startE2ESite(
  env: TestStackEnv,
  log: (line: string) => void = (line) => console.log(line),
): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  // Inside the repository (dist/ is git-ignored), not in os.tmpdir(): with an outDir outside the working directory
  // Astro 6 moves the prerendered assets to outDir but then reads the original images for optimization from
  // ./.astro/, and the build fails with ENOENT on every `astro:assets` image (seen on Astro 6; not rechecked on 7).
  fs.mkdirSync(path.join(rootDir, 'dist'), { recursive: true })
  const outDir = fs.mkdtempSync(path.join(rootDir, 'dist', '.e2e-'))
  const port = await freePort()
  const baseUrl = `http://localhost:${port}`
  const buildEnv = {
    PUBLIC_SUPABASE_URL: env.TEST_SUPABASE_URL,
    PUBLIC_SUPABASE_ANON_KEY: env.TEST_SUPABASE_ANON_KEY,
    SITE_URL: baseUrl,
  }
  const site = { ...siteTarget, outDir: path.join(outDir, 'site') }
  const admin = { ...adminTarget, outDir: path.join(outDir, 'admin') }
  // this site's own incremental build cache: shared by its first build and every rebuild, by nothing else
  const cacheDir = path.join(outDir, 'cache')
  const builtAt = new Date()
  await buildIfChanged(site, { ...buildEnv, ASTRO_CACHE_DIR: cacheDir }, true)
  await buildIfChanged(admin, buildEnv, true)
  // as in `npm start`: the database webhook calls the build hook, and the server swaps each good build in
  const builder = await startBuildHook({
    initialDir: site.outDir,
    buildsDir: path.join(outDir, 'site-builds'),
    build: siteBuildCommand(buildEnv, { publishDir: path.join(outDir, 'publish'), cacheDir }),
    supabaseUrl: env.TEST_SUPABASE_URL,
    serviceRoleKey: env.TEST_SUPABASE_SERVICE_ROLE_KEY,
    // as in `npm start`: a data change re-renders only its pages through the served build's worker
    patcher: sitePatcher({
      apiUrl: env.TEST_SUPABASE_URL,
      serviceRoleKey: env.TEST_SUPABASE_SERVICE_ROLE_KEY,
      anonKey: env.TEST_SUPABASE_ANON_KEY,
      buildCacheDir: cacheDir,
    }),
    log: (line) => log(`[site-builder] ${line}`),
    // One build per test file's data, not three: a file's fixture inserts agents, refreshes their metrics (an
    // update) and the previous file's clean-up deletes some, each a rebuild request within a second or two. Built
    // one at a time on a busy machine, the three took ~100 s each file waited for (seen in fresh-clone runs).
    settleMs: 3000,
  })
  await configureBuildHook(env.TEST_DATABASE_URL, {
    hookUrl: builder.hookUrl,
    secret: builder.secret,
    builder: 'local',
    builtAt,
  })
  const server: http.Server = await startStaticServer({
    port,
    siteDir: () => builder.currentDir(),
    adminDir: admin.outDir,
  })
  return {
    baseUrl,
    async stop() {
      await configureBuildHook(env.TEST_DATABASE_URL, { hookUrl: null, secret: null, builder: 'build_hook' })
      await builder.stop()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      fs.rmSync(outDir, { recursive: true, force: true })
    },
  }
}
