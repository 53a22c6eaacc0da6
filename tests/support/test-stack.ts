/**
 * A throwaway local stack for one test run: its own PostgreSQL cluster in a temporary directory, free ports, a
 * fresh JWT secret and keys, seeded from supabase/seed.sql, with the test fixture functions beside the real ones.
 * Runs never share data with `npm start` or with each other.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateApiKeys } from '../../supabase/local/jwt.ts';
import { freePort } from '../../supabase/local/postgres.ts';
import { startLocalStack, type LocalStack } from '../../supabase/local/stack.ts';

export const rootDir = path.resolve(import.meta.dirname, '../..');

/** What tests read from the environment (set by scripts/test.ts or by the vitest global setup). */
export interface TestStackEnv {
  TEST_SUPABASE_URL: string;
  TEST_SUPABASE_ANON_KEY: string;
  TEST_SUPABASE_SERVICE_ROLE_KEY: string;
  TEST_JWT_SECRET: string;
  TEST_DATABASE_URL: string;
  TEST_MAILBOX_URL: string;
}

/** Starts the stack; `stop` removes the temporary cluster. */
export async function startTestStack(log: (line: string) => void = () => {}): Promise<{ env: TestStackEnv; stack: LocalStack; stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-insight-test-'));
  // initdb runs as the unprivileged postgres user when we are root; it must be able to enter the directory.
  fs.chmodSync(dataDir, 0o755);
  // Deno's package cache is kept between runs (downloads are slow, the cache holds no project data).
  const denoCache = path.join(rootDir, '.data/deno');
  fs.mkdirSync(denoCache, { recursive: true });
  fs.symlinkSync(denoCache, path.join(dataDir, 'deno'));
  const jwtSecret = `test-secret-${Math.random().toString(36).slice(2)}-${Date.now()}`.padEnd(40, 'x');
  const keys = await generateApiKeys(jwtSecret);
  const stack = await startLocalStack({
    rootDir,
    dataDir,
    jwtSecret,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    siteUrl: 'http://localhost:4321',
    // Tests configure function secrets themselves; a developer's AI_* or MAIL_* settings must not leak in.
    inheritSecrets: false,
    // per-IP auth limits raised: the whole suite talks to the API from 127.0.0.1
    authConfigToml: path.join(rootDir, 'tests/fixtures/auth-config.toml'),
    ports: { api: await freePort(), db: await freePort(), mailbox: await freePort() },
    extraFunctions: [
      { functionsDir: path.join(rootDir, 'tests/fixtures/functions'), configToml: path.join(rootDir, 'tests/fixtures/config.toml') },
    ],
    log,
  });
  return {
    stack,
    env: {
      TEST_SUPABASE_URL: stack.apiUrl,
      TEST_SUPABASE_ANON_KEY: keys.anonKey,
      TEST_SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
      TEST_JWT_SECRET: jwtSecret,
      TEST_DATABASE_URL: stack.databaseUrl,
      TEST_MAILBOX_URL: stack.mailboxUrl,
    },
    async stop() {
      await stack.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
