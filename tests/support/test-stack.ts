/**
 * The throwaway stack of one test run (supabase/local/throwaway-stack.ts), seeded from supabase/seed.sql, with the
 * test fixture functions beside the real ones, and the environment tests read it from.
 */
import path from 'node:path'
import { rootDir, startThrowawayStack, type ThrowawayStack } from '../../supabase/local/throwaway-stack.ts'

export { rootDir }

/** What tests read from the environment (set by scripts/test.ts or by the vitest global setup). */
export interface TestStackEnv {
  TEST_SUPABASE_URL: string
  TEST_SUPABASE_ANON_KEY: string
  TEST_SUPABASE_SERVICE_ROLE_KEY: string
  TEST_JWT_SECRET: string
  TEST_DATABASE_URL: string
  TEST_MAILBOX_URL: string
}

/** Starts the stack; `stop` removes the temporary cluster. */
export async function startTestStack(
  log: (line: string) => void = () => {},
): Promise<{ env: TestStackEnv; stack: ThrowawayStack; stop(): Promise<void> }> {
  const stack = await startThrowawayStack({
    prefix: 'agent-insight-test-',
    // Tests configure function secrets themselves; a developer's AI_* or MAIL_* settings never leak in.
    // per-IP auth limits raised: the whole suite talks to the API from 127.0.0.1
    authConfigToml: path.join(rootDir, 'tests/fixtures/auth-config.toml'),
    extraFunctions: [
      {
        functionsDir: path.join(rootDir, 'tests/fixtures/functions'),
        configToml: path.join(rootDir, 'tests/fixtures/config.toml'),
      },
    ],
    log,
  })
  return {
    stack,
    env: {
      TEST_SUPABASE_URL: stack.apiUrl,
      TEST_SUPABASE_ANON_KEY: stack.anonKey,
      TEST_SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
      TEST_JWT_SECRET: stack.jwtSecret,
      TEST_DATABASE_URL: stack.databaseUrl,
      TEST_MAILBOX_URL: stack.mailboxUrl,
    },
    stop: () => stack.stop(),
  }
}
