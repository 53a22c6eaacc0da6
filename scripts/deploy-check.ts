/**
 * `npm run deploy:check [-- <file>]`: validates a production environment file (default .env.production) before
 * anything is pushed: every secret present and well-formed, URLs https and not local (rules in
 * scripts/lib/deploy/env-check.ts). Prints each problem naming its variable and exits 1, or prints what goes where.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'dotenv'
import { rootDir } from './lib/env.ts'
import { checkProductionEnv, functionSecretNames } from './lib/deploy/env-check.ts'

const file = path.resolve(rootDir, process.argv[2] ?? '.env.production')
if (!fs.existsSync(file)) {
  console.error(
    `${path.relative(rootDir, file)} not found: copy .env.production.example and fill it in (docs/deploy.md).`,
  )
  // a failing exit status is the check's verdict: a deploy script or CI step must stop before anything is pushed
  process.exit(1)
}
const env = parse(fs.readFileSync(file, 'utf8'))
const problems = checkProductionEnv(env)
if (problems.length > 0) {
  console.error(`${path.relative(rootDir, file)}: ${problems.length} problem(s)`)
  for (const problem of problems) console.error(`  - ${problem.message}`)
  // each problem is printed above; the failing status stops whoever runs the check before anything is pushed
  process.exit(1)
}
console.log(`${path.relative(rootDir, file)} is ready for production.`)
console.log(`  Function secrets: ${functionSecretNames(env).join(' ')}`)
console.log('  Static host build: PUBLIC_SUPABASE_URL PUBLIC_SUPABASE_ANON_KEY SITE_URL')
console.log('  SQL editor: SITE_BUILD_HOOK_URL (private.configure_webhook)')
