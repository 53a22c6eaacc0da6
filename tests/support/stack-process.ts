/**
 * A local stack in its own process, for the supervision tests (tests/integration/stack-supervision.test.ts): starts
 * PostgreSQL in STACK_DATA_DIR and the fixture function public-echo, prints `READY <json>` with the API URL and the
 * process ids, relays the stack's log lines, stops on SIGINT/SIGTERM (exit 0) and exits 1 with the stack's message
 * when a part it cannot restart dies - the way `npm start` behaves, without building the site.
 */
import path from 'node:path'
import { generateApiKeys } from '../../supabase/local/jwt.ts'
import { freePort } from '../../supabase/local/postgres.ts'
import { startLocalStack } from '../../supabase/local/stack.ts'
import { rootDir } from './test-stack.ts'

const dataDir = process.env.STACK_DATA_DIR
if (!dataDir) throw new Error('STACK_DATA_DIR must be set')
const jwtSecret = 'stack-process-secret-that-signs-nothing-0000'
const keys = await generateApiKeys(jwtSecret)
const stack = await startLocalStack({
  rootDir,
  dataDir,
  jwtSecret,
  anonKey: keys.anonKey,
  serviceRoleKey: keys.serviceRoleKey,
  siteUrl: 'http://localhost:4321',
  inheritSecrets: false,
  seed: false,
  ports: { api: await freePort(), db: await freePort(), mailbox: await freePort() },
  onlyFunctions: ['public-echo'],
  extraFunctions: [
    {
      functionsDir: path.join(rootDir, 'tests/fixtures/functions'),
      configToml: path.join(rootDir, 'tests/fixtures/config.toml'),
    },
  ],
  log: (line) => console.log(`[stack] ${line}`),
})
console.log(`READY ${JSON.stringify({ apiUrl: stack.apiUrl, pids: stack.pids() })}`)

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await stack.stop()
  console.log('STOPPED')
  // the supervision test reads STOPPED and this status; the stack is fully stopped, so a clean exit is the outcome
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
void stack.failed.then((message) => {
  console.error(message)
  // the stack stopped itself because a part died (the case under test): report it as a failing status
  process.exit(1)
})
