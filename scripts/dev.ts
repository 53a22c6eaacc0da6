/**
 * `npm run dev`: the same local stack as `npm start`, with the Astro dev server (site, hot reload) on SITE_PORT and
 * the Vite dev server for the admin on 5173 (http://localhost:5173/admin/). Ctrl-C stops everything.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { startLocalStack } from '../supabase/local/stack.ts'
import { assertPortFree } from '../supabase/local/postgres.ts'
import { ensureAdminAccount } from './lib/admin-account.ts'
import { loadLocalEnv, publicBuildEnv, rootDir } from './lib/env.ts'

const env = await loadLocalEnv()
const adminPort = 5173
await assertPortFree(env.SITE_PORT, 'Astro dev server')
await assertPortFree(adminPort, 'admin dev server')
const stack = await startLocalStack({
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
await ensureAdminAccount({
  apiUrl: stack.apiUrl,
  serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
  databaseUrl: stack.databaseUrl,
  email: env.LOCAL_ADMIN_EMAIL,
  password: env.LOCAL_ADMIN_PASSWORD,
})

const children: ChildProcess[] = []
const launch = (command: string, args: string[]) => {
  const child = spawn(path.join(rootDir, 'node_modules/.bin', command), args, {
    cwd: rootDir,
    env: { ...process.env, ...publicBuildEnv(env) },
    stdio: 'inherit',
  })
  children.push(child)
}
launch('astro', ['dev', '--port', String(env.SITE_PORT), '--host', '127.0.0.1'])
launch('vite', ['--config', 'admin/vite.config.ts', '--port', String(adminPort), '--strictPort', '--host', '127.0.0.1'])
console.log(`
  Site (dev)      http://localhost:${env.SITE_PORT}
  Admin (dev)     http://localhost:${adminPort}/admin/
  Supabase API    ${stack.apiUrl}
  Mailbox         http://localhost:${env.MAILBOX_PORT}
  Admin login     ${env.LOCAL_ADMIN_EMAIL} / ${env.LOCAL_ADMIN_PASSWORD}
`)

let stopping = false
const shutdown = async (code = 0) => {
  if (stopping) return
  stopping = true
  for (const child of children) child.kill('SIGTERM')
  await stack.stop()
  // the dev servers and the stack are stopped above; exit with the status that ended them (Ctrl-C is 0)
  process.exit(code)
}
process.on('SIGINT', () => void shutdown())
process.on('SIGTERM', () => void shutdown())
// PostgreSQL died: the stack has stopped itself and says why
void stack.failed.then((message) => {
  console.error(message)
  void shutdown(1)
})
