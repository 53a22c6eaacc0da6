/**
 * The product's side of the site build hook: the build command a static host runs for this site (Astro, with its
 * incremental build cache in a directory of the caller's choosing), and pointing the database's site-rebuild webhook
 * at a hook. `npm start`, the browser-test site, the tests and the publish benchmark use it with the local build hook
 * (supabase/local/build-hook); a hosted deploy sets the same in the host's settings and through SQL.
 */
import path from 'node:path'
import pg from 'pg'
import type { BuildCommand } from '../../supabase/local/build-hook/index.ts'
import { rootDir } from './env.ts'

/**
 * `astro build` into `publishDir` with the public build variables, Astro's incremental build cache in `cacheDir`.
 * Both directories must lie inside the repository (dist/ is git-ignored): Astro bundles its prerender step inside the
 * output directory, except when that lies outside the project, where two builds at once share (and delete) one bundle.
 */
export function siteBuildCommand(
  buildEnv: Record<string, string>,
  dirs: { publishDir: string; cacheDir: string },
): BuildCommand {
  return {
    command: path.join(rootDir, 'node_modules/.bin/astro'),
    args: ['build'],
    cwd: rootDir,
    env: {
      ...buildEnv,
      ASTRO_TELEMETRY_DISABLED: '1',
      ASTRO_OUT_DIR: dirs.publishDir,
      ASTRO_CACHE_DIR: dirs.cacheDir,
      // the routes the builder's patch re-renders the blog through (src/integrations/rerender-routes.ts)
      SITE_PATCH_ROUTES: '1',
    },
    publishDir: dirs.publishDir,
  }
}

/**
 * Points the site-rebuild webhook at `hookUrl` (URL and secret in Vault through private.configure_webhook, the
 * builder kind in private.site_build_settings) through a superuser connection; `hookUrl: null` turns the webhook
 * off. `builder: 'local'` means the builder records its own builds in public.site_builds. `builtAt`: when the build
 * the hook starts from began; every post published before then is in it, so the scheduled-post check (which rebuilds
 * for posts that went live since the last request) starts there instead of rebuilding for every post once.
 * @throws when the database refuses the values (22023, e.g. a secret shorter than 16 characters).
 */
export async function configureBuildHook(
  databaseUrl: string,
  settings: { hookUrl: string | null; secret: string | null; builder: 'local' | 'build_hook'; builtAt?: Date },
): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  try {
    await db.query('begin')
    await db.query(`select private.configure_webhook('site_build', $1, $2)`, [settings.hookUrl, settings.secret ?? ''])
    await db.query(
      `update private.site_build_settings
          set builder = $1, updated_at = now(),
              last_requested_at = greatest(last_requested_at, $2::timestamptz)
        where id`,
      [settings.builder, settings.builtAt?.toISOString() ?? null],
    )
    await db.query('commit')
  } catch (error) {
    await db.query('rollback')
    throw error
  } finally {
    await db.end()
  }
}
