/**
 * The throwaway stack of one test run (supabase/local/throwaway-stack.ts), seeded from supabase/seed.sql, with the
 * test fixture functions beside the real ones, and the environment tests read it from.
 */
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
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

/**
 * The per-IP limits of the public functions on the test stack. The whole suite (and the browser tests' Chromium)
 * talks to the functions from 127.0.0.1, so the production defaults (@shared/public-limits.ts) are raised as the auth
 * limits are; the security tests read these values and drive each limit from a fresh loopback address.
 */
export const TEST_FUNCTION_LIMITS = {
  SEARCH_RATE_LIMIT_PER_MINUTE: 300,
  ANALYTICS_IP_RATE_LIMIT_PER_MINUTE: 300,
} as const

/** Starts the stack; `stop` removes the temporary cluster. */
export async function startTestStack(
  log: (line: string) => void = () => {},
): Promise<{ env: TestStackEnv; stack: ThrowawayStack; stop(): Promise<void> }> {
  const stack = await startThrowawayStack({
    prefix: 'agent-insight-test-',
    // Tests configure function secrets themselves; a developer's AI_* or MAIL_* settings never leak in.
    // per-IP auth limits raised: the whole suite talks to the API from 127.0.0.1
    authConfigToml: path.join(rootDir, 'tests/fixtures/auth-config.toml'),
    functionSecrets: Object.fromEntries(
      Object.entries(TEST_FUNCTION_LIMITS).map(([name, value]) => [name, String(value)]),
    ),
    extraFunctions: [
      {
        functionsDir: path.join(rootDir, 'tests/fixtures/functions'),
        configToml: path.join(rootDir, 'tests/fixtures/config.toml'),
      },
    ],
    log,
  })
  // Tests keep fixture rows dated long ago (analytics in March 2001); the retention job would delete them under a
  // running test, so the test stack does not schedule it. tests/security run it themselves, inside a transaction.
  const client = new pg.Client({ connectionString: stack.databaseUrl })
  await client.connect()
  try {
    await client.query(`select cron.unschedule(jobname) from cron.job where jobname = 'prune-raw-events'`)
  } finally {
    await client.end()
  }
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
    stop: async () => {
      for (const line of deadlockReports(path.join(stack.dataDir, 'postgres.log'))) log(line)
      await stack.stop()
    },
  }
}

/**
 * The deadlocks PostgreSQL reported during the run, read from its log before the stack's directory is deleted: each
 * "deadlock detected" with its DETAIL (which process waited for what, and each process's statement) and CONTEXT, so a
 * test that failed on one names the other side. At most five reports of at most 40 lines; [] without a log.
 */
export function deadlockReports(logFile: string): string[] {
  if (!fs.existsSync(logFile)) return []
  const lines = fs.readFileSync(logFile, 'utf8').split('\n')
  const reports: string[] = []
  let found = 0
  for (let index = 0; index < lines.length && found < 5; index += 1) {
    if (!lines[index]!.includes('ERROR:  deadlock detected')) continue
    found += 1
    reports.push(`PostgreSQL reported a deadlock: ${lines[index]}`)
    // the report's own lines: tab-indented continuations and its DETAIL, HINT, CONTEXT and STATEMENT lines
    for (let next = index + 1, kept = 0; next < lines.length && kept < 40; next += 1, kept += 1) {
      const line = lines[next]!
      if (!line.startsWith('\t') && !/ (DETAIL|HINT|CONTEXT|STATEMENT): /.test(line)) break
      reports.push(`  ${line.trim()}`)
    }
  }
  return reports
}
