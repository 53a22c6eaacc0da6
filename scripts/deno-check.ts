/**
 * Type-checks the Deno code (every edge function entry, the test fixture functions and the stand-in's Deno entry)
 * with `deno check`, as `supabase functions deploy` would bundle it. Part of `npm run typecheck`.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { listFunctions, networkEnv } from '../supabase/local/functions.ts'
import { rootDir } from './lib/env.ts'

const entries = [
  path.join(rootDir, 'supabase/local/deno-entry.ts'),
  ...['supabase/functions', 'tests/fixtures/functions'].flatMap((dir) =>
    listFunctions(path.join(rootDir, dir)).map((slug) => path.join(rootDir, dir, slug, 'index.ts')),
  ),
]
const denoDir = path.join(rootDir, '.data/deno')
fs.mkdirSync(denoDir, { recursive: true })
try {
  execFileSync(
    path.join(rootDir, 'node_modules/.bin/deno'),
    [
      'check',
      '--config',
      path.join(rootDir, 'supabase/functions/deno.json'),
      '--quiet',
      '--no-lock',
      '--node-modules-dir=none',
      ...entries,
    ],
    {
      cwd: path.join(rootDir, 'supabase'),
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DENO_DIR: denoDir,
        DENO_NO_UPDATE_CHECK: '1',
        NO_COLOR: '1',
        ...networkEnv(),
      },
      stdio: 'inherit',
    },
  )
  console.log(`deno check: ${entries.length} entries OK`)
} catch {
  // deno has already printed its diagnostics; the non-zero exit is what makes `npm run typecheck` (and CI) fail.
  process.exit(1)
}
